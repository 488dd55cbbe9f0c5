import { IPMatcher, type IPMatcher as Matcher, parseCIDR } from '../internal/network/ip'
import { loadPlatformDns } from '../internal/network/platform-dns'
import {
  assertBoolean,
  assertFunction,
  assertKnownKeys,
  assertNonEmptyString,
  assertOneOf,
  assertPositiveInteger,
  assertStringArray,
  formatValue,
  optionError,
} from '../internal/options'
import { BOT_CATEGORIES, type BotCategory } from './categories'
import { CRAWLER_NAMES } from './crawlers'
import type { BotResolver, VerifierSettings } from './verify'

export const FACTORY = 'botGuard'

/**
 * Options of {@link botGuard}.
 *
 * @example
 * const options: BotGuardOptions = {
 *   deny: ['spoofed', 'ai-crawler'],
 *   ranges: { GPTBot: ['20.171.206.0/24'] },
 * }
 * app.use('*', botGuard(options))
 */
export interface BotGuardOptions {
  /**
   * Categories refused with 403 `bot_denied` (`'browser'` included, for an API meant for
   * machines). Not with `allow`. @default ['spoofed']
   */
  deny?: readonly BotCategory[]
  /**
   * The only bot categories that pass; every other bot is refused (`[]`: every bot). Browsers
   * always pass. Not with `deny`.
   */
  allow?: readonly BotCategory[]
  /**
   * Published IP ranges per crawler (`{ Googlebot: [...], GPTBot: [...] }`, CIDRs): a claim from
   * inside them is verified without DNS. Crawlers that publish no reverse DNS (DuckDuckBot,
   * GPTBot, OAI-SearchBot, ChatGPT-User) can only be verified this way.
   */
  ranges?: Readonly<Record<string, readonly string[]>>
  /**
   * The DNS for forward-confirmed reverse DNS. Default: `node:dns/promises`, loaded on first use,
   * where it exists. `false`: no DNS, ranges only.
   */
  resolver?: BotResolver | false
  /** Longest wait for the whole DNS check of one claim, in milliseconds. @default 2000 */
  dnsTimeout?: number
  /**
   * What a claim that cannot be checked (no DNS and no ranges, timeout, resolver error, no
   * client address) becomes: `'unverified'` keeps its category with `verified: false`,
   * `'spoofed'` treats it as a lie. @default 'unverified'
   */
  unverifiable?: 'unverified' | 'spoofed'
  /** Body of the 403 response. @default 'Access denied' */
  message?: string
  /** Record `dry-run` decisions instead of refusing. @default false */
  dryRun?: boolean
}

const KNOWN = [
  'deny',
  'allow',
  'ranges',
  'resolver',
  'dnsTimeout',
  'unverifiable',
  'message',
  'dryRun',
] as const

// setTimeout treats larger delays as 1 ms.
const MAX_DELAY = 2_147_483_647

function categories(name: string, value: unknown): Set<BotCategory> {
  const list = assertStringArray(FACTORY, name, value)
  for (const entry of list) {
    if (!(BOT_CATEGORIES as readonly string[]).includes(entry)) {
      throw optionError(
        FACTORY,
        `unknown category ${formatValue(entry)} in "${name}" (known: ${BOT_CATEGORIES.join(', ')})`,
      )
    }
  }
  return new Set(list as BotCategory[])
}

function compileRanges(value: unknown): Map<string, Matcher> {
  const out = new Map<string, Matcher>()
  if (value === undefined) return out
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw optionError(FACTORY, '"ranges" must be an object of crawler name to CIDR list')
  }
  for (const [name, list] of Object.entries(value)) {
    if (!CRAWLER_NAMES.includes(name)) {
      throw optionError(
        FACTORY,
        `unknown crawler "${name}" in "ranges" (known: ${CRAWLER_NAMES.join(', ')})`,
      )
    }
    const cidrs = assertStringArray(FACTORY, `ranges.${name}`, list).map((entry) => {
      const range = parseCIDR(entry)
      if (range === null) {
        throw optionError(
          FACTORY,
          `invalid IP or CIDR ${JSON.stringify(entry)} in "ranges.${name}"`,
        )
      }
      return range
    })
    out.set(name, new IPMatcher(cidrs))
  }
  return out
}

function resolverOf(value: unknown): VerifierSettings['resolver'] {
  if (value === undefined) return loadPlatformDns
  if (value === false) return null
  const r = value as BotResolver | null
  if (r === null || typeof r !== 'object') {
    throw optionError(FACTORY, '"resolver" must be { reverse(ip), lookup(name) } or false')
  }
  assertFunction(FACTORY, 'resolver.reverse', r.reverse)
  assertFunction(FACTORY, 'resolver.lookup', r.lookup)
  return { reverse: (ip) => r.reverse(ip), lookup: (name) => r.lookup(name) }
}

/** The checked, frozen configuration of one botGuard instance. */
export interface BotGuardConfig {
  /** Whether a category is refused. */
  denied: (category: BotCategory) => boolean
  unverifiableAsSpoofed: boolean
  message: string
  dryRun: boolean
  verifier: VerifierSettings
}

export function configure(options: BotGuardOptions | undefined): BotGuardConfig {
  assertKnownKeys(FACTORY, options, KNOWN)
  const o = options ?? {}
  if (o.allow !== undefined && o.deny !== undefined) {
    throw optionError(FACTORY, 'give "allow" or "deny", not both')
  }
  const allow = o.allow === undefined ? null : categories('allow', o.allow)
  const deny = categories('deny', o.deny ?? ['spoofed'])
  const timeoutMs = assertPositiveInteger(FACTORY, 'dnsTimeout', o.dnsTimeout ?? 2000)
  if (timeoutMs > MAX_DELAY) {
    throw optionError(FACTORY, `"dnsTimeout" must be at most ${MAX_DELAY}, got ${timeoutMs}`)
  }
  return {
    // As Arcjet's allow: it names the bots that pass; people (browsers) always do.
    denied: allow
      ? (category) => category !== 'browser' && !allow.has(category)
      : (category) => deny.has(category),
    unverifiableAsSpoofed:
      assertOneOf(FACTORY, 'unverifiable', o.unverifiable ?? 'unverified', [
        'unverified',
        'spoofed',
      ] as const) === 'spoofed',
    message: assertNonEmptyString(FACTORY, 'message', o.message ?? 'Access denied'),
    dryRun: assertBoolean(FACTORY, 'dryRun', o.dryRun ?? false),
    verifier: {
      ranges: compileRanges(o.ranges),
      resolver: resolverOf(o.resolver),
      timeoutMs,
      cacheMs: 3_600_000,
      retryMs: 30_000,
      maxEntries: 10_000,
      maxPending: 64,
    },
  }
}
