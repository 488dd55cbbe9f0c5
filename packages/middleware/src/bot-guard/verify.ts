/**
 * Checking a crawler's claim against the client address: by the IP ranges the user passed, else
 * by forward-confirmed reverse DNS (the address's PTR name must be under the crawler's domains,
 * and that name must resolve back to the address). Every failure to get an answer (timeout,
 * resolver error, no DNS on this runtime) is `unverifiable`, never `verified`.
 */
import { BoundedCache } from '../internal/caches/bounded-cache'
import { formatIPv4, formatIPv6, type IP, type IPMatcher, parseIP } from '../internal/network/ip'
import type { PlatformDns } from '../internal/network/platform-dns'
import { type Crawler, underDomains } from './crawlers'

/** The outcome of a check, with why (for the decision's `cause`; never sent to the client). */
export interface Verdict {
  readonly outcome: 'verified' | 'spoofed' | 'unverifiable'
  readonly reason:
    | 'in-ranges'
    | 'reverse-dns'
    | 'not-in-ranges'
    | 'no-ptr'
    | 'ptr-outside-domains'
    | 'forward-mismatch'
    | 'no-address'
    | 'no-dns'
    | 'dns-timeout'
    | 'dns-error'
    | 'dns-busy'
}

const verdict = (outcome: Verdict['outcome'], reason: Verdict['reason']): Verdict =>
  Object.freeze({ outcome, reason })

const V = {
  inRanges: verdict('verified', 'in-ranges'),
  reverseDns: verdict('verified', 'reverse-dns'),
  notInRanges: verdict('spoofed', 'not-in-ranges'),
  noPtr: verdict('spoofed', 'no-ptr'),
  outside: verdict('spoofed', 'ptr-outside-domains'),
  mismatch: verdict('spoofed', 'forward-mismatch'),
  noAddress: verdict('unverifiable', 'no-address'),
  noDns: verdict('unverifiable', 'no-dns'),
  timeout: verdict('unverifiable', 'dns-timeout'),
  error: verdict('unverifiable', 'dns-error'),
  busy: verdict('unverifiable', 'dns-busy'),
}

/** A resolver for the DNS check: the same shape as `node:dns/promises`' `reverse` and `lookup`. */
export interface BotResolver {
  /**
   * The PTR names of an address. An empty list, or an `ENOTFOUND`/`ENODATA` error: no name
   * (spoofed). Any other error: no answer (unverifiable). Node's `dns.reverse()` reports a
   * timeout as `ENOTFOUND`; query the PTR record with `resolvePtr` instead.
   */
  reverse(ip: string): Promise<readonly string[]>
  /** Every address (A and AAAA) of a name. */
  lookup(name: string): Promise<readonly string[]>
}

export interface VerifierSettings {
  ranges: ReadonlyMap<string, IPMatcher>
  /** The resolver, `null` for none (ranges only), or a loader of the platform's. */
  resolver: BotResolver | null | (() => Promise<PlatformDns | null>)
  timeoutMs: number
  cacheMs: number
  /** How long an unverifiable verdict is kept, so a DNS outage is not asked again per request. */
  retryMs: number
  maxEntries: number
  maxPending: number
}

/** No PTR record, or no address for the name: an answer, not a failure. */
const NO_NAME = new Set(['ENOTFOUND', 'ENODATA'])
const noName = (err: unknown) =>
  typeof err === 'object' && err !== null && NO_NAME.has((err as { code?: unknown }).code as string)

const PTR_NAMES_TRIED = 4

const sameIP = (a: IP, b: IP | null) => b !== null && a.version === b.version && a.value === b.value

export const formatIP = (ip: IP): string =>
  ip.version === 4 ? formatIPv4(ip.value) : formatIPv6(ip.value)

/** Forward-confirmed reverse DNS of `ip` for `crawler`, without a time limit (the caller sets one). */
async function confirm(resolver: BotResolver, crawler: Crawler, ip: IP): Promise<Verdict> {
  let names: readonly string[]
  try {
    names = await resolver.reverse(formatIP(ip))
  } catch (err) {
    return noName(err) ? V.noPtr : V.error
  }
  if (!Array.isArray(names) || names.length === 0) return V.noPtr
  const candidates = names
    .filter((n): n is string => typeof n === 'string' && underDomains(n, crawler.domains))
    .slice(0, PTR_NAMES_TRIED)
  if (candidates.length === 0) return V.outside
  let failed = false
  for (const name of candidates) {
    let addresses: readonly string[]
    try {
      addresses = await resolver.lookup(name)
    } catch (err) {
      if (!noName(err)) failed = true
      continue
    }
    if (!Array.isArray(addresses)) continue
    for (const a of addresses)
      if (typeof a === 'string' && sameIP(ip, parseIP(a))) return V.reverseDns
  }
  return failed ? V.error : V.mismatch
}

const TIMED_OUT = Symbol('timed out')

type Entry = { verdict: Verdict; until: number }

/**
 * The claim checker of one botGuard instance: ranges first, then DNS, each verdict cached per
 * crawler and address (verified and spoofed for `cacheMs`, unverifiable for `retryMs`), one
 * lookup in flight per crawler and address, at most `maxPending` lookups in flight at all.
 */
export function createVerifier(settings: VerifierSettings) {
  // Keyed by the address's value (a number for IPv4, a bigint for IPv6: never equal keys), one
  // cache per crawler: a returning crawler costs a map lookup, no string built.
  const caches = new Map<Crawler, BoundedCache<number | bigint, Entry>>()
  const pending = new Map<string, Promise<Verdict>>()
  const cacheOf = (crawler: Crawler) => {
    let cache = caches.get(crawler)
    if (cache === undefined) {
      cache = new BoundedCache(settings.maxEntries)
      caches.set(crawler, cache)
    }
    return cache
  }

  async function timed(resolver: BotResolver, crawler: Crawler, ip: IP): Promise<Verdict> {
    let timer: ReturnType<typeof setTimeout> | undefined
    try {
      const result = await Promise.race([
        confirm(resolver, crawler, ip),
        new Promise<typeof TIMED_OUT>((settle) => {
          timer = setTimeout(settle, settings.timeoutMs, TIMED_OUT)
        }),
      ])
      return result === TIMED_OUT ? V.timeout : result
    } catch {
      return V.error
    } finally {
      clearTimeout(timer)
    }
  }

  async function resolverOf(): Promise<BotResolver | null> {
    const r = settings.resolver
    return typeof r === 'function' ? await r() : r
  }

  // The entry a cache answered last, with its crawler and address: a crawler's run of requests
  // from one address is two comparisons and the clock, not three map lookups. The entry is its
  // cache's newest key (the lookup that found it made it so, and only a lookup or a store
  // changes that), so serving it again leaves the LRU as that lookup would: the newest key is
  // not moved. Storing a verdict, the only way an entry is replaced or evicted, forgets it.
  // `undefined` crawler: nothing remembered.
  let lastCrawler: Crawler | undefined
  let lastKey: number | bigint | undefined
  let lastEntry: Entry | undefined

  async function lookUp(crawler: Crawler, ip: IP, fallback: Verdict | null) {
    const resolver = crawler.domains.length > 0 ? await resolverOf() : null
    const result = resolver ? await timed(resolver, crawler, ip) : (fallback ?? V.noDns)
    const ttl = result.outcome === 'unverifiable' ? settings.retryMs : settings.cacheMs
    cacheOf(crawler).set(ip.value, { verdict: result, until: Date.now() + ttl })
    lastCrawler = undefined
    lastKey = undefined
    lastEntry = undefined
    return result
  }

  return function verify(crawler: Crawler, ip: IP | null): Verdict | Promise<Verdict> {
    if (ip === null) return V.noAddress
    // The same claim as last time: its ranges and settings were checked then, and the address's
    // value decides both (a number for IPv4, a bigint for IPv6). Expired: checked in full below.
    if (crawler === lastCrawler && ip.value === lastKey) {
      const entry = lastEntry as Entry
      if (entry.until > Date.now()) return entry.verdict
    }
    const matcher = settings.ranges.get(crawler.name)
    if (matcher?.has(ip)) return V.inRanges
    // Ranges given and no other way to check: outside them is a lie.
    const fallback = matcher ? V.notInRanges : null
    if (crawler.domains.length === 0 || settings.resolver === null) return fallback ?? V.noDns
    const hit = caches.get(crawler)?.get(ip.value)
    if (hit !== undefined) {
      lastCrawler = crawler
      lastKey = ip.value
      lastEntry = hit
      if (hit.until > Date.now()) return hit.verdict
    }
    const key = `${crawler.name} ${formatIP(ip)}`
    const inFlight = pending.get(key)
    if (inFlight) return inFlight
    if (pending.size >= settings.maxPending) return V.busy
    const p = lookUp(crawler, ip, fallback).finally(() => pending.delete(key))
    pending.set(key, p)
    return p
  }
}

export type Verifier = ReturnType<typeof createVerifier>
