import * as api from '@opentelemetry/api'
import type { DataPoint } from '@opentelemetry/sdk-metrics'
import {
  apiKey,
  bodyLimit,
  botGuard,
  contentTypeGuard,
  csrf,
  ipGuard,
  jwtAuth,
  loadShed,
  logger,
  MemoryApiKeyStore,
  MemoryRateLimitStore,
  quota,
  rateLimit,
  requestId,
  shield,
  signJwt,
  ssrfGuard,
  xssSanitize,
} from '@palisade/middleware'
import { otel } from '@palisade/middleware/otel'
import { Hono, type MiddlewareHandler } from 'hono'
import { describe, expect, it } from 'vitest'
import { decisionPoints, telemetrySinks } from './sinks'

const SECRET = 'a-jwt-secret-that-is-at-least-32-bytes!'
const keys = new MemoryApiKeyStore()
await keys.add('k-valid-0123456789', { owner: 'test' })
const token = await signJwt({ sub: 'u1' }, SECRET, { expiresIn: 60 })

const json = (body: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body,
})

interface Case {
  middleware: string
  make: (dryRun: boolean) => MiddlewareHandler
  allow: RequestInit & { path?: string }
  /** Sent as many times as needed: the last answer is the rejection. */
  reject: Array<RequestInit & { path?: string }>
  code: string
  status: number
  dryRun: boolean
  store?: string
  /** The category the guard names in its decision, allowed and refused (botGuard, shield). */
  category?: { allow: string | undefined; reject: string }
}

const cases: Case[] = [
  {
    middleware: 'ipGuard',
    make: (dryRun) =>
      ipGuard({ list: ['10.0.0.0/8'], keyGenerator: (c) => c.req.header('x-ip'), dryRun }),
    allow: { headers: { 'x-ip': '192.0.2.1' } },
    reject: [{ headers: { 'x-ip': '10.1.2.3' } }],
    code: 'ip_denied',
    status: 403,
    dryRun: true,
  },
  {
    middleware: 'rateLimit',
    make: (dryRun) =>
      rateLimit({ max: 1, keyGenerator: (c) => c.req.header('x-key') ?? 'none', dryRun }),
    allow: { headers: { 'x-key': 'a' } },
    reject: [{ headers: { 'x-key': 'b' } }, { headers: { 'x-key': 'b' } }],
    code: 'rate_limited',
    status: 429,
    dryRun: true,
    store: 'increment',
  },
  {
    middleware: 'quota',
    make: (dryRun) =>
      quota({
        limit: 1,
        period: 'month',
        store: new MemoryRateLimitStore(),
        key: (c) => c.req.header('x-key') ?? 'none',
        dryRun,
      }),
    allow: { headers: { 'x-key': 'a' } },
    reject: [{ headers: { 'x-key': 'b' } }, { headers: { 'x-key': 'b' } }],
    code: 'quota_exceeded',
    status: 429,
    dryRun: true,
    store: 'consume',
  },
  {
    middleware: 'csrf',
    make: (dryRun) => csrf({ dryRun }),
    allow: {
      method: 'POST',
      headers: { cookie: 'XSRF-TOKEN=tok123', 'x-xsrf-token': 'tok123' },
    },
    reject: [{ method: 'POST', headers: { cookie: 'XSRF-TOKEN=tok123' } }],
    code: 'csrf_token_invalid',
    status: 403,
    dryRun: true,
  },
  {
    middleware: 'contentTypeGuard',
    make: (dryRun) => contentTypeGuard({ required: ['application/json'], dryRun }),
    allow: json('{}'),
    reject: [{ method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }],
    code: 'unsupported_media_type',
    status: 415,
    dryRun: true,
  },
  {
    middleware: 'bodyLimit',
    make: (dryRun) => bodyLimit({ max: 16, dryRun }),
    allow: { method: 'POST', body: 'small' },
    reject: [{ method: 'POST', body: 'x'.repeat(100) }],
    code: 'body_too_large',
    status: 413,
    dryRun: true,
  },
  {
    middleware: 'ssrfGuard',
    make: (dryRun) => ssrfGuard({ dryRun }),
    allow: json('{"url":"http://8.8.8.8/"}'),
    reject: [json('{"url":"http://127.0.0.1:6379/"}')],
    code: 'url_forbidden',
    status: 403,
    dryRun: true,
  },
  {
    middleware: 'botGuard',
    make: (dryRun) => botGuard({ deny: ['library'], dryRun }),
    allow: {
      headers: {
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
      },
    },
    reject: [{ headers: { 'user-agent': 'curl/8.4.0' } }],
    code: 'bot_denied',
    status: 403,
    dryRun: true,
    category: { allow: 'browser', reject: 'library' },
  },
  {
    middleware: 'xssSanitize',
    make: (dryRun) => xssSanitize({ dryRun }),
    allow: json('{"a":"<b>"}'),
    reject: [json('{"a":')],
    code: 'malformed_body',
    status: 400,
    dryRun: true,
  },
  {
    middleware: 'shield',
    make: (dryRun) => shield({ dryRun }),
    allow: json('{"comment":"O\'Brien says hello"}'),
    reject: [json('{"comment":"<script>alert(1)</script>"}')],
    code: 'attack_detected',
    status: 403,
    dryRun: true,
    // What fired; an allowed request found nothing.
    category: { allow: undefined, reject: 'xss' },
  },
  {
    middleware: 'jwtAuth',
    make: () => jwtAuth({ secret: SECRET }),
    allow: { headers: { authorization: `Bearer ${token}` } },
    reject: [{ headers: { authorization: `Bearer ${token}x` } }],
    code: 'token_invalid',
    status: 401,
    dryRun: false,
  },
  {
    middleware: 'apiKey',
    make: () => apiKey({ store: keys }),
    allow: { headers: { 'x-api-key': 'k-valid-0123456789' } },
    reject: [{ headers: { 'x-api-key': 'k-wrong' } }],
    code: 'api_key_invalid',
    status: 401,
    dryRun: false,
    store: 'validate',
  },
]

function harness(mw: MiddlewareHandler, hold?: Promise<void>) {
  const { lines, log, exporter, tracer, reader, meter } = telemetrySinks()
  const app = new Hono()
  app.use('*', logger({ format: 'json', sink: log }))
  app.use('*', otel({ api, tracer, meter }))
  app.use('*', requestId())
  app.use('*', mw)
  app.all('*', async (c) => {
    if (hold && c.req.header('x-hold')) await hold
    return c.text('ok')
  })
  return { app, lines, exporter, reader }
}

async function send(app: Hono, init: RequestInit & { path?: string }) {
  const { path, ...rest } = init
  return app.request(`http://localhost${path ?? '/'}`, rest)
}

describe('decisions reach the JSON log (pino) and OpenTelemetry', () => {
  const rows = cases.flatMap((c) => [
    [c.middleware, 'allow', c] as const,
    [c.middleware, 'reject', c] as const,
    ...(c.dryRun ? [[c.middleware, 'dry-run', c] as const] : []),
  ])

  it.each(rows)('%s: %s', async (name, outcome, c) => {
    const { app, lines, exporter, reader } = harness(c.make(outcome === 'dry-run'))
    const requests = outcome === 'allow' ? [c.allow] : c.reject
    let res: Response | undefined
    for (const init of requests) res = await send(app, init)
    const expectedStatus = outcome === 'reject' ? c.status : 200
    expect(res?.status).toBe(expectedStatus)

    // The JSON log: pino's line for the last request.
    const line = lines.at(-1) as Record<string, unknown>
    expect(line.level).toBe(outcome === 'reject' ? 40 : 30)
    expect(line.res).toEqual({ status: expectedStatus })
    expect(typeof line.reqId).toBe('string')
    const decision = (line.decisions as Array<Record<string, unknown>>).find(
      (d) => d.middleware === name,
    )
    expect(decision?.outcome).toBe(outcome)
    if (outcome === 'allow') expect(decision?.code).toBeUndefined()
    else expect(decision).toMatchObject({ code: c.code, status: c.status })
    if (c.store) expect(decision?.store).toMatchObject({ op: c.store, ms: expect.any(Number) })
    const category = c.category?.[outcome === 'allow' ? 'allow' : 'reject']
    expect(decision?.category).toBe(category)

    // OpenTelemetry: the span of the last request carries the decision as an event.
    const span = exporter.getFinishedSpans().at(-1)
    const event = span?.events.find(
      (e) => e.name === 'palisade.decision' && e.attributes?.['palisade.middleware'] === name,
    )
    expect(event?.attributes?.['palisade.outcome']).toBe(outcome)
    expect(span?.attributes['http.response.status_code']).toBe(expectedStatus)
    if (outcome !== 'allow') {
      expect(event?.attributes).toMatchObject({
        'palisade.code': c.code,
        'http.response.status_code': c.status,
      })
    }
    if (c.store) expect(event?.attributes?.['palisade.store.op']).toBe(c.store)
    expect(event?.attributes?.['palisade.category']).toBe(category)
    const points = await decisionPoints(reader)
    const point = points.find(
      (p) =>
        p.attributes['palisade.middleware'] === name &&
        p.attributes['palisade.outcome'] === outcome,
    )
    expect(point?.value).toBe(1)
  })
})

describe('dry run', () => {
  it('rateLimit in dry run still counts: the answer is the only difference', async () => {
    const live = harness(rateLimit({ max: 1, keyGenerator: () => 'k' }))
    const dry = harness(rateLimit({ max: 1, keyGenerator: () => 'k', dryRun: true }))
    for (const h of [live, dry]) {
      await h.app.request('/')
    }
    const a = await live.app.request('/')
    const b = await dry.app.request('/')
    expect([a.status, b.status]).toEqual([429, 200])
    expect(b.headers.get('ratelimit-remaining')).toBe(a.headers.get('ratelimit-remaining'))
    expect(b.headers.get('ratelimit-limit')).toBe('1')
  })

  it('rateLimit with limits (the consume path) lets the refused request pass in dry run', async () => {
    const h = harness(
      rateLimit({ limits: [{ max: 1, windowMs: 60_000 }], keyGenerator: () => 'k', dryRun: true }),
    )
    await h.app.request('/')
    const res = await h.app.request('/')
    expect(res.status).toBe(200)
    expect(h.lines.at(-1)).toMatchObject({
      decisions: [
        {
          middleware: 'rateLimit',
          outcome: 'dry-run',
          code: 'rate_limited',
          store: { op: 'consume' },
        },
      ],
    })
  })

  it.each([
    ['jwtAuth', () => jwtAuth({ secret: SECRET, dryRun: true } as never)],
    ['apiKey', () => apiKey({ store: keys, dryRun: true } as never)],
  ])('%s takes no dryRun, and says why', (name, make) => {
    expect(make).toThrow(TypeError)
    expect(make).toThrow(new RegExp(`^${name}: "dryRun" is not available .*identity`))
  })
})

describe('shield names the category and the location, never the payload', () => {
  it.each([false, true])('in the log line and the span event (dry run: %s)', async (dryRun) => {
    const h = harness(shield({ dryRun }))
    const res = await send(h.app, json('{"post":{"body":"x\' OR 1=1--"}}'))
    expect(res.status).toBe(dryRun ? 200 : 403)
    const line = h.lines.at(-1) as { decisions: Record<string, unknown>[] }
    expect(line.decisions.find((d) => d.middleware === 'shield')).toMatchObject({
      outcome: dryRun ? 'dry-run' : 'reject',
      code: 'attack_detected',
      category: 'sqli',
      location: 'body:/post/body',
    })
    expect(JSON.stringify(h.lines)).not.toContain('1=1')
    const event = h.exporter
      .getFinishedSpans()
      .at(-1)
      ?.events.find((e) => e.attributes?.['palisade.middleware'] === 'shield')
    expect(event?.attributes).toMatchObject({
      'palisade.category': 'sqli',
      'palisade.location': 'body:/post/body',
    })
    expect(JSON.stringify(event?.attributes)).not.toContain('1=1')
  })
})

describe('histogram of store latency', () => {
  it('records one value per store call, by middleware and operation', async () => {
    const h = harness(rateLimit({ max: 5, keyGenerator: () => 'k' }))
    await h.app.request('/')
    await h.app.request('/')
    const { resourceMetrics } = await h.reader.collect()
    const metric = resourceMetrics.scopeMetrics
      .flatMap((s) => s.metrics)
      .find((m) => m.descriptor.name === 'palisade.store.duration')
    const point = metric?.dataPoints[0] as { attributes: object; value: { count: number } }
    expect(metric?.descriptor.unit).toBe('ms')
    expect(point.attributes).toEqual({
      'palisade.middleware': 'rateLimit',
      'palisade.store.op': 'increment',
    })
    expect(point.value.count).toBe(2)
  })
})

describe('otel options', () => {
  it.each<[string, unknown, RegExp]>([
    ['no options', undefined, /"api" is required/],
    ['an api that is not the OpenTelemetry module', { api: {} }, /"api" must be/],
    ['an unknown option', { api, tracers: [] }, /unknown option "tracers"/],
    ['a tracer without startSpan', { api, tracer: {} }, /"tracer" must be/],
  ])('throws an otel TypeError for %s', (_, options, message) => {
    const make = () => otel(options as never)
    expect(make).toThrow(TypeError)
    expect(make).toThrow(/^otel: /)
    expect(make).toThrow(message)
  })
})

describe('loadShed and quota', () => {
  it('a shed request names the limit passed, in the log line and the span event', async () => {
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const h = harness(loadShed({ maxInFlight: 1 }), held)
    const first = h.app.request('/', { headers: { 'x-hold': '1' } })
    const shed = await h.app.request('/')
    expect(shed.status).toBe(503)
    release()
    expect((await first).status).toBe(200)
    const line = h.lines.find((l) => (l.res as { status: number }).status === 503)
    expect(line?.decisions).toEqual([
      expect.objectContaining({
        middleware: 'loadShed',
        outcome: 'reject',
        code: 'overloaded',
        cause: 'in_flight',
      }),
    ])
    const events = h.exporter.getFinishedSpans().flatMap((span) => span.events)
    expect(events.map((e) => e.attributes?.['palisade.cause'])).toContain('in_flight')
  })

  it('quota counts usage per key in palisade.quota.usage, and the log line carries it', async () => {
    const h = harness(
      quota({
        limit: 5,
        period: 'day',
        store: new MemoryRateLimitStore(),
        key: (c) => c.req.header('x-key') ?? 'none',
      }),
    )
    for (const key of ['acme', 'acme', 'acme', 'globex']) {
      await h.app.request('/', { headers: { 'x-key': key } })
    }
    expect(h.lines.at(-1)?.decisions).toEqual([
      expect.objectContaining({ middleware: 'quota', usage: { key: 'globex', used: 1, limit: 5 } }),
    ])
    const { resourceMetrics } = await h.reader.collect()
    const metric = resourceMetrics.scopeMetrics
      .flatMap((s) => s.metrics)
      .find((m) => m.descriptor.name === 'palisade.quota.usage')
    const byKey = Object.fromEntries(
      ((metric?.dataPoints ?? []) as DataPoint<number>[]).map((p) => [
        p.attributes['palisade.quota.key'],
        p.value,
      ]),
    )
    expect(byKey).toEqual({ acme: 3, globex: 1 })
  })
})
