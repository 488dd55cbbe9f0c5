/**
 * Issue 23, in-process: what recording decisions costs when nothing consumes them (the six
 * middleware of the Express/Fastify comparison, against the same stack of a baseline checkout
 * without decisions when PALISADE_BASELINE points at its built `packages/middleware/dist/index.js`),
 * the JSON logger against hono-pino (both through one pino writing to /dev/null), and otel() on
 * against off (the real OpenTelemetry SDK, spans to a no-op processor).
 * `pnpm bench --only=observability`.
 */
import * as api from '@opentelemetry/api'
import { MeterProvider } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base'
import { otel } from '@palisade/middleware/otel'
import { Hono, type MiddlewareHandler } from 'hono'
import { pinoLogger } from 'hono-pino'
import pino from 'pino'
import { CLIENT_IP, CSRF_TOKEN, fixtures, ORIGIN } from '../lib/fixtures'
import { fmtRatio, measureAll, pairedRatio, settings } from '../lib/measure'
import { loadPalisade, type Palisade } from '../lib/palisade'
import { addRow, addTarget, heading, skip } from '../lib/results'
import { addRoutes, stackParts } from '../lib/stack'

const BASE = 'http://localhost'

function stackApp(parts: MiddlewareHandler[], before: MiddlewareHandler[] = []): Hono {
  const app = new Hono()
  for (const m of before) app.use('*', m)
  for (const m of parts) app.use('*', m)
  return addRoutes(app)
}

async function compare(
  title: string,
  req: () => Request,
  sides: Array<[string, Hono]>,
): Promise<Map<string, import('../lib/measure').Timing>> {
  if (settings.filter && !settings.filter.test(title)) return new Map()
  heading(title)
  const cases: Array<[string, () => Promise<unknown>]> = []
  for (const [name, app] of sides) {
    const res = await app.fetch(req())
    if (res.status !== 200) {
      skip(`${name}: answered ${res.status}`)
      continue
    }
    cases.push([name, () => app.fetch(req()) as Promise<Response>])
  }
  const timings = await measureAll(cases)
  const first = timings[0]
  for (const t of timings) {
    addRow({
      table: 'observability',
      name: t.name,
      ns: t.avg,
      ratio: first && t !== first ? pairedRatio(t, first) : undefined,
      vs: first?.name,
    })
  }
  return new Map(timings.map((t) => [t.name, t]))
}

export async function runObservability(): Promise<void> {
  const p: Palisade = await loadPalisade()
  const fx = await fixtures()
  const headers = {
    'x-forwarded-for': CLIENT_IP,
    origin: ORIGIN,
    authorization: `Bearer ${fx.jwt}`,
    cookie: `sid=${fx.sessionCookieValue}; XSRF-TOKEN=${CSRF_TOKEN}`,
  }
  const get = () => new Request(`${BASE}/api/me`, { headers })
  const six = (await stackParts(p, 'equivalent')).middleware.map(([, m]) => m)

  // 1. No consumer: this branch's stack against a baseline checkout's (no decisions at all).
  const sides: Array<[string, Hono]> = [['six middleware, no consumer', stackApp(six)]]
  const baselinePath = process.env.PALISADE_BASELINE
  if (baselinePath) {
    const base = (await import(baselinePath)) as Palisade
    const baseSix = (await stackParts(base, 'equivalent')).middleware.map(([, m]) => m)
    sides.push(['six middleware, baseline (no decisions)', stackApp(baseSix)])
  } else skip('baseline: set PALISADE_BASELINE to a checkout without decisions')
  const noConsumer = await compare('six middleware: decisions without a consumer', get, sides)
  const a = noConsumer.get('six middleware, no consumer')
  const b = noConsumer.get('six middleware, baseline (no decisions)')
  if (a && b) {
    const r = pairedRatio(a, b)
    addTarget({
      goal: 'six-middleware stack without a consumer within noise of the baseline',
      measured: `${fmtRatio(r)} of the baseline's time`,
      met: r <= 1.05,
    })
  }

  // 2. JSON logger vs hono-pino, both writing through one pino to /dev/null.
  const log = pino(pino.destination({ dest: '/dev/null', sync: true }))
  const bare = () => addRoutes(new Hono())
  const oursApp = new Hono()
  oursApp.use('*', p.logger?.({ format: 'json', sink: log }) as MiddlewareHandler)
  addRoutes(oursApp)
  const theirs = new Hono()
  theirs.use('*', pinoLogger({ pino: log }))
  addRoutes(theirs)
  const plain = () => new Request(`${BASE}/api/me`)
  const loggers = await compare(
    'JSON request log: palisade logger vs hono-pino (pino to /dev/null)',
    plain,
    [
      ['bare route', bare()],
      ['hono-pino', theirs],
      ["palisade logger({ format: 'json' })", oursApp],
    ],
  )
  const l1 = loggers.get("palisade logger({ format: 'json' })")
  const l2 = loggers.get('hono-pino')
  if (l1 && l2) {
    const r = pairedRatio(l1, l2)
    addTarget({
      goal: 'JSON logger at most 1.0x hono-pino',
      measured: `${fmtRatio(r)} of hono-pino's time`,
      met: r <= 1.0,
    })
  }

  // 3. otel() on vs off, on the six-middleware stack, with the SDK (no exporter).
  const tracer = new BasicTracerProvider().getTracer('bench')
  const meter = new MeterProvider().getMeter('bench')
  const otelOn = stackApp(six, [otel({ api, tracer, meter })])
  const jsonOn = stackApp(six, [
    p.logger?.({ format: 'json', sink: () => {} }) as MiddlewareHandler,
  ])
  await compare('six middleware: otel() and the JSON logger on vs off', get, [
    ['six middleware, no consumer', stackApp(six)],
    ['six middleware + otel()', otelOn],
    ["six middleware + logger({ format: 'json' }), sink dropped", jsonOn],
  ])
}
