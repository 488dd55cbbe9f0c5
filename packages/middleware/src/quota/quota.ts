import type { Context, MiddlewareHandler } from 'hono'
import { editResponseHeaders } from '../internal/http/headers'
import { draft8, partitionKeys } from '../internal/http/ratelimit-fields'
import { begin, clock, decide, storeTime } from '../internal/outcomes/decisions'
import { described } from '../internal/outcomes/described'
import { storeFor } from '../internal/stores/store-binding'
import { storeFailures } from '../internal/stores/store-failure'
import type { RateLimitStore, RateLimitVerdict } from '../rate-limit/store'
import { type QuotaRejects, reject, rejectOrRecord } from './answers'
import { checkLimit, NAME, type QuotaOptions, quotaConfig } from './config'
import { quotaDescription } from './description'
import { type PeriodSpan, periodOf } from './period'

export type { QuotaOptions } from './config'
export type { PeriodSpan, QuotaPeriod } from './period'

/** What `usage()` reads: the calls counted for a key in one period. */
export interface QuotaUsage {
  key: string
  used: number
  period: PeriodSpan
}

/** `quota()`'s middleware, with a read of the counts for billing. */
export type QuotaMiddleware = MiddlewareHandler &
  QuotaRejects & {
    /**
     * The calls counted for `key` (as the `key` option returns it) in the period holding `at`
     * (default now); nothing is counted. `c` is needed only for a store bound per request
     * (Durable Objects through `forContext`).
     */
    usage(key: string, at?: Date | number, c?: Context): Promise<QuotaUsage>
  }

/**
 * Counts calls per key by the calendar, a day or a month (UTC or a time zone), and refuses the
 * call past `limit` with 429 `quota_exceeded`, `Retry-After` at the period's end and the IETF
 * draft-8 RateLimit fields (also on every answer it lets through). Each call is one `consume` on
 * the store: one round trip on Redis, PostgreSQL, Durable Objects and Deno KV. A refused call is
 * not counted. The count lives under a key naming its period (`quota:month:2026-12:<key>`), so
 * every instance starts the new period at the same instant. `usage(key)` reads a count for billing.
 *
 * @param options.limit required: calls per period, or `(c) => number` (a plan's limit)
 * @param options.period required: `'day'` or `'month'`
 * @param options.store required: a rate-limit store with `consume`
 * @param options.timeZone default `'UTC'`
 * @param options.key default: the API key id, else the JWT `sub`, else the client IP
 * @example
 * ```ts
 * const monthly = quota({ limit: 10_000, period: 'month', store })
 * app.use('/partner/*', apiKey({ store: keys }), monthly)
 * const { used } = await monthly.usage('key:k_123') // for the invoice
 * ```
 */
export function quota(options: QuotaOptions): QuotaMiddleware {
  const config = quotaConfig(options)
  const { store, period, dateOf, keyOf, limitOf, dryRun, failOpen, message } = config
  const [report, recovered] = storeFailures(NAME, failOpen, config.onStoreError)
  const pkOf = partitionKeys()
  // The current period, computed when the clock leaves it (never at construction: Workers read
  // a frozen clock at module scope).
  let current: PeriodSpan | undefined
  const spanAt = (now: number): PeriodSpan => {
    if (current === undefined || now < current.start || now >= current.end) {
      current = periodOf(dateOf, period, now)
    }
    return current
  }
  const consume = (s: RateLimitStore, key: string, span: PeriodSpan, max: number, cost: number) =>
    (s.consume as NonNullable<RateLimitStore['consume']>)(`quota:${period}:${span.id}:${key}`, {
      algorithm: 'fixed-window',
      limits: [{ max, windowMs: span.end - span.start }],
      cost,
    })

  const handler: MiddlewareHandler = async function quota(c, next) {
    const d = begin(c, NAME)
    const key = await keyOf(c)
    if (typeof key !== 'string') {
      throw new TypeError(`quota: key(c) must return a string, got ${typeof key}`)
    }
    const limit = checkLimit(await limitOf(c))
    const now = Date.now()
    const span = spanAt(now)
    let verdict: RateLimitVerdict
    try {
      const t = clock(d)
      verdict = await consume(storeFor(store, c), key, span, limit, 1)
      if (typeof verdict?.allowed !== 'boolean')
        throw new TypeError('store returned an invalid verdict')
      storeTime(d, 'consume', t)
      recovered()
    } catch (error) {
      report(error, c)
      if (failOpen) {
        decide(d, 'skip', 'store_unavailable')
        await next()
        return
      }
      return reject(503, 'Quota store unavailable', 'store_unavailable')
    }
    const used = verdict.limits[0]?.count ?? limit + 1
    const reset = Math.max(1, Math.ceil((span.end - now) / 1000))
    const quotaNow = { max: limit, remaining: Math.max(0, limit - used), reset }
    const windowSeconds = Math.ceil((span.end - span.start) / 1000)
    const headers = draft8(quotaNow, windowSeconds, config.name(limit), await pkOf(key))
    if (verdict.allowed) {
      decide(d, 'allow')
      if (d) d.decision.usage = { key, used, limit }
    } else {
      rejectOrRecord(d, dryRun, 429, message, 'quota_exceeded', {
        ...headers,
        'Retry-After': String(reset),
      })
    }
    await next()
    // After the handler, in place (a stacked draft-8 limiter's fields are kept, ours first).
    editResponseHeaders(c, (h) => {
      for (const name in headers) {
        const inner = h.get(name)
        const value = headers[name] as string
        h.set(name, inner ? `${value}, ${inner}` : value)
      }
    })
  }

  const middleware = described(quotaDescription(failOpen), handler) as QuotaMiddleware
  middleware.usage = async (key, at = Date.now(), c) => {
    const span = periodOf(dateOf, period, +at)
    const s = c === undefined ? store : storeFor(store, c)
    const verdict = await consume(s, key, span, Number.MAX_SAFE_INTEGER, 0)
    return { key, used: verdict.limits[0]?.count ?? 0, period: span }
  }
  return middleware
}
