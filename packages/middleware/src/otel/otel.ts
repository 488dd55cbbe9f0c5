import {
  type Attributes,
  context,
  type Meter,
  metrics,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api'
import type { Context, MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { type DecisionRecord, installDecisions, settle } from '../internal/decisions'
import { assertKnownKeys, optionError } from '../internal/options'

// @opentelemetry/api is an optional peer dependency, imported statically here and nowhere else:
// only this subpath needs it, and an app that imports `@palisade/middleware/otel` has it installed
// (it is the OpenTelemetry contract every SDK and instrumentation shares as one copy). The root
// entry and every other subpath load without it.

/**
 * Options of {@link otel}.
 *
 * @example
 * const options: OtelOptions = { tracer: trace.getTracer('api'), meter: metrics.getMeter('api') }
 * app.use(otel(options))
 */
export interface OtelOptions {
  /** Starts a request span when none is active. Default `trace.getTracer('@palisade/middleware')`. */
  tracer?: Tracer
  /** Creates the decision counter and the store latency histogram. Default `metrics.getMeter('@palisade/middleware')`. */
  meter?: Meter
}

const NAME = 'otel'
const SCOPE = '@palisade/middleware'

/**
 * Reports every decision of the Palisade middleware that run after it to OpenTelemetry:
 * - a `palisade.decision` event on the active span (the request span of your HTTP
 *   instrumentation), or on a server span it starts when there is none, with
 *   `palisade.middleware`, `palisade.outcome`, `palisade.code`, `http.response.status_code`,
 *   `palisade.duration_ms` and, where a store was called, `palisade.store.op` and
 *   `palisade.store.duration_ms`;
 * - a counter `palisade.decisions` by middleware, outcome and code;
 * - a histogram `palisade.store.duration` (ms) by middleware and store operation.
 *
 * Register it first (before the guards). Needs `@opentelemetry/api` (an optional peer dependency).
 *
 * @param options.tracer default `trace.getTracer('@palisade/middleware')` (the global provider)
 * @param options.meter default `metrics.getMeter('@palisade/middleware')` (the global provider)
 * @example
 * ```ts
 * import { otel } from '@palisade/middleware/otel'
 * app.use('*', otel())
 * app.use('*', rateLimit({ max: 100 }))
 * ```
 */
export function otel(options?: OtelOptions): MiddlewareHandler {
  assertKnownKeys(NAME, options, ['tracer', 'meter'])
  const tracer = options?.tracer ?? trace.getTracer(SCOPE)
  const meter = options?.meter ?? metrics.getMeter(SCOPE)
  if (typeof tracer?.startSpan !== 'function') {
    throw optionError(NAME, '"tracer" must be an OpenTelemetry Tracer')
  }
  if (typeof meter?.createCounter !== 'function') {
    throw optionError(NAME, '"meter" must be an OpenTelemetry Meter')
  }
  const counter = meter.createCounter('palisade.decisions', {
    description: 'Decisions of Palisade middleware, by middleware, outcome and code',
  })
  const storeLatency = meter.createHistogram('palisade.store.duration', {
    description: 'Latency of the store calls Palisade middleware make',
    unit: 'ms',
  })

  function report(span: Span, record: DecisionRecord): void {
    for (const p of record.pending) {
      const d = p.decision
      const labels: Attributes = {
        'palisade.middleware': d.middleware,
        'palisade.outcome': d.outcome,
      }
      if (d.code !== undefined) labels['palisade.code'] = d.code
      counter.add(1, labels)
      const event: Attributes = { ...labels }
      if (d.status !== undefined) event['http.response.status_code'] = d.status
      if (d.ms !== undefined) event['palisade.duration_ms'] = d.ms
      if (d.store) {
        event['palisade.store.op'] = d.store.op
        event['palisade.store.duration_ms'] = d.store.ms
        storeLatency.record(d.store.ms, {
          'palisade.middleware': d.middleware,
          'palisade.store.op': d.store.op,
        })
      }
      // performance.now() readings: the API adds the time origin.
      span.addEvent('palisade.decision', event, p.end || p.start)
    }
  }

  return async function otel(c, next) {
    const record = installDecisions(c)
    const active = trace.getActiveSpan()
    const span =
      active ??
      tracer.startSpan(c.req.method, {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': c.req.method, 'url.path': c.req.path },
      })
    let status: number
    try {
      if (active) await next()
      else await context.with(trace.setSpan(context.active(), span), next)
      settle(record, c.error)
      status = c.res.status
    } catch (err) {
      settle(record, err)
      status = err instanceof HTTPException ? err.status : 500
      report(span, record)
      if (!active) finish(span, c.req.method, handlerRoute(c), status)
      throw err
    }
    report(span, record)
    if (!active) finish(span, c.req.method, handlerRoute(c), status)
  }
}

/**
 * The route of the handler the request was matched to, also when a middleware rejected it before
 * the handler ran (`c.req.routePath` would then be the middleware's `/api/*`). Hono tells
 * handlers from middleware by arity, as its own route helper does.
 */
function handlerRoute(c: Context): string | undefined {
  const routes = c.req.matchedRoutes
  for (let i = routes.length - 1; i >= 0; i--) {
    const route = routes[i]
    if (route && route.handler.length < 2) return route.path
  }
  return undefined
}

function finish(span: Span, method: string, route: string | undefined, status: number): void {
  if (route) {
    span.updateName(`${method} ${route}`)
    span.setAttribute('http.route', route)
  }
  span.setAttribute('http.response.status_code', status)
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
  span.end()
}
