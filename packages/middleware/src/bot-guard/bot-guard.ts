import type { Context, MiddlewareHandler, Next } from 'hono'
import { getClientIP } from '../internal/network/client-ip'
import { type IP, parseIP } from '../internal/network/ip'
import { begin, decide, type Pending } from '../internal/outcomes/decisions'
import { described } from '../internal/outcomes/described'
import { passOn } from '../internal/pass-on'
import { type BotGuardRejects, rejectOrRecord } from './answers'
import { type BotInfo, cachedClassifier, type UserAgentClass } from './classify'
import { type BotGuardOptions, configure, FACTORY } from './config'
import { CRAWLERS, type Crawler } from './crawlers'
import { botGuardDescription } from './description'
import { createVerifier, type Verdict } from './verify'

/** Distinct user agents whose classification one instance keeps. */
const CLASSIFIED = 1000

/** The answers a crawler's claim can get besides the unverified one classify() made. */
const CLAIMS = new Map<Crawler, { verified: BotInfo; spoofed: BotInfo }>(
  CRAWLERS.map((crawler) => [
    crawler,
    {
      verified: Object.freeze({ category: crawler.category, name: crawler.name, verified: true }),
      spoofed: Object.freeze({ category: 'spoofed', name: crawler.name, verified: false }),
    },
  ]),
)

/**
 * Classifies the client by its user agent (bot or not by `isbot`, then the kind of bot), checks a
 * crawler's claim (Googlebot, Bingbot, …) against the client address, and refuses the denied
 * categories with 403 `bot_denied`. A claim that its address contradicts is `spoofed`, denied by
 * default. The handler reads `c.get('bot')`: `{ category, name?, verified }`.
 *
 * A claim is checked by the `ranges` you pass for that crawler, else by forward-confirmed reverse
 * DNS (`node:dns`, or your `resolver`), cached per crawler and address and bounded by
 * `dnsTimeout`. A check that gets no answer never verifies: the claim is unverified (or spoofed
 * with `unverifiable: 'spoofed'`). The client address is the shared client-IP rule (the same as
 * ipGuard and rateLimit, `clientIp()` platforms included), so a forged `X-Forwarded-For` verifies
 * nothing.
 *
 * @param options.deny `['spoofed']` by default; or `allow`, the only categories that pass.
 * @param options.ranges published CIDRs per crawler name; none by default.
 * @param options.resolver `node:dns/promises` where it exists; `false` for ranges only.
 * @param options.dnsTimeout `2000` ms.
 * @param options.unverifiable `'unverified'` by default.
 * @param options.dryRun `false` by default.
 * @example
 * ```ts
 * app.use('*', botGuard())
 * app.use('/articles/*', botGuard({ deny: ['spoofed', 'ai-crawler'] }))
 * app.get('/', (c) => c.text(c.get('bot').category))
 * ```
 */
export function botGuard(options?: BotGuardOptions): MiddlewareHandler & BotGuardRejects {
  const config = configure(options)
  const classify = cachedClassifier(CLASSIFIED)
  const verify = createVerifier(config.verifier)
  const { denied, dryRun, message, unverifiableAsSpoofed } = config

  function settle(seen: UserAgentClass, crawler: Crawler, verdict: Verdict): BotInfo {
    const infos = CLAIMS.get(crawler) as { verified: BotInfo; spoofed: BotInfo }
    if (verdict.outcome === 'verified') return infos.verified
    if (verdict.outcome === 'spoofed' || unverifiableAsSpoofed) return infos.spoofed
    return seen.info
  }

  function record(d: Pending | undefined, info: BotInfo, verdict: Verdict | undefined) {
    if (d === undefined) return
    d.decision.category = info.category
    if (verdict !== undefined) d.decision.cause = `${info.name} claim: ${verdict.reason}`
  }

  // The client address parsed last, by its text: a returning crawler's address is not parsed
  // again (parseIP allocates). The text is compared whole, so another address is parsed anew.
  let lastAddress: string | undefined
  let lastIP: IP | null = null
  function clientIP(c: Context): IP | null {
    const raw = getClientIP(c)
    if (!raw) return null
    if (raw !== lastAddress) {
      lastIP = parseIP(raw)
      lastAddress = raw
    }
    return lastIP
  }

  function finish(c: Context, next: Next, d: Pending | undefined, info: BotInfo, v?: Verdict) {
    c.set('bot', info)
    record(d, info, v)
    if (denied(info.category)) rejectOrRecord(d, dryRun, 403, message, 'bot_denied')
    decide(d, 'allow')
    return passOn(next)
  }

  // Not an async function: a browser or a cached verdict costs no extra promise and no await
  // (about 0.3 µs per request); only a claim waiting on DNS goes through a promise.
  return described(botGuardDescription, function botGuard(c, next): Promise<void> {
    try {
      const d = begin(c, FACTORY)
      const seen = classify(c.req.raw.headers.get('user-agent') ?? undefined)
      const crawler = seen.crawler
      if (crawler === undefined) return finish(c, next, d, seen.info)
      const checked = verify(crawler, clientIP(c))
      // A cached verdict comes back as is: no promise to wait for.
      if (checked instanceof Promise) {
        return checked.then((v) => finish(c, next, d, settle(seen, crawler, v), v))
      }
      return finish(c, next, d, settle(seen, crawler, checked), checked)
    } catch (error) {
      return Promise.reject(error)
    }
  })
}
