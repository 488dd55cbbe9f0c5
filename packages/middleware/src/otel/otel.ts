import type { Context, MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { rawPath, stripPathParams } from '../internal/logging/log-path'
import { assertKnownKeys, optionError } from '../internal/options'
import { type DecisionRecord, installDecisions } from '../internal/outcomes/decisions'
import { settle } from '../internal/outcomes/settle'

// The OpenTelemetry API comes from the user (`otel({ api })`), as platform handles do: this file
// imports nothing from `@opentelemetry/api`, so it loads, and bundles, without the optional peer.
// It is published at `@palisade/middleware/otel` only, not from the root entry: only apps that
// trace pay for it. The types below are the part of the API it uses, structurally;
// `import * as api from '@opentelemetry/api'` satisfies them.

/** Attribute values as OpenTelemetry takes them. */
export type OtelAttributes = Record<string, string | number | boolean | undefined>

/** The part of an OpenTelemetry `Span` that `otel()` uses. */
export interface OtelSpan {
  addEvent(name: string, attributes?: OtelAttributes, startTime?: number): unknown
  setAttribute(key: string, value: string | number | boolean): unknown
  setStatus(status: { code: number }): unknown
  updateName(name: string): unknown
  end(): void
}

/** The part of an OpenTelemetry `Tracer` that `otel()` uses. */
export interface OtelTracer {
  startSpan(name: string, options?: { kind?: number; attributes?: OtelAttributes }): OtelSpan
}

/** The part of an OpenTelemetry `Meter` that `otel()` uses. */
export interface OtelMeter {
  createCounter(
    name: string,
    options?: { description?: string; unit?: string },
  ): { add(value: number, attributes?: OtelAttributes): void }
  createHistogram(
    name: string,
    options?: { description?: string; unit?: string },
  ): { record(value: number, attributes?: OtelAttributes): void }
}

/** The part of `@opentelemetry/api` that `otel()` uses: pass the module itself. */
export interface OtelApi {
  trace: {
    getTracer(name: string): OtelTracer
    getActiveSpan(): OtelSpan | undefined
    setSpan(context: never, span: never): unknown
  }
  context: {
    active(): unknown
    with(context: never, fn: () => Promise<void>): Promise<void>
  }
  metrics: { getMeter(name: string): OtelMeter }
}

/**
 * Options of {@link otel}.
 *
 * @example
 * ```ts
 * import * as api from '@opentelemetry/api'
 * const options: OtelOptions = { api, tracer: api.trace.getTracer('shop') }
 * app.use(otel(options))
 * ```
 */
export interface OtelOptions {
  /** `@opentelemetry/api` itself (`import * as api from '@opentelemetry/api'`). Required. */
  api: OtelApi
  /** Starts a request span when none is active. Default `api.trace.getTracer('@palisade/middleware')`. */
  tracer?: OtelTracer
  /** Creates the decision counter and the store latency histogram. Default `api.metrics.getMeter('@palisade/middleware')`. */
  meter?: OtelMeter
}

const NAME = 'otel'
const SCOPE = '@palisade/middleware'
// Stable values of the API's enums (SpanKind.SERVER, SpanStatusCode.ERROR).
const SPAN_KIND_SERVER = 1
const STATUS_ERROR = 2

/**
 * Reports every decision of the Palisade middleware that run after it to OpenTelemetry:
 * - a `palisade.decision` event on the active span (the request span of your HTTP
 *   instrumentation), or on a server span it starts when there is none, with
 *   `palisade.middleware`, `palisade.outcome`, `palisade.code`, `http.response.status_code`,
 *   `palisade.duration_ms` and, where a store was called, `palisade.store.op` and
 *   `palisade.store.duration_ms`;
 * - a counter `palisade.decisions` by middleware, outcome and code (and, for the calls to a
 *   deprecated operation of `@palisade/openapi`, `palisade.operation`);
 * - a counter `palisade.quota.usage` of the calls `quota()` counted, by key;
 * - a histogram `palisade.store.duration` (ms) by middleware and store operation.
 *
 * A span it starts carries `url.path` as the logger reads the path, still percent-encoded and
 * without the query string, and without its `;name=value` path parameters (`;jsessionid=…`).
 *
 * Register it first (before the guards). `@opentelemetry/api` is an optional peer dependency that
 * you pass in: Palisade never imports it, so nothing loads or bundles differently without it.
 *
 * @param options.api required: `import * as api from '@opentelemetry/api'`
 * @param options.tracer default `api.trace.getTracer('@palisade/middleware')` (the global provider)
 * @param options.meter default `api.metrics.getMeter('@palisade/middleware')` (the global provider)
 * @example
 * ```ts
 * import * as api from '@opentelemetry/api'
 * import { otel } from '@palisade/middleware/otel'
 *
 * app.use('*', otel({ api }))
 * ```
 */
export function otel(options: OtelOptions): MiddlewareHandler {
  if (options === undefined || options === null) {
    throw optionError(
      NAME,
      '"api" is required: pass the @opentelemetry/api module namespace, otel({ api })',
    )
  }
  assertKnownKeys(NAME, options, ['api', 'tracer', 'meter'])
  const api = options.api
  if (
    typeof api?.trace?.getActiveSpan !== 'function' ||
    typeof api.context?.with !== 'function' ||
    typeof api.metrics?.getMeter !== 'function'
  ) {
    throw optionError(NAME, '"api" must be the @opentelemetry/api module namespace')
  }
  const tracer = options.tracer ?? api.trace.getTracer(SCOPE)
  const meter = options.meter ?? api.metrics.getMeter(SCOPE)
  if (typeof tracer?.startSpan !== 'function') {
    throw optionError(NAME, '"tracer" must be an OpenTelemetry Tracer')
  }
  if (typeof meter?.createCounter !== 'function') {
    throw optionError(NAME, '"meter" must be an OpenTelemetry Meter')
  }
  const counter = meter.createCounter('palisade.decisions', {
    description: 'Decisions of Palisade middleware, by middleware, outcome and code',
  })
  const usage = meter.createCounter('palisade.quota.usage', {
    description: 'Calls counted by quota(), by key (mind the cardinality: one series per key)',
  })
  const storeLatency = meter.createHistogram('palisade.store.duration', {
    description: 'Latency of the store calls Palisade middleware make',
    unit: 'ms',
  })

  function report(span: OtelSpan, record: DecisionRecord): void {
    for (const p of record.pending) {
      const d = p.decision
      const labels: OtelAttributes = {
        'palisade.middleware': d.middleware,
        'palisade.outcome': d.outcome,
      }
      if (d.code !== undefined) labels['palisade.code'] = d.code
      // Only @palisade/openapi's `deprecation` decisions name an operation: one series per
      // deprecated operation, so the count says who still calls what is about to be removed.
      if (d.operation !== undefined) labels['palisade.operation'] = d.operation
      counter.add(1, labels)
      const event: OtelAttributes = { ...labels }
      if (d.status !== undefined) event['http.response.status_code'] = d.status
      if (d.ms !== undefined) event['palisade.duration_ms'] = d.ms
      if (d.cause !== undefined) event['palisade.cause'] = d.cause
      if (d.category !== undefined) event['palisade.category'] = d.category
      if (d.location !== undefined) event['palisade.location'] = d.location
      if (d.sunset !== undefined) event['palisade.sunset'] = d.sunset
      if (d.usage !== undefined) {
        usage.add(1, { 'palisade.middleware': d.middleware, 'palisade.quota.key': d.usage.key })
      }
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
    const active = api.trace.getActiveSpan()
    const span =
      active ??
      tracer.startSpan(c.req.method, {
        kind: SPAN_KIND_SERVER,
        attributes: {
          'http.request.method': c.req.method,
          // Raw, without the query string, without `;jsessionid=…` (session tokens).
          'url.path': stripPathParams(rawPath(c.req.url)),
        },
      })
    let status: number
    try {
      if (active) await next()
      else
        await api.context.with(
          api.trace.setSpan(api.context.active() as never, span as never) as never,
          next,
        )
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
  // Handlers wrapped as (c, next) (response validation): the last route matched is the handler's.
  return routes.at(-1)?.path
}

function finish(span: OtelSpan, method: string, route: string | undefined, status: number): void {
  if (route) {
    span.updateName(`${method} ${route}`)
    span.setAttribute('http.route', route)
  }
  span.setAttribute('http.response.status_code', status)
  if (status >= 500) span.setStatus({ code: STATUS_ERROR })
  span.end()
}
