/**
 * The clock and the events of a held slot (slot.ts), at their exact edges: when a lease is
 * renewed (every `floor(leaseMs / 2)`), that a slow renewal is not stacked, when an unread body
 * gives its slot back (the second tick), and node:http's `close` of the response standing in for
 * the client's abort on @hono/node-server. Fake timers: nothing here sleeps.
 */
import { Hono } from 'hono'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type ConcurrencyStore, concurrencyLimit, MemoryConcurrencyStore } from './index'

function deferred<T = void>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

/** A memory store that logs the calls it finished, in order. */
function loggingStore(renew?: () => Promise<void>) {
  const inner = new MemoryConcurrencyStore()
  const calls: string[] = []
  const store: ConcurrencyStore = {
    async acquire(...args) {
      const result = await inner.acquire(...args)
      calls.push('acquire')
      return result
    },
    async renew(key, lease, leaseMs) {
      calls.push(`renew ${leaseMs}`)
      await renew?.()
      return inner.renew(key, lease, leaseMs)
    },
    async release(key, lease) {
      await inner.release(key, lease)
      calls.push('release')
    },
  }
  return { store, inner, calls }
}

/** A stand-in for node:http's ServerResponse, as @hono/node-server passes it on `c.env`. */
function outgoing(state: { closed?: boolean; destroyed?: boolean } = {}) {
  const listeners: Array<() => void> = []
  return {
    ...state,
    once(event: string, listener: () => void) {
      if (event === 'close') listeners.push(listener)
      return this
    },
    close() {
      for (const l of listeners.splice(0)) l()
    },
    listeners,
  }
}

/** Lets the store's promises settle (fake timers leave microtasks alone). */
const settle = () => vi.advanceTimersByTimeAsync(0)

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('concurrencyLimit: the lease clock', () => {
  it('renews every floor(leaseMs / 2) ms with the full leaseMs, and stops once the slot is freed', async () => {
    const { store, calls } = loggingStore()
    const gate = deferred()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k', leaseMs: 1001 }))
    app.get('/', async (c) => {
      await gate.promise
      return c.text('ok')
    })
    const res = app.request('/')
    await settle()
    expect(calls).toEqual(['acquire'])
    await vi.advanceTimersByTimeAsync(499)
    expect(calls).toEqual(['acquire'])
    await vi.advanceTimersByTimeAsync(1)
    expect(calls).toEqual(['acquire', 'renew 1001'])
    await vi.advanceTimersByTimeAsync(500)
    expect(calls).toEqual(['acquire', 'renew 1001', 'renew 1001'])
    gate.resolve()
    expect(await (await res).text()).toBe('ok')
    await settle()
    expect(calls.at(-1)).toBe('release')
    // The renewal timer is gone, not merely idle.
    expect(vi.getTimerCount()).toBe(0)
    const count = calls.length
    await vi.advanceTimersByTimeAsync(5_000)
    expect(calls).toHaveLength(count)
  })

  it('does not stack renewals while one is still pending, and renews again once it returns', async () => {
    let slowRenew = deferred()
    const { store, calls } = loggingStore(() => slowRenew.promise)
    const gate = deferred()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k', leaseMs: 100 }))
    app.get('/', async (c) => {
      await gate.promise
      return c.text('ok')
    })
    const res = app.request('/')
    await vi.advanceTimersByTimeAsync(50)
    expect(calls).toEqual(['acquire', 'renew 100'])
    await vi.advanceTimersByTimeAsync(200)
    expect(calls).toEqual(['acquire', 'renew 100'])
    const pending = slowRenew
    slowRenew = deferred()
    pending.resolve()
    await vi.advanceTimersByTimeAsync(50)
    expect(calls).toEqual(['acquire', 'renew 100', 'renew 100'])
    slowRenew.resolve()
    gate.resolve()
    await (await res).text()
  })

  it('gives an unread body’s slot back on the second tick after the answer, not the first', async () => {
    const { store, calls } = loggingStore()
    const app = new Hono()
    app.use(async (c, next) => {
      await next()
      c.res = new Response('replaced')
    })
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k', leaseMs: 1000 }))
    app.get('/', (c) => c.text('ok'))
    expect(await (await app.request('/')).text()).toBe('replaced')
    await vi.advanceTimersByTimeAsync(999)
    // The first tick renewed the lease: the body may still be read.
    expect(calls).toEqual(['acquire', 'renew 1000'])
    await vi.advanceTimersByTimeAsync(1)
    expect(calls).toEqual(['acquire', 'renew 1000', 'release'])
  })

  it('keeps the slot of a body whose reading began, however long it takes', async () => {
    const { store, calls } = loggingStore()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k', leaseMs: 1000 }))
    app.get('/', (c) => c.body(new ReadableStream({ pull: () => {} })))
    const res = await app.request('/')
    const reader = (res.body as ReadableStream<Uint8Array>).getReader()
    void reader.read()
    await vi.advanceTimersByTimeAsync(3_000)
    expect(calls).toEqual(['acquire', ...Array(6).fill('renew 1000')])
    await reader.cancel()
    await settle()
    expect(calls.at(-1)).toBe('release')
  })
})

describe('concurrencyLimit: node:http’s close of the response (@hono/node-server)', () => {
  it('frees the slot on close while the handler still runs, and only once', async () => {
    const { store, calls } = loggingStore()
    const gate = deferred()
    const entered = deferred()
    const out = outgoing()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k' }))
    app.get('/', async (c) => {
      entered.resolve()
      await gate.promise
      return c.text('ok')
    })
    const res = app.request('/', {}, { outgoing: out })
    await entered.promise
    expect(out.listeners).toHaveLength(1)
    out.close()
    await settle()
    expect(calls).toEqual(['acquire', 'release'])
    gate.resolve()
    await (await res).text()
    await settle()
    expect(calls).toEqual(['acquire', 'release'])
  })

  it('listens for the close once, however many times the slot is told to watch', async () => {
    const { store, calls } = loggingStore()
    const out = outgoing()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k' }))
    app.get('/', (c) => c.body(new ReadableStream({ pull: () => {} })))
    const res = await app.request('/', {}, { outgoing: out })
    expect(res.status).toBe(200)
    expect(out.listeners).toHaveLength(1)
    await settle()
    expect(calls).toEqual(['acquire'])
    out.close()
    await settle()
    expect(calls).toEqual(['acquire', 'release'])
  })

  it('follows the close, not the request’s signal, when node:http’s response is there', async () => {
    const { store, calls } = loggingStore()
    const gate = deferred()
    const entered = deferred()
    const out = outgoing()
    const abort = new AbortController()
    abort.abort()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k' }))
    app.get('/', async (c) => {
      entered.resolve()
      await gate.promise
      return c.text('ok')
    })
    const res = app.request('/', { signal: abort.signal }, { outgoing: out })
    await entered.promise
    await settle()
    // node-server aborts the signal from the close; only the close is listened to.
    expect(calls).toEqual(['acquire'])
    out.close()
    await settle()
    expect(calls).toEqual(['acquire', 'release'])
    gate.resolve()
    await res
  })

  it.each([
    ['closed', { closed: true }],
    ['destroyed', { destroyed: true }],
  ])('frees the slot at once when the response is already %s', async (_, state) => {
    const { store, calls } = loggingStore()
    const gate = deferred()
    const entered = deferred()
    const out = outgoing(state)
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k' }))
    app.get('/', async (c) => {
      entered.resolve()
      await gate.promise
      return c.text('ok')
    })
    const res = app.request('/', {}, { outgoing: out })
    await entered.promise
    await settle()
    expect(calls).toEqual(['acquire', 'release'])
    expect(out.listeners).toHaveLength(0)
    gate.resolve()
    await (await res).text()
  })

  it('holds the slot of an open response while the handler runs', async () => {
    const { store, calls } = loggingStore()
    const gate = deferred()
    const entered = deferred()
    const out = outgoing({ closed: false, destroyed: false })
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k' }))
    app.get('/', async (c) => {
      entered.resolve()
      await gate.promise
      return c.text('ok')
    })
    const res = app.request('/', {}, { outgoing: out })
    await entered.promise
    await settle()
    expect(calls).toEqual(['acquire'])
    gate.resolve()
    await (await res).text()
  })

  it("with release: 'handler', watches the close only once the handler has returned", async () => {
    const { store, calls } = loggingStore()
    const gate = deferred()
    const entered = deferred()
    const out = outgoing()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k', release: 'handler' }))
    app.get('/', async (c) => {
      entered.resolve()
      await gate.promise
      return c.text('ok')
    })
    const res = app.request('/', {}, { outgoing: out })
    await entered.promise
    expect(out.listeners).toHaveLength(0)
    out.destroyed = true
    gate.resolve()
    await (await res).text()
    await settle()
    // The connection was gone when the handler returned: nobody reads the body, the slot is back.
    expect(calls).toEqual(['acquire', 'release'])
  })
})

describe("concurrencyLimit: release: 'handler' and a deadline that passed", () => {
  it('frees the slot as the handler returns when the enclosing deadline already fired', async () => {
    const { store, calls } = loggingStore()
    const deadline = new AbortController()
    const gate = deferred()
    const app = new Hono<{ Variables: { timeoutSignal: AbortSignal } }>()
    app.use(async (c, next) => {
      c.set('timeoutSignal', deadline.signal)
      await next()
      // An outer middleware that swallowed the body: only the deadline frees the slot.
      c.res = new Response(null, { status: 408 })
    })
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k', release: 'handler' }))
    app.get('/', async (c) => {
      await gate.promise
      return c.body(new ReadableStream({ pull: () => {} }))
    })
    const res = app.request('/')
    await settle()
    deadline.abort()
    await settle()
    expect(calls).toEqual(['acquire'])
    gate.resolve()
    expect((await res).status).toBe(408)
    await settle()
    expect(calls).toEqual(['acquire', 'release'])
  })
})

describe('concurrencyLimit: bodies that fail or cannot be read', () => {
  it('frees the slot when a streamed body fails, and hands the failure to the reader', async () => {
    const { store, calls } = loggingStore()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k' }))
    let pulls = 0
    app.get('/', (c) =>
      c.body(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            if (pulls++ === 0) controller.enqueue(new TextEncoder().encode('first'))
            else controller.error(new Error('upstream reset'))
          },
        }),
      ),
    )
    const res = await app.request('/')
    const reader = (res.body as ReadableStream<Uint8Array>).getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('first')
    await settle()
    expect(calls).toEqual(['acquire'])
    await expect(reader.read()).rejects.toThrow('upstream reset')
    await settle()
    expect(calls).toEqual(['acquire', 'release'])
  })

  it('frees the slot at once for a body something already locked', async () => {
    const { store, calls } = loggingStore()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k' }))
    app.get('/', () => {
      const res = new Response(new ReadableStream({ pull: () => {} }))
      ;(res.body as ReadableStream).getReader()
      return res
    })
    const res = await app.request('/')
    expect(res.status).toBe(200)
    expect(res.body?.locked).toBe(true)
    await settle()
    expect(calls).toEqual(['acquire', 'release'])
  })

  it('frees the slot of a HEAD request when the GET body it drains fails', async () => {
    const { store, calls } = loggingStore()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k' }))
    app.get('/', (c) =>
      c.body(
        new ReadableStream<Uint8Array>({
          async pull(controller) {
            await new Promise((r) => setTimeout(r, 100))
            controller.error(new Error('upstream reset'))
          },
        }),
      ),
    )
    const res = await app.request('/', { method: 'HEAD' })
    expect(res.status).toBe(200)
    await vi.advanceTimersByTimeAsync(99)
    expect(calls).toEqual(['acquire'])
    await vi.advanceTimersByTimeAsync(1)
    expect(calls).toEqual(['acquire', 'release'])
  })

  it('holds a HEAD request’s slot until the GET body it drains ends', async () => {
    const { store, calls } = loggingStore()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k' }))
    let chunks = 0
    app.get('/', (c) =>
      c.body(
        new ReadableStream<Uint8Array>({
          async pull(controller) {
            await new Promise((r) => setTimeout(r, 100))
            if (++chunks > 3) controller.close()
            else controller.enqueue(new Uint8Array([chunks]))
          },
        }),
      ),
    )
    await app.request('/', { method: 'HEAD' })
    await vi.advanceTimersByTimeAsync(399)
    expect(calls).toEqual(['acquire'])
    expect(chunks).toBe(3)
    await vi.advanceTimersByTimeAsync(1)
    expect(calls).toEqual(['acquire', 'release'])
  })
})
