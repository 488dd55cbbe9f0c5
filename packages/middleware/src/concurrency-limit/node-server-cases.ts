// The cases of concurrencyLimit served by a real @hono/node-server (issue 42), run by
// concurrency-limit.node-server.test.ts (the installed node-server, and the version matrix) and
// concurrency-limit.node-server-1.test.ts (1.19.19).
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Served, serveOnLoopback } from '../../test/node-server'
import { internalsSwitchedOff, lightResponseParts } from '../internal/http/node-server'
import { type ConcurrencyStore, concurrencyLimit, MemoryConcurrencyStore } from './index'

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

/** A memory store that counts finished releases; `released(n)` waits for the n-th. */
function countingStore() {
  const inner = new MemoryConcurrencyStore()
  let count = 0
  const waiters: Array<[number, () => void]> = []
  const store: ConcurrencyStore = {
    acquire: (...args) => inner.acquire(...args),
    renew: (...args) => inner.renew(...args),
    async release(key, lease) {
      await inner.release(key, lease)
      count++
      for (const [n, done] of waiters) if (count >= n) done()
    },
  }
  const released = (n: number) =>
    new Promise<void>((done) => (count >= n ? done() : waiters.push([n, done])))
  return { store, released, count: () => count }
}

/** The cases, on node-server's `serve` or an older version's (`serveWith`). */
export function nodeServerCases(
  label: string,
  serveWith?: Parameters<typeof serveOnLoopback>[1],
  withHead = true,
): void {
  const gate = { hold: deferred(), entered: deferred() }
  const { store, released, count } = countingStore()
  let light: boolean | undefined
  let served: Served

  beforeAll(async () => {
    const app = new Hono()
    app.use('/seen/*', async (c, next) => {
      await next()
      light = lightResponseParts(c.res) !== undefined
    })
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k' }))
    app.get('/held', async (c) => {
      gate.entered.resolve()
      await gate.hold.promise
      return c.json({ ok: true })
    })
    app.get('/seen/plain', (c) => c.json({ ok: true }))
    app.get('/plain', (c) => c.text('plain'))
    app.get('/throws', () => {
      throw new Error('boom')
    })
    app.get('/stream', (c) => {
      let sent = 0
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (sent++ === 3) return controller.close()
          await new Promise((r) => setTimeout(r, 20))
          controller.enqueue(new TextEncoder().encode(`chunk ${sent}\n`))
        },
      })
      return c.body(body)
    })
    served = await serveOnLoopback(app, serveWith)
  })

  afterAll(() => served.close())

  const get = (path: string, init?: RequestInit) => fetch(`${served.base}${path}`, init)

  describe(`concurrencyLimit on @hono/node-server ${label}`, () => {
    it('holds the slot of a plain body until the answer is out, then frees it', async () => {
      const start = count()
      Object.assign(gate, { hold: deferred(), entered: deferred() })
      const held = get('/held')
      await gate.entered.promise
      const refused = await get('/plain')
      expect(refused.status).toBe(429)
      await refused.text()
      expect(count()).toBe(start)
      gate.hold.resolve()
      const res = await held
      expect(await res.json()).toEqual({ ok: true })
      await released(start + 1)
      const after = await get('/plain')
      expect(after.status).toBe(200)
      expect(await after.text()).toBe('plain')
      await released(start + 2)
    })

    it('keeps node-server’s lightweight response for a plain body (unless the internals are off)', async () => {
      const start = count()
      light = undefined
      const res = await get('/seen/plain')
      expect(await res.json()).toEqual({ ok: true })
      expect(light).toBe(!internalsSwitchedOff())
      // The slot comes back on node:http's `close`, which a loaded host may deliver after the
      // client has read the body: the next case counts releases from a settled store.
      await released(start + 1)
    })

    it('frees the slot on the client’s abort while the handler still runs', async () => {
      const start = count()
      Object.assign(gate, { hold: deferred(), entered: deferred() })
      const abort = new AbortController()
      const held = get('/held', { signal: abort.signal }).catch((e: Error) => e)
      await gate.entered.promise
      abort.abort()
      expect(await held).toBeInstanceOf(Error)
      await released(start + 1)
      gate.hold.resolve()
      const after = await get('/plain')
      expect(after.status).toBe(200)
      await after.text()
      await released(start + 2)
    })

    it('frees the slot when the handler throws', async () => {
      const start = count()
      const res = await get('/throws')
      expect(res.status).toBe(500)
      await res.text()
      await released(start + 1)
    })

    it('holds the slot of a streamed body until its last chunk, and a HEAD’s until it is sent', async () => {
      const start = count()
      const res = await get('/stream')
      expect(res.status).toBe(200)
      const reader = (res.body as ReadableStream<Uint8Array>).getReader()
      const first = await reader.read()
      expect(new TextDecoder().decode(first.value)).toBe('chunk 1\n')
      const busy = await get('/plain')
      expect(busy.status).toBe(429)
      await busy.text()
      expect(count()).toBe(start)
      while (!(await reader.read()).done) {}
      await released(start + 1)
      if (!withHead) return
      const head = await get('/plain', { method: 'HEAD' })
      expect(head.status).toBe(200)
      await head.text()
      await released(start + 2)
      expect((await get('/plain')).status).toBe(200)
    })
  })
}
