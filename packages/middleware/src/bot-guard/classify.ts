import { isbot } from 'isbot'
import { BoundedCache } from '../internal/caches/bounded-cache'
import { type BotCategory, NAMED_BOTS } from './categories'
import { CRAWLERS, type Crawler } from './crawlers'

/** What the handler reads from `c.get('bot')`. */
export interface BotInfo {
  /** What botGuard made of the request: see the categories on the docs page. */
  readonly category: BotCategory
  /** The bot's name from botGuard's lists (`'Googlebot'`, `'curl'`); never text the client chose. */
  readonly name?: string
  /** `true` only for a crawler's claim confirmed by its address (DNS or the ranges you passed). */
  readonly verified: boolean
}

/** A user agent's classification: what it is, and the crawler it claims to be, if any. */
export interface UserAgentClass {
  readonly info: BotInfo
  readonly crawler?: Crawler
}

/**
 * Longest user agent classified (and cached). Longer ones are `unknown-bot` without a look at
 * their text: browsers send a few hundred characters, and a huge header must cost neither a
 * pattern run per request nor a large cache key.
 */
export const MAX_USER_AGENT = 2048

const info = (category: BotCategory, name?: string): BotInfo =>
  Object.freeze(
    name === undefined ? { category, verified: false } : { category, name, verified: false },
  )

const BROWSER: UserAgentClass = Object.freeze({ info: info('browser') })
const UNKNOWN: UserAgentClass = Object.freeze({ info: info('unknown-bot') })

/** The classification of each named bot and each crawler's claim, made once. */
const NAMED = new Map<string, UserAgentClass>()
for (const [category, bots] of NAMED_BOTS) {
  for (const bot of bots) NAMED.set(bot.token, Object.freeze({ info: info(category, bot.name) }))
}
const CLAIMS = new Map<Crawler, UserAgentClass>(
  CRAWLERS.map((crawler) => [
    crawler,
    Object.freeze({ info: info(crawler.category, crawler.name), crawler }),
  ]),
)

/**
 * Classifies a user agent, uncached. isbot decides bot or browser; a missing, empty or
 * oversized user agent is `unknown-bot` (every browser sends one). Among bots, a crawler's token
 * makes a claim (checked later against the address), then the named lists give the category.
 */
export function classifyUserAgent(userAgent: string | undefined | null): UserAgentClass {
  if (!userAgent || userAgent.length > MAX_USER_AGENT) return UNKNOWN
  if (!isbot(userAgent)) return BROWSER
  const lower = userAgent.toLowerCase()
  for (const crawler of CRAWLERS) {
    if (crawler.tokens.some((t) => lower.includes(t))) return CLAIMS.get(crawler) as UserAgentClass
  }
  for (const [, bots] of NAMED_BOTS) {
    for (const bot of bots) {
      if (lower.includes(bot.token)) return NAMED.get(bot.token) as UserAgentClass
    }
  }
  return UNKNOWN
}

/**
 * {@link classifyUserAgent} behind a bounded LRU per user-agent string: a returning user agent
 * costs one map lookup. Entries are shared, frozen objects, so the cache holds no per-request
 * state.
 *
 * The user agent looked up last, and its class, are kept beside the LRU: the same agent again
 * (a crawler's run of requests, a client's page and its assets) is one string comparison, where
 * the map would hash the whole header, a new string on every request from a socket. That agent
 * is always the LRU's newest key (every lookup and insertion here sets both), so answering it
 * without the map leaves the LRU as its own lookup would: the newest key is not moved again.
 */
export function cachedClassifier(max: number): (userAgent: string | undefined) => UserAgentClass {
  const cache = new BoundedCache<string, UserAgentClass>(max)
  // Always a pair: '' is UNKNOWN, as classifyUserAgent('') is.
  let lastAgent = ''
  let lastSeen: UserAgentClass = UNKNOWN
  return (userAgent) => {
    // The last agent is never longer than MAX_USER_AGENT: against an oversized one the
    // comparison stops at the lengths.
    if (userAgent === lastAgent) return lastSeen
    if (!userAgent || userAgent.length > MAX_USER_AGENT) return UNKNOWN
    let seen = cache.get(userAgent)
    if (seen === undefined) {
      seen = classifyUserAgent(userAgent)
      cache.set(userAgent, seen)
    }
    lastAgent = userAgent
    lastSeen = seen
    return seen
  }
}
