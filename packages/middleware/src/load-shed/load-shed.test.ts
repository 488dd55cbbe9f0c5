import { getMiddlewareDescription } from '@palisade/shared/describe'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { installDecisions } from '../internal/outcomes/decisions'
import { problemHandler } from '../problem-details/problem-details'
import { type LoadShedMiddleware, type LoadShedOptions, loadShed } from './index'

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Polls `check` every 10 ms until it holds, for at most `ms`. */
async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time')
    await sleep(10)
  }
}

function appWith(shed: LoadShedMiddleware, hold?: Promise<void>) {
  const app = new Hono()
  app.onError(problemHandler())
  app.use('*', shed)
  app.get('/health', (c) => c.text('ok'))
  app.get('/work', async (c) => {
    await hold
    return c.text('done')
  })
  app.get('/throw', () => {
    throw new Error('boom')
  })
  return app
}

describe('loadShed options', () => {
  it.each([
    [undefined, /at least one of/],
    [{}, /set at least one of maxEventLoopDelayMs/],
    [{ maxInFlight: 0 }, /"maxInFlight"/],
    [{ maxInFlight: 1.5 }, /"maxInFlight"/],
    [{ maxEventLoopDelayMs: -1 }, /"maxEventLoopDelayMs"/],
    [{ maxInFlight: 1, sampleIntervalMs: 5 }, /"sampleIntervalMs" must be from 10/],
    [{ maxInFlight: 1, retryAfter: 0 }, /"retryAfter"/],
    [{ maxInFlight: 1, exempt: '/health' }, /"exempt" must be an array/],
    [{ maxInFlight: 1, dryRun: 'yes' }, /"dryRun"/],
    [{ maxInFlight: 1, maxCpu: 1 }, /unknown option "maxCpu"|maxCpu/],
  ])('refuses %j', (options, message) => {
    expect(() => loadShed(options as unknown as LoadShedOptions)).toThrow(message)
  })
})

describe('loadShed maxInFlight', () => {
  it('sheds the request that finds max in flight, with Retry-After, then recovers', async () => {
    const hold = deferred()
    const shed = loadShed({ maxInFlight: 2 })
    const app = appWith(shed, hold.promise)
    const first = [app.request('/work'), app.request('/work')]
    await until(() => shed.pressure().inFlight === 2)
    expect(shed.pressure().overloaded).toBe('in_flight')
    const refused = await app.request('/work')
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('10')
    expect((await refused.json()) as object).toMatchObject({ code: 'overloaded', status: 503 })
    hold.resolve()
    for (const r of await Promise.all(first)) expect(r.status).toBe(200)
    expect(shed.pressure().inFlight).toBe(0)
    expect((await app.request('/work')).status).toBe(200)
  })

  it('keeps exempt paths answering while shedding, and does not count them', async () => {
    const hold = deferred()
    const shed = loadShed({ maxInFlight: 1, exempt: ['/health'] })
    const app = appWith(shed, hold.promise)
    const first = app.request('/work')
    await until(() => shed.pressure().inFlight === 1)
    expect((await app.request('/work')).status).toBe(503)
    expect((await app.request('/health')).status).toBe(200)
    expect(shed.pressure().inFlight).toBe(1)
    hold.resolve()
    await first
  })

  it('takes an exempt function', async () => {
    const shed = loadShed({ maxInFlight: 1, exempt: (c) => c.req.header('x-probe') === '1' })
    const hold = deferred()
    const app = appWith(shed, hold.promise)
    const first = app.request('/work')
    await until(() => shed.pressure().inFlight === 1)
    expect((await app.request('/health', { headers: { 'x-probe': '1' } })).status).toBe(200)
    expect((await app.request('/health')).status).toBe(503)
    hold.resolve()
    await first
  })

  it('frees the slot when the handler throws', async () => {
    const shed = loadShed({ maxInFlight: 1 })
    const app = appWith(shed)
    expect((await app.request('/throw')).status).toBe(500)
    expect(shed.pressure().inFlight).toBe(0)
    expect((await app.request('/work')).status).toBe(200)
  })

  it('frees the slot and passes the rejection on when the chain rejects past onError', async () => {
    const shed = loadShed({ maxInFlight: 1 })
    const app = new Hono()
    app.use('*', shed)
    // Hono hands only Error instances to onError: anything else rejects next() itself.
    app.get('/reject', () => Promise.reject('not an Error'))
    app.get('/work', (c) => c.text('done'))
    await expect(app.request('/reject')).rejects.toBe('not an Error')
    expect(shed.pressure().inFlight).toBe(0)
    expect((await app.request('/work')).status).toBe(200)
  })

  it('in dry run lets the request through and records what it would have done', async () => {
    const hold = deferred()
    const shed = loadShed({ maxInFlight: 1, dryRun: true })
    const app = new Hono()
    const seen: unknown[] = []
    app.use('*', async (c, next) => {
      const record = installDecisions(c)
      await next()
      seen.push(...record.decisions)
    })
    app.use('*', shed)
    app.get('/work', async (c) => {
      if (c.req.query('hold')) await hold.promise
      return c.text('done')
    })
    const first = app.request('/work?hold=1')
    await until(() => shed.pressure().inFlight === 1)
    expect((await app.request('/work')).status).toBe(200)
    hold.resolve()
    await first
    expect(seen).toContainEqual(
      expect.objectContaining({
        middleware: 'loadShed',
        outcome: 'dry-run',
        code: 'overloaded',
        status: 503,
        cause: 'in_flight',
      }),
    )
  })

  it('describes its 503 with Retry-After', () => {
    const description = getMiddlewareDescription(loadShed({ maxInFlight: 1 }))
    expect(description?.responses).toEqual([
      expect.objectContaining({
        status: 503,
        codes: ['overloaded'],
        headers: [expect.objectContaining({ name: 'Retry-After' })],
      }),
    ])
  })
})

describe('loadShed process probes (Node)', () => {
  it('refuses after a 200 ms event-loop block and recovers', async () => {
    const shed = loadShed({ maxEventLoopDelayMs: 100, sampleIntervalMs: 100 })
    const app = appWith(shed)
    expect((await app.request('/work')).status).toBe(200) // starts the probes
    await until(() => shed.pressure().eventLoopDelayMs !== undefined)
    // Wait for a calm interval first, so the block is what trips it.
    await until(() => shed.pressure().overloaded === undefined)
    const end = performance.now() + 200
    while (performance.now() < end) {
      // block the event loop
    }
    await until(() => shed.pressure().overloaded === 'event_loop_delay')
    const refused = await app.request('/work')
    expect(refused.status).toBe(503)
    expect(shed.pressure().eventLoopDelayMs).toBeGreaterThanOrEqual(100)
    await until(() => shed.pressure().overloaded === undefined)
    expect((await app.request('/work')).status).toBe(200)
  })

  it('sheds on heap and RSS limits', async () => {
    for (const [options, reason] of [
      [{ maxHeapUsedBytes: 1, sampleIntervalMs: 20 }, 'heap_used'],
      [{ maxRssBytes: 1, sampleIntervalMs: 20 }, 'rss'],
    ] as const) {
      const shed = loadShed(options)
      const app = appWith(shed)
      expect((await app.request('/work')).status).toBe(200)
      await until(() => shed.pressure().overloaded === reason)
      expect((await app.request('/work')).status).toBe(503)
      const p = shed.pressure()
      expect(reason === 'rss' ? p.rssBytes : p.heapUsedBytes).toBeGreaterThan(1_000_000)
    }
  })
})
