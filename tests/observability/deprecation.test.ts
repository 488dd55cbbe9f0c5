/**
 * Calls to a deprecated operation of @palisade/openapi, read back from the two consumers of the
 * middleware's decision record: the JSON log (a real pino instance writing into a captured
 * stream) and OpenTelemetry (the SDK's in-memory span exporter and a metric reader collected on
 * demand). The two packages never import each other: the record's key and shape are
 * @palisade/shared's.
 */
import { Writable } from 'node:stream'
import * as api from '@opentelemetry/api'
import {
  AggregationTemporality,
  type DataPoint,
  MeterProvider,
  MetricReader,
} from '@opentelemetry/sdk-metrics'
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base'
import { logger, problemHandler } from '@palisade/middleware'
import { otel } from '@palisade/middleware/otel'
import { openapi } from '@palisade/openapi'
import { Hono } from 'hono'
import pino from 'pino'
import { describe, expect, it } from 'vitest'

class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE })
  }
  protected onForceFlush(): Promise<void> {
    return Promise.resolve()
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve()
  }
}

const SUNSET = new Date('2027-12-01T00:00:00Z')

function harness() {
  const lines: Record<string, unknown>[] = []
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)))
      done()
    },
  })
  const exporter = new InMemorySpanExporter()
  const tracer = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  }).getTracer('test')
  const reader = new CollectingReader()
  const meter = new MeterProvider({ readers: [reader] }).getMeter('test')
  let clock = SUNSET.getTime() - 1
  const app = openapi(new Hono(), {
    info: { title: 'T', version: '1' },
    sunsetMode: 'enforce',
    now: () => clock,
  })
  app.onError(problemHandler())
  app.use('*', logger({ format: 'json', sink: pino({ level: 'info' }, stream) }))
  app.use('*', otel({ api, tracer, meter }))
  app.get('/v1/pets', (c) => c.json([]), {
    openapi: { operationId: 'listPetsV1', deprecated: { sunset: SUNSET } },
  })
  app.get('/v1/pets/:id', (c) => c.json({}), { openapi: { deprecated: true } })
  app.get('/v2/pets', (c) => c.json([]), { openapi: { operationId: 'listPets' } })
  return { app, lines, exporter, reader, setClock: (ms: number) => (clock = ms) }
}

async function counts(reader: CollectingReader) {
  const { resourceMetrics } = await reader.collect()
  const metric = resourceMetrics.scopeMetrics
    .flatMap((s) => s.metrics)
    .find((m) => m.descriptor.name === 'palisade.decisions')
  return ((metric?.dataPoints ?? []) as DataPoint<number>[]).map((p) => ({
    ...p.attributes,
    value: p.value,
  }))
}

describe('calls to deprecated operations reach the log and OpenTelemetry', () => {
  it('logs a `deprecation` decision naming the operation and its sunset', async () => {
    const { app, lines } = harness()
    expect((await app.request('/v1/pets')).status).toBe(200)
    expect((await app.request('/v2/pets')).status).toBe(200)
    const [first, second] = lines as Array<{ decisions: unknown[] }>
    expect(first?.decisions).toEqual([
      {
        middleware: 'deprecation',
        outcome: 'allow',
        operation: 'listPetsV1',
        sunset: '2027-12-01T00:00:00.000Z',
        ms: 0,
      },
    ])
    expect(second?.decisions).toEqual([])
  })

  it('names an operation without an operationId by method and documented path', async () => {
    const { app, lines } = harness()
    await app.request('/v1/pets/7')
    expect((lines[0] as { decisions: unknown[] }).decisions).toEqual([
      { middleware: 'deprecation', outcome: 'allow', operation: 'GET /v1/pets/{id}', ms: 0 },
    ])
  })

  it('counts the calls per operation, and a call past the sunset as a `gone` rejection', async () => {
    const { app, reader, lines, exporter, setClock } = harness()
    await app.request('/v1/pets')
    await app.request('/v1/pets')
    await app.request('/v1/pets/1')
    setClock(SUNSET.getTime())
    const gone = await app.request('/v1/pets')
    expect(gone.status).toBe(410)
    expect((lines.at(-1) as { level: number }).level).toBe(40)
    const points = await counts(reader)
    expect(points).toEqual(
      expect.arrayContaining([
        {
          'palisade.middleware': 'deprecation',
          'palisade.outcome': 'allow',
          'palisade.operation': 'listPetsV1',
          value: 2,
        },
        {
          'palisade.middleware': 'deprecation',
          'palisade.outcome': 'allow',
          'palisade.operation': 'GET /v1/pets/{id}',
          value: 1,
        },
        {
          'palisade.middleware': 'deprecation',
          'palisade.outcome': 'reject',
          'palisade.code': 'gone',
          'palisade.operation': 'listPetsV1',
          value: 1,
        },
      ]),
    )
    expect(points).toHaveLength(3)
    const span = exporter.getFinishedSpans().at(-1)
    const event = span?.events.find((e) => e.name === 'palisade.decision')
    expect(event?.attributes).toMatchObject({
      'palisade.middleware': 'deprecation',
      'palisade.outcome': 'reject',
      'palisade.code': 'gone',
      'palisade.operation': 'listPetsV1',
      'palisade.sunset': '2027-12-01T00:00:00.000Z',
      'http.response.status_code': 410,
    })
  })
})
