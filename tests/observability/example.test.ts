/**
 * The example app with LOG_FORMAT=json and OTEL=1: a request the rate limit refuses is one JSON
 * line naming rateLimit, rate_limited and the store call, and one span with the same decision.
 */
import { metrics, trace } from '@opentelemetry/api'
import { MeterProvider } from '@opentelemetry/sdk-metrics'
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createApp } from '../../examples/app'

const exporter = new InMemorySpanExporter()
let app: Awaited<ReturnType<typeof createApp>>
const lines: string[] = []

beforeAll(async () => {
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  )
  metrics.setGlobalMeterProvider(new MeterProvider())
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  app = await createApp({ LOG_FORMAT: 'json', OTEL: '1', RATE_LIMIT_MAX: '1' })
})

afterAll(async () => {
  vi.restoreAllMocks()
  trace.disable()
  metrics.disable()
  await app.close()
})

describe('example app: LOG_FORMAT=json and OTEL=1', () => {
  it('logs and traces the rejected request with the deciding middleware', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.9' }
    expect((await app.api.request('/api/ping', { headers })).status).toBe(200)
    // The example writes its log lines to stdout once per turn of the event loop.
    const write = process.stdout.write
    process.stdout.write = ((chunk: string) => {
      lines.push(...String(chunk).split('\n').filter(Boolean))
      return true
    }) as typeof process.stdout.write
    let res: Response
    try {
      res = await app.api.request('/api/ping?token=s3cret', {
        headers: { ...headers, authorization: 'Bearer s3cret', cookie: 'sid=s3cret' },
      })
      await new Promise((resolve) => setImmediate(resolve))
    } finally {
      process.stdout.write = write
    }
    expect(res.status).toBe(429)

    const entry = JSON.parse(lines.at(-1) as string)
    expect(entry).toMatchObject({
      level: 'warn',
      msg: expect.stringMatching(/^GET \/api\/ping 429 \d+ms$/),
      reqId: res.headers.get('x-request-id'),
      req: { method: 'GET', path: '/api/ping' },
      res: { status: 429 },
    })
    const decisions = entry.decisions as Array<Record<string, unknown>>
    expect(decisions.map((d) => [d.middleware, d.outcome])).toEqual([
      // loadShed runs on every path, in front of the /api/* guards.
      ['loadShed', 'allow'],
      ['cors', 'skip'],
      ['requestTimeout', 'allow'],
      ['bodyLimit', 'skip'],
      ['rateLimit', 'reject'],
    ])
    expect(decisions.at(-1)).toMatchObject({
      code: 'rate_limited',
      status: 429,
      store: { op: 'increment', ms: expect.any(Number) },
    })
    expect(lines.join('\n')).not.toContain('s3cret')

    const span = exporter.getFinishedSpans().at(-1)
    expect(span?.name).toBe('GET /api/ping')
    expect(span?.attributes['http.response.status_code']).toBe(429)
    const event = span?.events.find((e) => e.attributes?.['palisade.middleware'] === 'rateLimit')
    expect(event?.attributes).toMatchObject({
      'palisade.outcome': 'reject',
      'palisade.code': 'rate_limited',
      'http.response.status_code': 429,
      'palisade.store.op': 'increment',
    })
  })
})
