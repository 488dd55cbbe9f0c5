import { Hono } from 'hono'
import { describe, expect, it, vi } from 'vitest'
import { checkUrl, ssrfGuard } from './index'

// An edge runtime: `node:dns/promises` does not exist, so the lazy import fails.
vi.mock('node:dns/promises', () => {
  throw new Error('No such module "node:dns/promises"')
})

describe('ssrfGuard without DNS (edge runtimes)', () => {
  it('lets hostnames pass the address check', async () => {
    expect(await checkUrl('https://internal.example/')).toEqual({
      ok: true,
      url: new URL('https://internal.example/'),
      addresses: [],
    })
  })

  it.each([
    'http://127.0.0.1/',
    'http://0x7f.1/',
    'http://[::1]/',
    'http://[::ffff:169.254.169.254]/',
    'http://localhost/',
    'http://app.localhost./',
    'http://metadata.google.internal/',
    'http://instance-data/',
  ])('still blocks the literal or reserved name %s', async (url) => {
    expect(await checkUrl(url)).toMatchObject({ ok: false, status: 403 })
  })

  it('still enforces the scheme and URL syntax', async () => {
    expect(await checkUrl('file:///etc/passwd')).toMatchObject({ ok: false, status: 400 })
    expect(await checkUrl('http://[::1')).toMatchObject({ ok: false, status: 400 })
  })

  it('behaves the same inside the middleware', async () => {
    const app = new Hono()
    app.post('/', ssrfGuard(), (c) => c.text('ok'))
    const send = (url: string) =>
      app.request('/', {
        method: 'POST',
        body: JSON.stringify({ url }),
        headers: { 'content-type': 'application/json' },
      })
    expect((await send('https://hooks.example/')).status).toBe(200)
    expect((await send('http://localhost:8080/')).status).toBe(403)
    expect((await send('http://10.0.0.1/')).status).toBe(403)
    expect((await send('ftp://hooks.example/')).status).toBe(400)
  })
})
