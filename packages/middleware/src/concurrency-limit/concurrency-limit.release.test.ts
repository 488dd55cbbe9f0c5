/**
 * When a slot comes back in the cases a request's work outlives its answer: a HEAD request to a
 * streaming GET (Hono drops the body unread), `release: 'handler'` past a requestTimeout's 408,
 * and a lease a store took before it threw.
 */
import { Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import { describe, expect, it } from 'vitest'
import { requestTimeout } from '../request-timeout'
import { type ConcurrencyStore, concurrencyLimit, MemoryConcurrencyStore } from './index'

function deferred<T = void>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

/** A memory store whose `released(n)` resolves once n releases have finished. */
function countingStore() {
  const inner = new MemoryConcurrencyStore()
  const releases: string[] = []
  const waiters: Array<{ n: number; resolve: () => void }> = []
  const store: ConcurrencyStore = {
    acquire: (...args) => inner.acquire(...args),
    renew: (...args) => inner.renew(...args),
    async release(key, lease) {
      await inner.release(key, lease)
      releases.push(lease)
      for (const w of waiters) if (releases.length >= w.n) w.resolve()
    },
  }
  const released = (n: number) =>
    releases.length >= n
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiters.push({ n, resolve }))
  return { store, inner, releases, released }
}

describe('concurrencyLimit: HEAD to a streaming GET', () => {
  it('holds the slot while the GET handler streams: 5 HEADs at once under max 1 admit one', async () => {
    const { store, released } = countingStore()
    const finish = deferred()
    let streams = 0
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k' }))
    app.get('/chat', (c) =>
      streamSSE(c, async (s) => {
        streams++
        await s.writeSSE({ data: 'token' })
        await finish.promise
        await s.writeSSE({ data: 'done' })
      }),
    )
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => app.request('/chat', { method: 'HEAD' })),
    )
    expect(answers.map((r) => r.status).sort()).toEqual([200, 429, 429, 429, 429])
    expect(streams).toBe(1)
    // A GET meanwhile is refused too: the HEAD's stream still runs.
    expect((await app.request('/chat')).status).toBe(429)
    finish.resolve()
    await released(1)
    const after = await app.request('/chat', { method: 'HEAD' })
    expect(after.status).toBe(200)
    expect(await after.text()).toBe('')
  })

  it('frees a plain HEAD at once, and a HEAD on the client abort (cancelling the stream)', async () => {
    const { store, released } = countingStore()
    let cancelled = false
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k' }))
    app.get('/', (c) => c.text('ok'))
    app.get('/forever', (c) =>
      streamSSE(c, async (s) => {
        s.onAbort(() => {
          cancelled = true
        })
        for (let i = 0; !s.aborted && i < 1_000_000; i++) await s.writeSSE({ data: String(i) })
      }),
    )
    expect((await app.request('/', { method: 'HEAD' })).status).toBe(200)
    await released(1)
    const abort = new AbortController()
    expect((await app.request('/forever', { method: 'HEAD', signal: abort.signal })).status).toBe(
      200,
    )
    expect((await app.request('/', { method: 'HEAD' })).status).toBe(429)
    abort.abort()
    await released(2)
    expect(cancelled).toBe(true)
    expect((await app.request('/', { method: 'HEAD' })).status).toBe(200)
  })
})

describe("concurrencyLimit: release: 'handler'", () => {
  it('holds the slot past an enclosing requestTimeout 408 until the handler returns', async () => {
    const { store, releases, released } = countingStore()
    const gate = deferred()
    const app = new Hono()
    app.use(requestTimeout({ ms: 30 }))
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k', release: 'handler' }))
    app.get('/slow', async (c) => {
      await gate.promise
      return c.text('late')
    })
    app.get('/', (c) => c.text('ok'))
    expect((await app.request('/slow')).status).toBe(408)
    // The handler still runs: its slot is still taken.
    expect((await app.request('/')).status).toBe(429)
    expect(releases).toEqual([])
    gate.resolve()
    await released(1)
    const after = await app.request('/')
    expect(after.status).toBe(200)
    expect(await after.text()).toBe('ok')
  })

  it('holds the slot past a client abort until the handler returns', async () => {
    const { store, releases, released } = countingStore()
    const gate = deferred()
    const entered = deferred()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k', release: 'handler' }))
    app.get('/slow', async (c) => {
      entered.resolve()
      await gate.promise
      return c.text('late')
    })
    app.get('/', (c) => c.text('ok'))
    const abort = new AbortController()
    const pending = app.request('/slow', { signal: abort.signal })
    await entered.promise
    abort.abort()
    expect((await app.request('/')).status).toBe(429)
    expect(releases).toEqual([])
    gate.resolve()
    await pending
    await released(1)
    expect((await app.request('/')).status).toBe(200)
  })

  it("keeps 'response' as the default, and refuses an unknown value", () => {
    expect(() => concurrencyLimit({ max: 1, release: 'body' as unknown as 'handler' })).toThrow(
      /"release" must be one of/,
    )
  })
})

describe('concurrencyLimit: a store that takes the lease and then throws', () => {
  /** Takes the slot in `inner`, then fails as a lost reply would. */
  const takesThenThrows = (inner: MemoryConcurrencyStore): ConcurrencyStore => ({
    async acquire(key, lease, max, leaseMs) {
      await inner.acquire(key, lease, max, leaseMs)
      throw new Error('connection reset after the write')
    },
    renew: (...args) => inner.renew(...args),
    release: (...args) => inner.release(...args),
  })

  for (const failOpen of [false, true]) {
    it(`gives the lease back (failOpen: ${failOpen})`, async () => {
      const inner = new MemoryConcurrencyStore()
      const app = new Hono()
      app.use(
        concurrencyLimit({
          max: 1,
          store: takesThenThrows(inner),
          key: () => 'k',
          failOpen,
          onStoreError: () => {},
        }),
      )
      app.get('/', (c) => c.text('ok'))
      expect((await app.request('/')).status).toBe(failOpen ? 200 : 503)
      await new Promise((resolve) => setTimeout(resolve, 0))
      // The slot the failed call took is free again.
      expect(await inner.acquire('k', 'next', 1, 60_000)).toEqual({ acquired: true, inFlight: 1 })
    })
  }
})

describe('concurrencyLimit: numbers', () => {
  it('refuses a max beyond 2^53 − 1 at construction (no store could count it)', () => {
    for (const max of [2 ** 53, 1e19]) {
      expect(() => concurrencyLimit({ max })).toThrow(/"max" must be at most 2\^53 − 1/)
    }
  })
})
