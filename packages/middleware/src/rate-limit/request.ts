import type { Context, MiddlewareHandler, Next } from 'hono'
import { assertNonNegativeInteger } from '../internal/options'
import { begin, clock, decide, type Pending, storeTime } from '../internal/outcomes/decisions'
import { passOn } from '../internal/pass-on'
import { reject } from './answers'
import { COUNT_METHOD, checkMax, type RateLimitConfig, safeInteger } from './config'
import type { RateLimitCounter } from './counter'
import { type QuotaHeaders, setDraft6Headers, setQuotaHeaders, type WindowQuota } from './headers'
import { keySource, type RequestKey } from './key-source'
import type {
  RateLimitAlgorithm,
  RateLimitHit,
  RateLimitInfo,
  RateLimitStore,
  RateLimitVerdict,
  RateLimitWindow,
} from './store'
import { clampCost } from './store'

/** A limit's quota in a `consume` verdict, with what the refusal logic needs. */
interface VerdictQuota extends WindowQuota {
  ttl: number
  /** Whether this limit refuses the request. */
  refuses: boolean
}

/** What one limiter's request path reads, fixed at construction. */
interface Limiter {
  config: RateLimitConfig
  counter: RateLimitCounter
  headersOf: QuotaHeaders
  /** The request's key; what this process keeps by key is keyed by the bounded key. */
  keyOf: (c: Context) => RequestKey | Promise<RequestKey>
}

/**
 * The request path of one `rateLimit`: skip, key, the deny cache, the store call (one unit of
 * one limit, or a `consume`), the refusal or the pass, the headers, and the refund after the
 * handler. Everything it reads is fixed at construction (`config`, `counter`, `headersOf`).
 */
export function rateLimitHandler(
  config: RateLimitConfig,
  counter: RateLimitCounter,
  headersOf: QuotaHeaders,
): MiddlewareHandler {
  const keepsKeys = counter.remembers || config.standardHeaders === 'draft-8'
  const limiter = { config, counter, headersOf, keyOf: keySource(config.keyGenerator, keepsKeys) }
  return usualHandler(limiter) ?? generalHandler(limiter)
}

/** A refusal remembered for `local` (the deny cache): refused again, before any store call. */
function refuseRemembered(
  { config, counter, headersOf }: Limiter,
  local: string,
  d: Pending | undefined,
): undefined | Promise<void> {
  const cached = counter.refusal(local)
  if (cached === undefined) return undefined
  const reset = Math.ceil(cached.left / 1000)
  // Each quota's reset counted from the refusal, less the whole seconds since (never below the
  // true reset: it was rounded up), and never before the refusal ends.
  const passed = Math.floor((Date.now() - cached.denied.at) / 1000)
  const quotas = cached.denied.quotas.map((q) => ({
    max: q.max,
    windowMs: q.windowMs,
    remaining: 0,
    reset: Math.max(q.reset - passed, reset),
  }))
  return refuse(config, headersOf, quotas, local, cached.left, d)
}

/** A count over `max`: remembered, decided, and refused with 429 (thrown) unless dry run. */
function overLimit(
  { config, counter }: Limiter,
  d: Pending | undefined,
  local: string,
  counted: RateLimitInfo,
  quota: WindowQuota,
  headers: Record<string, string>,
): void {
  if (config.algorithm !== 'sliding-window') counter.remember(local, counted.ttl, [quota])
  decide(d, config.dryRun ? 'dry-run' : 'reject', 'rate_limited', 429)
  if (!config.dryRun) {
    reject(429, config.message, 'rate_limited', {
      ...headers,
      'Retry-After': String(Math.max(1, quota.reset)),
    })
  }
}

/** Every limiter's request path, async: skip, max(c), cost(c), consume, refunds, draft-8. */
function generalHandler(limiter: Limiter): MiddlewareHandler {
  const { config, counter, headersOf, keyOf } = limiter
  const { algorithm, windowMs, skip, maxFn, costFn, limits, consumes, failOpen, dryRun } = config
  const { skipFailed, skipSuccessful, standardHeaders } = config
  // The sliding window and the token bucket record nothing for a rejected request; the fixed
  // window counts it, so only there does skipFailedRequests give a 429 back.
  const countsRejected = algorithm === 'fixed-window'
  const refunds = skipFailed || skipSuccessful

  return async function rateLimit(c, next) {
    const d = begin(c, 'rateLimit')
    if (skip && (await skip(c))) {
      decide(d, 'skip')
      await next()
      return
    }
    const k = keyOf(c)
    const { key, local } = k instanceof Promise ? await k : k
    const refused = refuseRemembered(limiter, local, d)
    if (refused) await refused
    const max = maxFn ? checkMax(await maxFn(c), 'max(c)', windowMs) : config.max
    const cost = costFn
      ? safeInteger('cost(c)', assertNonNegativeInteger('rateLimit', 'cost(c)', await costFn(c)))
      : config.cost
    const windows = limits ?? [{ max, windowMs }]
    // A cost above the smallest max can never pass: the stores count it as that max + 1, so
    // no backend's arithmetic meets a number it cannot hold (see clampCost).
    const sent = consumes ? clampCost(windows, cost) : cost
    let info: RateLimitInfo | undefined
    let verdict: RateLimitVerdict | undefined
    let s: RateLimitStore
    try {
      s = counter.bind(c)
      const t = clock(d)
      if (consumes) verdict = await counter.consume(s, key, windows, sent)
      else {
        const result = counter.count(s, key, max)
        info = result instanceof Promise ? await result : result
      }
      storeTime(d, consumes ? 'consume' : COUNT_METHOD[algorithm], t)
      counter.recovered()
    } catch (error) {
      counter.report(error, c)
      if (failOpen) {
        decide(d, 'skip', 'store_unavailable')
        await next()
        return
      }
      reject(503, 'Rate limit store unavailable', 'store_unavailable')
    }

    if (verdict !== undefined) {
      const quotas = verdictQuotas(verdict, windows, sent)
      if (!verdict.allowed || quotas.some((q) => q.refuses)) {
        const { reported, retryMs, until } = verdictRefusal(verdict, quotas, algorithm, sent)
        if (until > 0) counter.remember(local, until, reported)
        const refused = refuse(config, headersOf, reported, local, retryMs, d)
        if (refused) await refused
      }
      // The tightest limit first: least room left, then the longest wait.
      const reported = [...quotas].sort((a, b) => a.remaining - b.remaining || b.ttl - a.ttl)
      const h = headersOf(reported, local)
      const headers = h instanceof Promise ? await h : h
      decide(d, 'allow')
      await next()
      setQuotaHeaders(c, headers, standardHeaders)
      return
    }

    const counted = info as RateLimitInfo
    const reset = Math.max(0, Math.ceil(counted.ttl / 1000))
    const quota = { max, windowMs, remaining: Math.max(0, max - counted.count), reset }
    const h = headersOf([quota], local)
    const headers = h instanceof Promise ? await h : h
    const deadline = refunds ? Date.now() + counted.ttl : 0
    const hit: RateLimitHit = { algorithm, windowMs, max }
    if (counted.count > max) {
      if (skipFailed && countsRejected && !dryRun) await counter.refund(s, key, hit, deadline, c)
      overLimit(limiter, d, local, counted, quota, headers)
    }
    decide(d, 'allow')
    await next()
    if (refunds) {
      const failed = c.error !== undefined || c.res.status >= 400
      if (failed ? skipFailed : skipSuccessful) await counter.refund(s, key, hit, deadline, c)
    }
    setQuotaHeaders(c, headers, standardHeaders)
  }
}

/**
 * The usual limiter (no skip, max(c) or cost(c), one limit counted a unit at a time, no refunds,
 * draft-6 headers) has nothing to do after the handler but its headers, and on the memory store
 * nothing to await before it: it runs without an async frame, and chains on a promise only where
 * one comes (a key or a count from a store that answers later). The answers are the general
 * path's, step for step; a thrown refusal comes back as a rejected promise, as from it.
 * `undefined` for any other limiter.
 */
function usualHandler(limiter: Limiter): MiddlewareHandler | undefined {
  const { config, counter, headersOf, keyOf } = limiter
  const { skip, maxFn, costFn, consumes, skipFailed, skipSuccessful, standardHeaders } = config
  const usual =
    !skip &&
    !maxFn &&
    !costFn &&
    !consumes &&
    !skipFailed &&
    !skipSuccessful &&
    standardHeaders === 'draft-6'
  if (!usual) return undefined
  const { algorithm, windowMs, failOpen, max } = config
  // What `draft6` renders of the one quota that never changes: its max and its policy.
  const limit = String(max)
  const policy = `${max};w=${Math.ceil(windowMs / 1000)}`

  /** The count, then the pass or the refusal. */
  const counted = (c: Context, next: Next, d: Pending | undefined, k: RequestKey) => {
    const refused = refuseRemembered(limiter, k.local, d)
    if (refused) return refused.then(() => countThenPass(c, next, d, k))
    return countThenPass(c, next, d, k)
  }
  const countThenPass = (c: Context, next: Next, d: Pending | undefined, k: RequestKey) => {
    let t = 0
    let result: RateLimitInfo | Promise<RateLimitInfo>
    try {
      const s = counter.bind(c)
      t = clock(d)
      result = counter.count(s, k.key, max)
    } catch (error) {
      return storeFailed(c, next, d, error)
    }
    if (result instanceof Promise) {
      return result.then(
        (info) => pass(c, next, d, k.local, info, t),
        (error) => storeFailed(c, next, d, error),
      )
    }
    return pass(c, next, d, k.local, result, t)
  }
  const storeFailed = (c: Context, next: Next, d: Pending | undefined, error: unknown) => {
    counter.report(error, c)
    if (!failOpen) reject(503, 'Rate limit store unavailable', 'store_unavailable')
    decide(d, 'skip', 'store_unavailable')
    return passOn(next)
  }
  const pass = (
    c: Context,
    next: Next,
    d: Pending | undefined,
    local: string,
    info: RateLimitInfo,
    t: number,
  ) => {
    storeTime(d, COUNT_METHOD[algorithm], t)
    counter.recovered()
    const reset = Math.max(0, Math.ceil(info.ttl / 1000))
    const remaining = Math.max(0, max - info.count)
    if (info.count > max) {
      const quota = { max, windowMs, remaining, reset }
      overLimit(limiter, d, local, info, quota, headersOf([quota], local) as Record<string, string>)
    }
    decide(d, 'allow')
    // The draft-6 headers of that quota, written straight in (setDraft6Headers).
    return next().then(() => setDraft6Headers(c, limit, remaining, reset, policy))
  }

  return function rateLimit(c, next) {
    try {
      const d = begin(c, 'rateLimit')
      const k = keyOf(c)
      return k instanceof Promise ? k.then((k) => counted(c, next, d, k)) : counted(c, next, d, k)
    } catch (error) {
      return Promise.reject(error)
    }
  }
}

/**
 * Refuses with 429: throws (synchronously when the headers are: draft-6), or returns nothing in
 * dry run; a promise only for draft-8, whose partition key is awaited.
 */
function refuse(
  config: RateLimitConfig,
  headersOf: QuotaHeaders,
  quotas: readonly WindowQuota[],
  local: string,
  retryMs: number,
  d: Pending | undefined,
): undefined | Promise<void> {
  decide(d, config.dryRun ? 'dry-run' : 'reject', 'rate_limited', 429)
  if (config.dryRun) return undefined
  const retryAfter = String(Math.max(1, Math.ceil(retryMs / 1000)))
  const h = headersOf(quotas, local)
  if (h instanceof Promise) {
    return h.then((headers) =>
      reject(429, config.message, 'rate_limited', { ...headers, 'Retry-After': retryAfter }),
    )
  }
  return reject(429, config.message, 'rate_limited', { ...h, 'Retry-After': retryAfter })
}

/** Each limit of a `consume` verdict as a quota to report, and whether it refuses. */
function verdictQuotas(
  verdict: RateLimitVerdict,
  windows: readonly RateLimitWindow[],
  sent: number,
): VerdictQuota[] {
  const blocked = verdict.blockedMs > 0
  return windows.map((w, i) => {
    const l = verdict.limits[i] as RateLimitInfo
    const used = verdict.allowed ? l.count : l.count - sent
    return {
      max: w.max,
      windowMs: w.windowMs,
      remaining: blocked ? 0 : Math.max(0, Math.min(w.max, w.max - used)),
      reset: Math.max(0, Math.ceil(l.ttl / 1000)),
      ttl: l.ttl,
      // A free request (cost 0) needs a unit left too: a spent budget refuses everything,
      // or a route whose cost the client picks would stay open to it at 0.
      refuses: sent === 0 ? l.count >= w.max : l.count > w.max,
    }
  })
}

/**
 * A refused `consume`: the quotas to report (the refusing limits first, longest wait first),
 * when to retry (once every refusing limit has room again, or the block ends), and how long the
 * refusal may be remembered (`until`, 0: not at all).
 */
function verdictRefusal(
  verdict: RateLimitVerdict,
  quotas: VerdictQuota[],
  algorithm: RateLimitAlgorithm,
  sent: number,
): { reported: VerdictQuota[]; retryMs: number; until: number } {
  const blocked = verdict.blockedMs > 0
  let retryMs = verdict.blockedMs
  let until = blocked ? verdict.blockedMs : 0
  for (const q of quotas) {
    if (!q.refuses) continue
    retryMs = Math.max(retryMs, q.ttl)
    // Remembered only where nothing can pass before ttl: a fixed window with no unit left, a
    // bucket refusing a single unit.
    const full = q.max - q.remaining >= q.max
    if ((algorithm === 'fixed-window' && full) || (algorithm === 'token-bucket' && sent === 1)) {
      until = Math.max(until, q.ttl)
    }
  }
  const reported = quotas
    .filter((q) => q.refuses || blocked)
    .sort((a, b) => b.ttl - a.ttl)
    .concat(quotas.filter((q) => !(q.refuses || blocked)))
  if (blocked) for (const q of reported) q.reset = Math.max(q.reset, Math.ceil(retryMs / 1000))
  return { reported, retryMs, until }
}
