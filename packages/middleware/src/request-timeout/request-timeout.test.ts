import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type RequestTimeoutOptions, requestTimeout } from './index'

function setup(options: RequestTimeoutOptions) {
  const app = new Hono()
  app.use('*', requestTimeout(options))
  return app
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('requestTimeout: with fake timers', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('answers 408 Request Timeout when the handler is slower than ms', async () => {
    const app = setup({ ms: 1000 })
    app.get('/', async (c) => {
      await sleep(5000)
      return c.text('late')
    })
    const pending = app.request('/')
    await vi.advanceTimersByTimeAsync(1000)
    const res = await pending
    expect(res.status).toBe(408)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await res.text()).toBe('Request Timeout')
    await vi.runAllTimersAsync()
  })

  it('does not time out one millisecond early', async () => {
    const app = setup({ ms: 1000 })
    app.get('/', async (c) => {
      await sleep(999)
      return c.text('just in time')
    })
    const pending = app.request('/')
    await vi.advanceTimersByTimeAsync(999)
    const res = await pending
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('just in time')
  })

  it('uses a custom message', async () => {
    const app = setup({ ms: 10, message: 'Took too long' })
    app.get('/', () => new Promise<Response>(() => {}))
    const pending = app.request('/')
    await vi.advanceTimersByTimeAsync(10)
    const res = await pending
    expect(res.status).toBe(408)
    expect(await res.text()).toBe('Took too long')
  })

  it('throws an HTTPException that app.onError can reshape', async () => {
    const app = setup({ ms: 10 })
    const onError = vi.fn((err: Error, c) =>
      c.json({ status: (err as HTTPException).status, message: err.message }, 408),
    )
    app.onError(onError)
    app.get('/', () => new Promise<Response>(() => {}))
    const pending = app.request('/')
    await vi.advanceTimersByTimeAsync(10)
    expect(await (await pending).json()).toEqual({ status: 408, message: 'Request Timeout' })
    expect(onError.mock.calls[0]?.[0]).toBeInstanceOf(HTTPException)
  })

  it('aborts the signal in the context at the timeout, with a TimeoutError reason', async () => {
    const app = setup({ ms: 100 })
    let signal: AbortSignal | undefined
    app.get('/', (c) => {
      signal = c.get('timeoutSignal')
      return new Promise<Response>(() => {})
    })
    const pending = app.request('/')
    await vi.advanceTimersByTimeAsync(50)
    expect(signal).toBeInstanceOf(AbortSignal)
    expect(signal?.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(50)
    await pending
    expect(signal?.aborted).toBe(true)
    expect((signal?.reason as DOMException | undefined)?.name).toBe('TimeoutError')
  })

  it('lets a handler stop its work through the signal', async () => {
    const app = setup({ ms: 100 })
    const steps: number[] = []
    app.get('/', async (c) => {
      const signal = c.get('timeoutSignal')
      for (let i = 0; i < 10 && !signal.aborted; i++) {
        steps.push(i)
        await sleep(40)
      }
      return c.text('stopped')
    })
    const pending = app.request('/')
    await vi.advanceTimersByTimeAsync(1000)
    expect((await pending).status).toBe(408)
    expect(steps).toEqual([0, 1, 2])
  })

  it('does not abort the signal when the handler wins', async () => {
    const app = setup({ ms: 100 })
    let signal: AbortSignal | undefined
    app.get('/', (c) => {
      signal = c.get('timeoutSignal')
      return c.text('fast')
    })
    const res = await app.request('/')
    await vi.advanceTimersByTimeAsync(500)
    expect(res.status).toBe(200)
    expect(signal?.aborted).toBe(false)
  })

  it('clears its timer when the handler wins', async () => {
    const app = setup({ ms: 60_000 })
    app.get('/', (c) => c.text('fast'))
    await app.request('/')
    expect(vi.getTimerCount()).toBe(0)
  })

  it('clears its timer when the handler throws', async () => {
    const app = setup({ ms: 60_000 })
    app.onError((_, c) => c.text('failed', 500))
    app.get('/', () => {
      throw new Error('boom')
    })
    await app.request('/')
    expect(vi.getTimerCount()).toBe(0)
  })

  it('gives each request its own signal and timer', async () => {
    const app = setup({ ms: 100 })
    const signals: AbortSignal[] = []
    app.get('/slow', (c) => {
      signals.push(c.get('timeoutSignal'))
      return new Promise<Response>(() => {})
    })
    app.get('/fast', (c) => {
      signals.push(c.get('timeoutSignal'))
      return c.text('ok')
    })
    const slow = app.request('/slow')
    const fast = await app.request('/fast')
    await vi.advanceTimersByTimeAsync(100)
    expect((await slow).status).toBe(408)
    expect(fast.status).toBe(200)
    expect(signals[0]?.aborted).toBe(true)
    expect(signals[1]?.aborted).toBe(false)
  })
})

describe('requestTimeout: the signal is created on first read', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('gives an already aborted signal to code that first reads it after the timeout', async () => {
    const app = setup({ ms: 100 })
    let late: AbortSignal | undefined
    app.get('/', async (c) => {
      await sleep(500)
      late = c.get('timeoutSignal')
      return c.text('late')
    })
    const pending = app.request('/')
    await vi.advanceTimersByTimeAsync(600)
    expect((await pending).status).toBe(408)
    expect(late?.aborted).toBe(true)
    expect((late?.reason as DOMException | undefined)?.name).toBe('TimeoutError')
  })

  it('returns the same signal on every read of one request', async () => {
    const app = setup({ ms: 100 })
    app.get('/', (c) => {
      const first = c.get('timeoutSignal')
      const second = c.get('timeoutSignal')
      return c.json({ same: first === second })
    })
    expect(await (await app.request('/')).json()).toEqual({ same: true })
  })

  it('defines its c.get instead of assigning it, so a read-only c.get still gets the signal', async () => {
    // Assigning over the context's own c.get made V8 promote every object of the request (see
    // bench/FINDINGS.md, "Garbage"). A read-only property tells the two apart: an assignment
    // throws in strict code, a definition does not.
    const app = new Hono()
    app.use('*', async (c, next) => {
      Object.defineProperty(c, 'get', { value: c.get, writable: false, configurable: true })
      await next()
    })
    app.use('*', requestTimeout({ ms: 100 }))
    app.get('/', (c) => c.json({ signal: c.get('timeoutSignal') instanceof AbortSignal }))
    const res = await app.request('/')
    expect([res.status, await res.json()]).toEqual([200, { signal: true }])
  })

  it('lists the signal in c.var once it has been read', async () => {
    const app = setup({ ms: 100 })
    app.get('/', (c) => {
      const signal = c.get('timeoutSignal')
      return c.json({ inVar: c.var.timeoutSignal === signal })
    })
    expect(await (await app.request('/')).json()).toEqual({ inVar: true })
  })

  it('puts an aborted signal in c.var at the timeout, even when nobody read it before', async () => {
    const app = setup({ ms: 100 })
    let seen: unknown = 'unset'
    app.get('/', async (c) => {
      await sleep(500)
      seen = (c.var as { timeoutSignal?: AbortSignal }).timeoutSignal?.aborted
      return c.text('late')
    })
    const pending = app.request('/')
    await vi.advanceTimersByTimeAsync(600)
    expect((await pending).status).toBe(408)
    expect(seen).toBe(true)
  })

  it('leaves the other context variables alone', async () => {
    const app = new Hono<{ Variables: { user: string } }>()
    app.use('*', async (c, next) => {
      c.set('user', 'ada')
      await next()
    })
    app.use('*', requestTimeout({ ms: 100 }))
    app.get('/', (c) => {
      c.set('user', `${c.get('user')}!`)
      return c.json({ user: c.get('user'), var: c.var.user })
    })
    expect(await (await app.request('/')).json()).toEqual({ user: 'ada!', var: 'ada!' })
  })

  it('gives the innermost of two nested timeouts to the handler', async () => {
    const app = new Hono()
    app.use('*', requestTimeout({ ms: 1000 }))
    app.use('*', requestTimeout({ ms: 100, message: 'inner' }))
    let signal: AbortSignal | undefined
    app.get('/', (c) => {
      signal = c.get('timeoutSignal')
      return new Promise<Response>(() => {})
    })
    const pending = app.request('/')
    await vi.advanceTimersByTimeAsync(150)
    expect((await pending).status).toBe(408)
    expect(signal?.aborted).toBe(true)
    expect((signal?.reason as DOMException | undefined)?.message).toBe('inner')
  })
})

describe('requestTimeout: late failures', () => {
  it('does not raise an unhandled rejection when the chain fails after the timeout', async () => {
    const unhandled = vi.fn()
    process.on('unhandledRejection', unhandled)
    try {
      const app = new Hono()
      app.use('*', requestTimeout({ ms: 5 }))
      // A middleware that throws a non-Error escapes Hono's compose as a rejection.
      app.use('*', async () => {
        await sleep(30)
        throw 'late failure'
      })
      app.get('/', (c) => c.text('never'))
      expect((await app.request('/')).status).toBe(408)
      await sleep(60)
      expect(unhandled).not.toHaveBeenCalled()
    } finally {
      process.off('unhandledRejection', unhandled)
    }
  })
})

describe('requestTimeout: handler errors', () => {
  it('lets an error thrown by the handler reach app.onError unchanged', async () => {
    const app = setup({ ms: 1000 })
    const onError = vi.fn((err: Error, c) => c.text(`handled ${err.message}`, 500))
    app.onError(onError)
    app.get('/', () => {
      throw new Error('db down')
    })
    const res = await app.request('/')
    expect(res.status).toBe(500)
    expect(await res.text()).toBe('handled db down')
    expect(onError).toHaveBeenCalledOnce()
  })

  it("keeps an HTTPException's status from the handler", async () => {
    const app = setup({ ms: 1000 })
    app.get('/', () => {
      throw new HTTPException(404, { message: 'nope' })
    })
    const res = await app.request('/')
    expect(res.status).toBe(404)
  })

  it('propagates a non-Error rejection from the chain', async () => {
    const mw = requestTimeout({ ms: 1000 })
    const app = new Hono()
    app.get('/', async (c) => {
      await expect(mw(c, () => Promise.reject('raw'))).rejects.toBe('raw')
      return c.text('checked')
    })
    expect(await (await app.request('/')).text()).toBe('checked')
  })

  it('keeps the handler response when it wins', async () => {
    const app = setup({ ms: 1000 })
    app.post('/', async (c) => c.json(await c.req.json(), 201))
    const res = await app.request('/', { method: 'POST', body: '{"a":1}' })
    expect(res.status).toBe(201)
    expect(await res.json()).toEqual({ a: 1 })
  })
})

describe('requestTimeout: open handles', () => {
  it('leaves no Timeout behind after requests that finished in time', async () => {
    const timeouts = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length
    const before = timeouts()
    const app = setup({ ms: 60_000 })
    app.get('/', (c) => c.text('ok'))
    app.get('/err', () => {
      throw new Error('x')
    })
    app.onError((_, c) => c.text('failed', 500))
    await Promise.all([app.request('/'), app.request('/err'), app.request('/missing')])
    expect(timeouts()).toBe(before)
  })

  it('lets a process that used it exit promptly', () => {
    const entry = fileURLToPath(new URL('./index.ts', import.meta.url))
    const script = `
      import { Hono } from 'hono'
      import { requestTimeout } from ${JSON.stringify(entry)}
      const app = new Hono()
      app.use('*', requestTimeout({ ms: 600000 }))
      app.get('/', (c) => c.text('ok'))
      const res = await app.request('/')
      console.log(res.status, await res.text())
    `
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        cwd: fileURLToPath(new URL('../../../..', import.meta.url)),
        encoding: 'utf8',
        // A timer left running would keep the child alive for 10 minutes; 30 s is generous.
        timeout: 30_000,
      },
    )
    expect(result.error).toBeUndefined()
    expect(result.stderr).toBe('')
    expect(result.stdout.trim()).toBe('200 ok')
    expect(result.status).toBe(0)
  })
})

describe('requestTimeout: option validation', () => {
  it.each<[string, unknown, RegExp]>([
    ['no options', undefined, /"ms" must be given/],
    ['a missing ms', {}, /"ms" must be a positive integer/],
    ['ms 0', { ms: 0 }, /"ms" must be a positive integer/],
    ['a negative ms', { ms: -5 }, /"ms" must be a positive integer/],
    ['a fractional ms', { ms: 1.5 }, /"ms"/],
    ['a string ms', { ms: '1000' }, /"ms"/],
    ['NaN', { ms: Number.NaN }, /"ms"/],
    ['Infinity', { ms: Number.POSITIVE_INFINITY }, /"ms"/],
    ['an ms beyond what setTimeout supports', { ms: 2 ** 31 }, /"ms" must be at most 2147483647/],
    ['an empty message', { ms: 1, message: '' }, /"message" must be a non-empty string/],
    ['an unknown option', { ms: 1, timeout: 5 }, /unknown option "timeout"/],
  ])('throws a requestTimeout TypeError for %s', (_, options, message) => {
    const make = () => requestTimeout(options as RequestTimeoutOptions)
    expect(make).toThrow(TypeError)
    expect(make).toThrow(/^requestTimeout: /)
    expect(make).toThrow(message)
  })

  it('starts no timer at construction and returns a named function', () => {
    vi.useFakeTimers()
    try {
      const mw = requestTimeout({ ms: 2 ** 31 - 1 })
      expect(vi.getTimerCount()).toBe(0)
      expect(mw.name).toBe('requestTimeout')
    } finally {
      vi.useRealTimers()
    }
  })
})
