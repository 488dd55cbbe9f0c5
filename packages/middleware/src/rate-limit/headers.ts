import type { Context } from 'hono'
import { editFetchHeaders } from '../internal/http/fetch-headers'
import { editResponseHeaders } from '../internal/http/headers'
import { recordHeaders } from '../internal/http/light-response'
import { draft8, partitionKeys, type Quota } from '../internal/http/ratelimit-fields'

export { POLICY_NAME, type Quota } from '../internal/http/ratelimit-fields'

/**
 * Which IETF RateLimit header draft `rateLimit` speaks: `'draft-6'` sends `RateLimit-Limit`,
 * `RateLimit-Remaining`, `RateLimit-Reset` and `RateLimit-Policy: <max>;w=<s>`; `'draft-8'`
 * sends the structured fields `RateLimit-Policy: "<name>"; q=<max>; w=<s>; pk=:<key hash>:` and
 * `RateLimit: "<name>"; r=<remaining>; t=<reset>` (as express-rate-limit does, except that the
 * key hash is salted per limiter).
 *
 * @example
 * const standardHeaders: RateLimitHeaders = 'draft-8'
 * app.use(rateLimit({ standardHeaders }))
 */
export type RateLimitHeaders = 'draft-6' | 'draft-8'

/** `<max>-in-<duration>`, express-rate-limit's default quota name (`100-in-15min`). */
export function defaultPolicyName(max: number, windowMs: number): string {
  const seconds = windowMs / 1000
  const minutes = seconds / 60
  const hours = minutes / 60
  const days = hours / 24
  let duration: string
  if (seconds < 60) duration = `${seconds}sec`
  else if (minutes < 60) duration = `${minutes}min`
  else if (hours < 24) duration = `${hours}hr${hours > 1 ? 's' : ''}`
  else duration = `${days}day${days > 1 ? 's' : ''}`
  return `${max}-in-${duration}`
}

/** The draft-6 header set. */
export function draft6(quota: Quota, windowSeconds: number): Record<string, string> {
  return {
    'RateLimit-Limit': String(quota.max),
    'RateLimit-Remaining': String(quota.remaining),
    'RateLimit-Reset': String(quota.reset),
    'RateLimit-Policy': `${quota.max};w=${windowSeconds}`,
  }
}

/** A quota with the window it counts over. */
export interface WindowQuota extends Quota {
  windowMs: number
}

/** Renders the RateLimit headers of one response; a promise for draft-8 (its partition key). */
export type QuotaHeaders = (
  quotas: readonly WindowQuota[],
  key: string,
) => Record<string, string> | Promise<Record<string, string>>

/**
 * The header renderer of one limiter. The first quota is the one to report; with several, the
 * policy header lists them all. `key` is the bounded key (see `boundKey`), as the draft-8
 * partition keys are cached by it.
 */
export function quotaHeaders(
  standardHeaders: RateLimitHeaders,
  identifier: string | undefined,
): QuotaHeaders {
  if (standardHeaders === 'draft-6') {
    return (quotas) => {
      const first = quotas[0] as WindowQuota
      const headers = draft6(first, Math.ceil(first.windowMs / 1000))
      if (quotas.length > 1) {
        headers['RateLimit-Policy'] = quotas
          .map((q) => `${q.max};w=${Math.ceil(q.windowMs / 1000)}`)
          .join(', ')
      }
      return headers
    }
  }
  const pkOf = partitionKeys()
  const name = (q: WindowQuota) => identifier ?? defaultPolicyName(q.max, q.windowMs)
  return (quotas, key) =>
    pkOf(key).then((pk) => {
      const first = quotas[0] as WindowQuota
      const headers = draft8(first, Math.ceil(first.windowMs / 1000), name(first), pk)
      if (quotas.length > 1) {
        headers['RateLimit-Policy'] = quotas
          .map((q) => draft8(q, Math.ceil(q.windowMs / 1000), name(q), pk)['RateLimit-Policy'])
          .join(', ')
      }
      return headers
    })
}

/**
 * Sets a limiter's headers on the response, in place: c.header() on a finished response rebuilds
 * the Response on every call, which turns a string body into a stream and costs
 * @hono/node-server its fast path. Stacked draft-8 limiters list every quota: the outer one
 * (which runs last) goes first.
 */
export function setQuotaHeaders(
  c: Context,
  headers: Record<string, string>,
  standardHeaders: RateLimitHeaders,
): void {
  // draft-6 replaces: on node-server's header record its four names go in as the lower-case
  // constants `setDraft6Headers` writes (no lower-casing per name per request), as on the usual path.
  const record = standardHeaders === 'draft-6' ? recordHeaders(c) : undefined
  if (record !== undefined) {
    for (const name in headers) {
      const value = headers[name] as string
      const known = DRAFT6_NAMES[name]
      if (known === undefined) record.set(name, value)
      else record.setKnown(known, value)
    }
    return
  }
  editResponseHeaders(c, (h) => {
    for (const name in headers) {
      const value = headers[name] as string
      const inner = standardHeaders === 'draft-8' ? h.get(name) : null
      h.set(name, inner ? `${value}, ${inner}` : value)
    }
  })
}

/** The draft-6 names as `setQuotaHeaders` writes them (lower-cased), in `draft6`'s order. */
const LIMIT = 'ratelimit-limit'
const REMAINING = 'ratelimit-remaining'
const RESET = 'ratelimit-reset'
const POLICY = 'ratelimit-policy'
/** `draft6`'s names, as it spells them, to the constants above. */
const DRAFT6_NAMES: Readonly<Record<string, string>> = {
  'RateLimit-Limit': LIMIT,
  'RateLimit-Remaining': REMAINING,
  'RateLimit-Reset': RESET,
  'RateLimit-Policy': POLICY,
}

/**
 * `setQuotaHeaders(c, draft6(quota, windowSeconds), 'draft-6')` for one quota, the same headers in
 * the same order, without building the header object per request or a closure: `limit`
 * (`String(max)`) and `policy` (`<max>;w=<s>`) are fixed per limiter.
 */
export function setDraft6Headers(
  c: Context,
  limit: string,
  remaining: number,
  reset: number,
  policy: string,
): void {
  const record = recordHeaders(c)
  if (record !== undefined) {
    record.setKnown(LIMIT, limit)
    record.setKnown(REMAINING, String(remaining))
    record.setKnown(RESET, String(reset))
    record.setKnown(POLICY, policy)
    return
  }
  editFetchHeaders(c, (h) => {
    h.set(LIMIT, limit)
    h.set(REMAINING, String(remaining))
    h.set(RESET, String(reset))
    h.set(POLICY, policy)
  })
}
