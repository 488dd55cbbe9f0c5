import { describe, expect, it } from 'vitest'
import { createApp } from '../../examples/app'
import { stdoutLines } from '../../examples/log-lines'

const turn = () => new Promise((resolve) => setImmediate(resolve))

describe('the example log sink', () => {
  it('writes the lines of one event-loop turn in one write, in order', async () => {
    const chunks: string[] = []
    const sink = stdoutLines((chunk) => chunks.push(chunk))
    sink('GET /a 200 1ms')
    sink('GET /b 404 0ms')
    expect(chunks).toEqual([])
    await turn()
    expect(chunks).toEqual(['GET /a 200 1ms\nGET /b 404 0ms\n'])
    sink('GET /c 200 0ms')
    await turn()
    expect(chunks).toEqual(['GET /a 200 1ms\nGET /b 404 0ms\n', 'GET /c 200 0ms\n'])
  })

  it('flush() writes what is pending at once, and nothing twice', async () => {
    const chunks: string[] = []
    const sink = stdoutLines((chunk) => chunks.push(chunk))
    sink('GET /a 200 1ms')
    sink.flush()
    expect(chunks).toEqual(['GET /a 200 1ms\n'])
    await turn()
    sink.flush()
    expect(chunks).toEqual(['GET /a 200 1ms\n'])
  })

  it('the example app logs each request to stdout, with its request ID', async () => {
    const written: string[] = []
    const write = process.stdout.write
    process.stdout.write = ((chunk: string) => {
      written.push(String(chunk))
      return true
    }) as typeof process.stdout.write
    const app = await createApp({
      JWT_SECRET: 'x'.repeat(40),
      SESSION_SECRET: 'y'.repeat(40),
      CSRF_SECRET: 'z'.repeat(40),
    })
    try {
      const res = await app.api.request('/api/ping', { headers: { 'x-request-id': 'req-1' } })
      expect(res.status).toBe(200)
      await turn()
    } finally {
      process.stdout.write = write
      await app.close()
    }
    expect(written.join('')).toMatch(/^GET \/api\/ping 200 \d+ms req-1\n$/m)
  })
})
