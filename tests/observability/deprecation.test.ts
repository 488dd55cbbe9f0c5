import * as api from '@opentelemetry/api'
import { logger, problemHandler } from '@palisade/middleware'
import { otel } from '@palisade/middleware/otel'
import { openapi } from '@palisade/openapi'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { type CollectingReader, decisionPoints, telemetrySinks } from './sinks'

const SUNSET = new Date('2027-12-01T00:00:00Z')

function harness() {
  const { lines, log, exporter, tracer, reader, meter } = telemetrySinks()
  let clock = SUNSET.getTime() - 1
  const app = openapi(new Hono(), {
    info: { title: 'T', version: '1' },
    sunsetMode: 'enforce',
    now: () => clock,
  })
  app.onError(problemHandler())
  app.use('*', logger({ format: 'json', sink: log }))
  app.use('*', otel({ api, tracer, meter }))
  app.get('/v1/pets', (c) => c.json([]), {
    openapi: { operationId: 'listPetsV1', deprecated: { sunset: SUNSET } },
  })
  app.get('/v1/pets/:id', (c) => c.json({}), { openapi: { deprecated: true } })
  app.get('/v2/pets', (c) => c.json([]), { openapi: { operationId: 'listPets' } })
  return { app, lines, exporter, reader, setClock: (ms: number) => (clock = ms) }
}

async function counts(reader: CollectingReader) {
  return (await decisionPoints(reader)).map((p) => ({ ...p.attributes, value: p.value }))
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
