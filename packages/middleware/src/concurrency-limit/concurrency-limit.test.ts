import { getMiddlewareDescription } from '@palisade/shared/describe'
import { Hono } from 'hono'
import { stream } from 'hono/streaming'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { installDecisions } from '../internal/outcomes/decisions'
import { Rejection } from '../internal/outcomes/rejection'
import { requestTimeout } from '../request-timeout'
import {
  type ConcurrencyLimitOptions,
  type ConcurrencyStore,
  concurrencyLimit,
  MemoryConcurrencyStore,
} from './index'

/** `env` as @hono/node-server passes it: the socket's address is the connection address. */
const fromSocket = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } })

/** A promise with its resolver, to hold handlers and wait for events instead of sleeping. */
function deferred<T = void>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

/**
 * A memory store that records every call; `released(n)` resolves once n releases have finished,
 * so tests wait for the slot to come back instead of sleeping.
 */
function spyStore(options: { now?: () => number; beforeRenew?: () => void } = {}) {
  const inner = new MemoryConcurrencyStore({ now: options.now })
  const releases: string[] = []
  const renews: string[] = []
  const waiters: Array<{ n: number; resolve: () => void }> = []
  const renewWaiters: Array<{ n: number; resolve: () => void }> = []
  const store: ConcurrencyStore = {
    acquire: (...args) => inner.acquire(...args),
    async renew(key, lease, ms) {
      options.beforeRenew?.()
      const ok = await inner.renew(key, lease, ms)
      renews.push(lease)
      for (const w of renewWaiters) if (renews.length >= w.n) w.resolve()
      return ok
    },
    async release(key, lease) {
      await inner.release(key, lease)
      releases.push(lease)
      for (const w of waiters) if (releases.length >= w.n) w.resolve()
    },
  }
  const until = (list: string[], queue: typeof waiters, n: number) =>
    list.length >= n
      ? Promise.resolve()
      : new Promise<void>((resolve) => queue.push({ n, resolve }))
  return {
    store,
    inner,
    releases,
    renews,
    released: (n: number) => until(releases, waiters, n),
    renewed: (n: number) => until(renews, renewWaiters, n),
  }
}

afterEach(() => {
  vi.restoreAllMocks()
})

/** The three methods of a ConcurrencyStore, doing nothing: for the checks of the option. */
function storeMethods(): ConcurrencyStore {
  return {
    acquire: async () => ({ acquired: true, inFlight: 1 }),
    renew: async () => true,
    release: async () => {},
  }
}

describe('concurrencyLimit: options', () => {
  it.each<[string, unknown, RegExp]>([
    ['no options', undefined, /^concurrencyLimit: options with "max" must be given/],
    ['no max', {}, /^concurrencyLimit: "max" is required/],
    ['max 0', { max: 0 }, /^concurrencyLimit: "max" must be a positive integer/],
    ['max 1.5', { max: 1.5 }, /"max" must be a positive integer/],
    ['max as a string', { max: '2' }, /"max" must be a positive integer/],
    ['a typo', { max: 1, leaseMS: 5 }, /^concurrencyLimit: unknown option "leaseMS"/],
    ['leaseMs 0', { max: 1, leaseMs: 0 }, /"leaseMs" must be a positive integer/],
    ['leaseMs 1', { max: 1, leaseMs: 1 }, /"leaseMs" must be from 2/],
    ['retryAfter 0', { max: 1, retryAfter: 0 }, /"retryAfter" must be a positive integer/],
    ['an empty message', { max: 1, message: '' }, /"message"/],
    ['key not a function', { max: 1, key: 'ip' }, /"key" must be a function/],
    ['ipv6Subnet 20', { max: 1, ipv6Subnet: 20 }, /"ipv6Subnet" must be an integer from 32/],
    [
      'ipv6Subnet with a key',
      { max: 1, key: () => 'k', ipv6Subnet: 48 },
      /"ipv6Subnet" applies to the default key only; with a key/,
    ],
    ['a store without release', { max: 1, store: { acquire() {}, renew() {} } }, /"store"/],
    ['failOpen not boolean', { max: 1, failOpen: 'yes' }, /"failOpen" must be a boolean/],
    ['dryRun not boolean', { max: 1, dryRun: 1 }, /"dryRun" must be a boolean/],
    [
      'max past 2^53 − 1',
      { max: 2 ** 53 },
      /^concurrencyLimit: "max" must be at most 2\^53 − 1, got 9007199254740992$/,
    ],
    [
      'leaseMs past a timer’s range',
      { max: 1, leaseMs: 2_147_483_648 },
      /^concurrencyLimit: "leaseMs" must be from 2 to 2147483647, got 2147483648$/,
    ],
    ['skip not a function', { max: 1, skip: true }, /^concurrencyLimit: "skip" must be a function/],
    [
      'onStoreError not a function',
      { max: 1, onStoreError: 'log' },
      /^concurrencyLimit: "onStoreError" must be a function/,
    ],
    ['an unknown release', { max: 1, release: 'body' }, /^concurrencyLimit: "release"/],
    ...(
      [
        ['a null store', null],
        ['a store that is a function', Object.assign(() => {}, storeMethods())],
        ['a store without acquire', { ...storeMethods(), acquire: 1 }],
        ['a store without renew', { ...storeMethods(), renew: undefined }],
        ['a store without release', { ...storeMethods(), release: 'x' }],
      ] as const
    ).map(
      ([name, store]) =>
        [
          name,
          { max: 1, store },
          /^concurrencyLimit: "store" must be a ConcurrencyStore with acquire, renew and release$/,
        ] as [string, unknown, RegExp],
    ),
  ])('refuses %s at construction with a TypeError', (_, options, message) => {
    expect(() => concurrencyLimit(options as ConcurrencyLimitOptions)).toThrow(TypeError)
    expect(() => concurrencyLimit(options as ConcurrencyLimitOptions)).toThrow(message)
  })

  it.each<[string, Partial<ConcurrencyLimitOptions>]>([
    ['the largest max', { max: 2 ** 53 - 1 }],
    ['the shortest lease', { leaseMs: 2 }],
    ['the longest lease', { leaseMs: 2_147_483_647 }],
    ['release: handler', { release: 'handler' }],
    ['release: response', { release: 'response' }],
    ['a store with the three methods', { store: storeMethods() }],
  ])('accepts %s', (_, options) => {
    expect(typeof concurrencyLimit({ max: 1, ...options })).toBe('function')
  })
})

describe('concurrencyLimit: slow handlers', () => {
  it('admits exactly max of 10 concurrent slow requests, refuses the rest with 429, then hands the slots back', async () => {
    const { store, released } = spyStore()
    const gate = deferred()
    const allIn = deferred()
    let entered = 0
    const app = new Hono()
    app.use(concurrencyLimit({ max: 3, store }))
    app.get('/', async (c) => {
      if (++entered === 3) allIn.resolve()
      await gate.promise
      return c.text('done')
    })
    let refusedCount = 0
    const allRefused = deferred()
    const requests = Array.from({ length: 10 }, async () =>
      Promise.resolve(app.request('/', {}, fromSocket('1.2.3.4'))).then((r: Response) => {
        if (r.status === 429 && ++refusedCount === 7) allRefused.resolve()
        return r
      }),
    )
    // The seven refusals come back while the three admitted handlers are still waiting.
    await allIn.promise
    await allRefused.promise
    expect(entered).toBe(3)
    gate.resolve()
    const responses = await Promise.all(requests)
    const statuses = responses.map((r) => r.status).sort()
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429, 429])
    expect(entered).toBe(3)
    const refused = responses.find((r) => r.status === 429) as Response
    expect(refused.headers.get('Retry-After')).toBe('1')
    expect(await refused.text()).toBe('Too many concurrent requests')
    // Admitted responses hold their slots until their bodies are out.
    for (const r of responses) if (r.status === 200) expect(await r.text()).toBe('done')
    await released(3)
    const again = await Promise.all(
      Array.from({ length: 3 }, () => app.request('/', {}, fromSocket('1.2.3.4'))),
    )
    expect(again.map((r) => r.status)).toEqual([200, 200, 200])
  })

  it('refuses while the slots are taken and admits again once one is freed', async () => {
    const gate = deferred()
    const entered = deferred()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, key: () => 'k' }))
    app.get('/slow', async (c) => {
      entered.resolve()
      await gate.promise
      return c.text('slow')
    })
    app.get('/fast', (c) => c.text('fast'))
    const slow = app.request('/slow')
    await entered.promise
    const refused = await app.request('/fast')
    expect(refused.status).toBe(429)
    gate.resolve()
    expect(await (await slow).text()).toBe('slow')
    expect((await app.request('/fast')).status).toBe(200)
  })

  it('keys by client IP by default: one client at its limit does not block another', async () => {
    const gate = deferred()
    const entered = deferred()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1 }))
    app.get('/', async (c) => {
      if (c.req.query('wait') !== undefined) {
        entered.resolve()
        await gate.promise
      }
      return c.text('ok')
    })
    const held = app.request('/?wait', {}, fromSocket('198.51.100.1'))
    await entered.promise
    expect((await app.request('/', {}, fromSocket('198.51.100.1'))).status).toBe(429)
    expect((await app.request('/', {}, fromSocket('198.51.100.2'))).status).toBe(200)
    // IPv6 clients share their /56, as with rateLimit.
    const v6 = app.request('/?wait', {}, fromSocket('2001:db8:1:100::1'))
    const v6Refused = await app.request('/', {}, fromSocket('2001:db8:1:1ff::2'))
    expect(v6Refused.status).toBe(429)
    gate.resolve()
    await (await held).text()
    await (await v6).text()
  })

  it('answers with a Rejection carrying the concurrency_limited code and Retry-After', async () => {
    const gate = deferred()
    const entered = deferred()
    const errors: unknown[] = []
    const app = new Hono()
    app.onError((err, c) => {
      errors.push(err)
      return c.text('handled', 429)
    })
    app.use(concurrencyLimit({ max: 1, key: () => 'k', retryAfter: 5, message: 'Busy' }))
    app.get('/', async (c) => {
      entered.resolve()
      await gate.promise
      return c.text('ok')
    })
    const first = app.request('/')
    await entered.promise
    await app.request('/')
    const [error] = errors
    expect(error).toBeInstanceOf(Rejection)
    expect((error as Rejection).code).toBe('concurrency_limited')
    expect((error as Rejection).status).toBe(429)
    expect((error as Rejection).getResponse().headers.get('Retry-After')).toBe('5')
    expect(await (error as Rejection).getResponse().text()).toBe('Busy')
    gate.resolve()
    await (await first).text()
  })

  it('answers 429 with Retry-After 1 and its default message when nothing is set', async () => {
    const gate = deferred()
    const entered = deferred()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, key: () => 'k' }))
    app.get('/', async (c) => {
      entered.resolve()
      await gate.promise
      return c.text('ok')
    })
    const first = app.request('/')
    await entered.promise
    const refused = await app.request('/')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('Retry-After')).toBe('1')
    expect(await refused.text()).toBe('Too many concurrent requests')
    gate.resolve()
    await (await first).text()
  })
})

describe('concurrencyLimit: the slot is freed exactly once', () => {
  it('when the handler throws', async () => {
    // Hono's default error handler logs the error; the test only needs the 500.
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const { store, releases, released } = spyStore()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k' }))
    app.get('/boom', () => {
      throw new Error('boom')
    })
    app.get('/ok', (c) => c.text('ok'))
    expect((await app.request('/boom')).status).toBe(500)
    await released(1)
    expect((await app.request('/boom')).status).toBe(500)
    const ok = await app.request('/ok')
    expect(ok.status).toBe(200)
    await ok.text()
    await released(3)
    expect(new Set(releases).size).toBe(3)
  })

  it('when the handler throws past an onError that rethrows', async () => {
    const { store, released } = spyStore()
    const app = new Hono()
    app.onError((err) => {
      throw err
    })
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k' }))
    app.get('/', () => {
      throw new Error('boom')
    })
    await expect(app.request('/')).rejects.toThrow('boom')
    await released(1)
    expect(await store.acquire('k', 'probe', 1, 1000)).toEqual({ acquired: true, inFlight: 1 })
  })

  it('when the client aborts, while the handler is still running', async () => {
    const { store, releases, released } = spyStore()
    const gate = deferred()
    const entered = deferred()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k' }))
    app.get('/', async (c) => {
      if (c.req.query('wait') !== undefined) {
        entered.resolve()
        await gate.promise
      }
      return c.text('ok')
    })
    const controller = new AbortController()
    const aborted = app.request(new Request('http://x/?wait', { signal: controller.signal }))
    await entered.promise
    expect((await app.request('/')).status).toBe(429)
    controller.abort()
    await released(1)
    const next = await app.request('/')
    expect(next.status).toBe(200)
    await next.text()
    // The aborted request's handler finishes later; its slot is not released a second time.
    gate.resolve()
    await (await aborted).text().catch(() => undefined)
    await released(2)
    expect(releases).toHaveLength(2)
    expect(new Set(releases).size).toBe(2)
  })

  it('when a streamed body ends, not before', async () => {
    const { store, releases, released } = spyStore()
    const more = deferred()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k' }))
    app.get('/stream', (c) =>
      stream(c, async (s) => {
        await s.write('first ')
        await more.promise
        await s.write('last')
      }),
    )
    app.get('/', (c) => c.text('ok'))
    const res = await app.request('/stream')
    expect(res.status).toBe(200)
    // The handler returned long ago; the stream is still open, and so is its slot.
    expect((await app.request('/')).status).toBe(429)
    expect(releases).toEqual([])
    more.resolve()
    expect(await res.text()).toBe('first last')
    await released(1)
    const after = await app.request('/')
    expect(after.status).toBe(200)
    expect(await after.text()).toBe('ok')
  })

  it('when the reader cancels a streamed body', async () => {
    const { store, released } = spyStore()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k' }))
    app.get('/stream', (c) =>
      stream(c, async (s) => {
        await s.write('tick')
        await new Promise(() => {})
      }),
    )
    const res = await app.request('/stream')
    const reader = (res.body as ReadableStream).getReader()
    expect((await reader.read()).done).toBe(false)
    expect((await app.request('/stream')).status).toBe(429)
    await reader.cancel()
    await released(1)
    expect((await app.request('/stream')).status).toBe(200)
  })

  it('when an enclosing requestTimeout answers 408, while the handler still runs', async () => {
    const { store, releases, released } = spyStore()
    const gate = deferred()
    const app = new Hono()
    app.use(requestTimeout({ ms: 30 }))
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k' }))
    app.get('/slow', async (c) => {
      await gate.promise
      return c.text('late')
    })
    app.get('/', (c) => c.text('ok'))
    const timedOut = await app.request('/slow')
    expect(timedOut.status).toBe(408)
    // Freed when the 408 went out, not when the handler gives up.
    await released(1)
    const next = await app.request('/')
    expect(next.status).toBe(200)
    await next.text()
    gate.resolve()
    await released(2)
    expect(new Set(releases).size).toBe(2)
  })

  it('when a requestTimeout inside it answers 408', async () => {
    const { store, released } = spyStore()
    const gate = deferred()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k' }))
    app.use(requestTimeout({ ms: 30 }))
    app.get('/slow', async (c) => {
      await gate.promise
      return c.text('late')
    })
    app.get('/', (c) => c.text('ok'))
    const timedOut = await app.request('/slow')
    expect(timedOut.status).toBe(408)
    expect(await timedOut.text()).toBe('Request Timeout')
    await released(1)
    expect((await app.request('/')).status).toBe(200)
    gate.resolve()
  })

  it('at once for a HEAD request and a response without a body', async () => {
    const { store, released } = spyStore()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k' }))
    app.get('/', (c) => c.text('ok'))
    app.get('/empty', (c) => c.body(null, 204))
    await app.request('/', { method: 'HEAD' })
    await released(1)
    await app.request('/empty')
    await released(2)
  })

  it('after a lease when the body is dropped unread (an outer middleware replaced it)', async () => {
    const { store, released } = spyStore()
    const app = new Hono()
    app.use(async (c, next) => {
      await next()
      c.res = new Response('replaced')
    })
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k', leaseMs: 40 }))
    app.get('/', (c) => c.text('ok'))
    expect(await (await app.request('/')).text()).toBe('replaced')
    await released(1)
  })
})

describe('concurrencyLimit: leases', () => {
  it('renews the lease of a long request, which keeps its slot past leaseMs', async () => {
    // The store's clock moves 50 ms (less than a lease) before each renewal, whatever the real
    // timers do: three renewals take it to 150 ms, well past the first lease's end at 60 ms.
    let now = 0
    const { store, inner, renewed, releases } = spyStore({
      now: () => now,
      beforeRenew: () => {
        now += 50
      },
    })
    const gate = deferred()
    const entered = deferred()
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store, key: () => 'k', leaseMs: 60 }))
    app.get('/', async (c) => {
      entered.resolve()
      await gate.promise
      return c.text('ok')
    })
    const res = app.request('/')
    await entered.promise
    await renewed(3)
    expect(now).toBeGreaterThanOrEqual(150)
    expect(await inner.acquire('k', 'other', 1, 60)).toEqual({ acquired: false, inFlight: 1 })
    gate.resolve()
    await (await res).text()
    expect(releases).toHaveLength(1)
  })

  it('fails the request with a TypeError when key(c) returns no string, taking no slot', async () => {
    const { store, inner } = spyStore()
    const errors: unknown[] = []
    const app = new Hono()
    app.onError((err, c) => {
      errors.push(err)
      return c.text('bug', 500)
    })
    app.use(concurrencyLimit({ max: 1, store, key: () => 42 as unknown as string }))
    app.get('/', (c) => c.text('ok'))
    expect((await app.request('/')).status).toBe(500)
    expect(String(errors[0])).toMatch(/^TypeError: concurrencyLimit: key\(c\) must return a string/)
    expect(inner.size).toBe(0)
  })

  it('draws a fresh lease id per request', async () => {
    const leases: string[] = []
    const inner = new MemoryConcurrencyStore()
    const app = new Hono()
    app.use(
      concurrencyLimit({
        max: 5,
        key: () => 'k',
        store: {
          acquire: (key, lease, max, ms) => {
            leases.push(lease)
            return inner.acquire(key, lease, max, ms)
          },
          renew: (...a) => inner.renew(...a),
          release: (...a) => inner.release(...a),
        },
      }),
    )
    app.get('/', (c) => c.text('ok'))
    for (let i = 0; i < 3; i++) await (await app.request('/')).text()
    expect(new Set(leases).size).toBe(3)
    for (const lease of leases) expect(lease).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe('concurrencyLimit: store failures', () => {
  const failing: ConcurrencyStore = {
    acquire: async () => Promise.reject(new Error('connection refused')),
    renew: async () => Promise.reject(new Error('connection refused')),
    release: async () => Promise.reject(new Error('connection refused')),
  }

  it('answers 503 store_unavailable by default and warns once per outage', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store: failing }))
    app.get('/', (c) => c.text('ok'))
    const res = await app.request('/')
    expect(res.status).toBe(503)
    expect(await res.text()).toBe('Concurrency store unavailable')
    await app.request('/')
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]?.[0])).toMatch(
      /^concurrencyLimit: store failed, rejecting with 503.*connection refused/,
    )
  })

  it('lets requests through with failOpen, reporting to onStoreError', async () => {
    const errors: unknown[] = []
    const app = new Hono()
    app.use(
      concurrencyLimit({
        max: 1,
        store: failing,
        failOpen: true,
        onStoreError: (e) => errors.push(e),
      }),
    )
    app.get('/', (c) => c.text('ok'))
    expect((await app.request('/')).status).toBe(200)
    expect(errors.length).toBeGreaterThanOrEqual(1)
  })

  it('asks a store with forContext for the store of each request, and 503s when that fails', async () => {
    const bound = new MemoryConcurrencyStore()
    const seen: unknown[] = []
    const resolving: ConcurrencyStore = {
      ...failing,
      forContext: (c) => {
        seen.push(c.req.header('x-tenant'))
        if (c.req.header('x-tenant') === 'none') throw new Error('no binding')
        return bound
      },
    }
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store: resolving, key: () => 'k', onStoreError: () => {} }))
    app.get('/', (c) => c.text('ok'))
    const ok = await app.request('/', { headers: { 'x-tenant': 'a' } })
    expect(ok.status).toBe(200)
    await ok.text()
    expect((await app.request('/', { headers: { 'x-tenant': 'none' } })).status).toBe(503)
    expect(seen).toEqual(['a', 'none'])
    expect(bound.size).toBe(0)
  })

  it('reports a failing forContext once, with its own error, and releases nothing', async () => {
    const errors: unknown[] = []
    const resolving: ConcurrencyStore = {
      ...failing,
      forContext: () => {
        throw new Error('no binding')
      },
    }
    const records: Rejection[] = []
    const app = new Hono()
    app.onError((err, c) => {
      if (err instanceof Rejection) records.push(err)
      return c.text('handled', 500)
    })
    app.use(concurrencyLimit({ max: 1, store: resolving, onStoreError: (e) => errors.push(e) }))
    app.get('/', (c) => c.text('ok'))
    await app.request('/')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(errors.map(String)).toEqual(['Error: no binding'])
    expect(records.map((r) => [r.status, r.code])).toEqual([[503, 'store_unavailable']])
    expect(await records[0]?.getResponse().text()).toBe('Concurrency store unavailable')
  })

  it('warns again when the store fails after it recovered', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    let down = true
    const inner = new MemoryConcurrencyStore()
    const flaky: ConcurrencyStore = {
      acquire: async (...a) => {
        if (down) throw new Error('connection refused')
        return inner.acquire(...a)
      },
      renew: (...a) => inner.renew(...a),
      // Down means down: the release after a failed acquire fails too (a success would end the
      // outage, as any store call that succeeds does).
      release: async (...a) => {
        if (down) throw new Error('connection refused')
        return inner.release(...a)
      },
    }
    const app = new Hono()
    app.use(concurrencyLimit({ max: 1, store: flaky, key: () => 'k' }))
    app.get('/', (c) => c.text('ok'))
    expect((await app.request('/')).status).toBe(503)
    expect((await app.request('/')).status).toBe(503)
    down = false
    const ok = await app.request('/')
    expect(ok.status).toBe(200)
    await ok.text()
    down = true
    expect((await app.request('/')).status).toBe(503)
    expect(warn).toHaveBeenCalledTimes(2)
  })

  it('records a failOpen pass as skip with store_unavailable, and a skipped request as skip', async () => {
    const records: ReturnType<typeof installDecisions>[] = []
    const app = new Hono()
    app.use(async (c, next) => {
      records.push(installDecisions(c))
      await next()
    })
    app.use(
      concurrencyLimit({
        max: 1,
        store: failing,
        failOpen: true,
        skip: (c) => c.req.path === '/health',
        onStoreError: () => {},
      }),
    )
    app.get('*', (c) => c.text('ok'))
    expect((await app.request('/')).status).toBe(200)
    expect((await app.request('/health')).status).toBe(200)
    expect(records[0]?.decisions).toMatchObject([
      { middleware: 'concurrencyLimit', outcome: 'skip', code: 'store_unavailable' },
    ])
    expect(records[1]?.decisions).toMatchObject([
      { middleware: 'concurrencyLimit', outcome: 'skip', code: undefined },
    ])
  })

  it.each([
    ['no answer', undefined],
    ['acquired not a boolean', { acquired: 'yes', inFlight: 1 }],
  ])('treats %s from the store as a failure, with a TypeError saying so', async (_, answer) => {
    const errors: unknown[] = []
    const app = new Hono()
    const store = { ...failing, acquire: async () => answer } as unknown as ConcurrencyStore
    app.use(concurrencyLimit({ max: 1, store, onStoreError: (e) => errors.push(e) }))
    app.get('/', (c) => c.text('ok'))
    expect((await app.request('/')).status).toBe(503)
    expect(errors[0]).toBeInstanceOf(TypeError)
    expect(String(errors[0])).toBe('TypeError: store returned an invalid { acquired, inFlight }')
  })

  it('treats a malformed store answer as a failure', async () => {
    const app = new Hono()
    const store = { ...failing, acquire: async () => ({}) } as unknown as ConcurrencyStore
    app.use(concurrencyLimit({ max: 1, store, onStoreError: () => {} }))
    app.get('/', (c) => c.text('ok'))
    expect((await app.request('/')).status).toBe(503)
  })
})

describe('concurrencyLimit: dry run, skip and decisions', () => {
  it('records allow with the store timing, and dry-run instead of refusing', async () => {
    const gate = deferred()
    const entered = deferred()
    const records: ReturnType<typeof installDecisions>[] = []
    const app = new Hono()
    app.use(async (c, next) => {
      records.push(installDecisions(c))
      await next()
    })
    app.use(concurrencyLimit({ max: 1, key: () => 'k', dryRun: true }))
    app.get('/', async (c) => {
      if (c.req.query('wait') !== undefined) {
        entered.resolve()
        await gate.promise
      }
      return c.text('ok')
    })
    const held = app.request('/?wait')
    await entered.promise
    const dry = await app.request('/')
    expect(dry.status).toBe(200)
    gate.resolve()
    await (await held).text()
    expect(records[0]?.decisions).toEqual([
      {
        middleware: 'concurrencyLimit',
        outcome: 'allow',
        ms: expect.any(Number),
        store: { op: 'acquire', ms: expect.any(Number) },
        code: undefined,
        status: undefined,
      },
    ])
    expect(records[1]?.decisions).toMatchObject([
      {
        middleware: 'concurrencyLimit',
        outcome: 'dry-run',
        code: 'concurrency_limited',
        status: 429,
      },
    ])
  })

  it('takes no slot for skipped requests', async () => {
    const { store, inner } = spyStore()
    const gate = deferred()
    const entered = deferred()
    const app = new Hono()
    app.use(
      concurrencyLimit({ max: 1, store, key: () => 'k', skip: (c) => c.req.path === '/health' }),
    )
    app.get('/health', async (c) => {
      entered.resolve()
      await gate.promise
      return c.text('ok')
    })
    const health = app.request('/health')
    await entered.promise
    expect(await inner.acquire('k', 'probe', 1, 1000)).toEqual({ acquired: true, inFlight: 1 })
    gate.resolve()
    await health
  })
})

describe('concurrencyLimit: self-description', () => {
  it('documents the 429 with Retry-After, and a 503 only for a shared store without failOpen', () => {
    const d = getMiddlewareDescription(concurrencyLimit({ max: 1 }))
    expect(d?.middleware).toBe('concurrencyLimit')
    expect(d?.responses?.map((r) => r.status)).toEqual([429])
    expect(d?.responses?.[0]).toMatchObject({
      codes: ['concurrency_limited'],
      headers: [{ name: 'Retry-After' }],
    })
    const shared: ConcurrencyStore = {
      acquire: async () => ({ acquired: true, inFlight: 1 }),
      renew: async () => true,
      release: async () => {},
    }
    const statuses = (o: ConcurrencyLimitOptions) =>
      getMiddlewareDescription(concurrencyLimit(o))?.responses?.map((r) => r.status)
    expect(statuses({ max: 1, store: shared })).toEqual([429, 503])
    expect(statuses({ max: 1, store: shared, failOpen: true })).toEqual([429])
    expect(statuses({ max: 1, store: new MemoryConcurrencyStore() })).toEqual([429])
  })

  it('describes each answer in words, with the Retry-After header’s schema', () => {
    const store: ConcurrencyStore = {
      acquire: async () => ({ acquired: true, inFlight: 1 }),
      renew: async () => true,
      release: async () => {},
    }
    expect(getMiddlewareDescription(concurrencyLimit({ max: 1, store }))?.responses).toEqual([
      {
        status: 429,
        description: 'Too many concurrent requests',
        codes: ['concurrency_limited'],
        headers: [
          {
            name: 'Retry-After',
            description: 'Seconds after which a retry may find a free slot',
            schema: { type: 'integer', minimum: 1 },
          },
        ],
      },
      {
        status: 503,
        description: 'The concurrency store is unavailable',
        codes: ['store_unavailable'],
      },
    ])
  })
})
