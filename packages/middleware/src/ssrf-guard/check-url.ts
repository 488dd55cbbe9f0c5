/**
 * The SSRF policy: which URLs a server may fetch (http/https only; no private, loopback,
 * link-local, multicast, reserved or metadata destination, by literal, by name or by any resolved
 * address). `checkUrl` is its public face; `ssrfGuard` (ssrf-guard.ts) applies it to requests.
 */
import { type IP, IPMatcher, parseCIDR, parseIP } from '../internal/network/ip'
import { loadPlatformDns } from '../internal/network/platform-dns'
import {
  assertBoolean,
  assertFunction,
  assertKnownKeys,
  assertPositiveInteger,
  assertStringArray,
  optionError,
} from '../internal/options'
import { ALWAYS_BLOCKED, embeddedIPv4, isBlockedName, PRIVATE, parseAll } from './destinations'

/**
 * Resolves a hostname to its IPv4 and IPv6 addresses. Rejecting, or resolving to an empty list,
 * means "lookup failed" and blocks the URL.
 *
 * @example
 * // DNS-over-HTTPS on an edge runtime without node:dns.
 * const resolve: SsrfResolver = async (hostname) => {
 *   const res = await fetch(`https://dns.example/resolve?name=${hostname}&type=A`)
 *   const { Answer = [] } = (await res.json()) as { Answer?: { data: string }[] }
 *   return Answer.map((a) => a.data)
 * }
 * app.post('/webhooks', ssrfGuard({ resolve }))
 */
export type SsrfResolver = (hostname: string) => Promise<readonly string[]>

/**
 * Options of {@link checkUrl}: the destination policy shared with {@link ssrfGuard}.
 *
 * @example
 * const policy: SsrfCheckOptions = { allowPrivate: true, blockList: ['10.1.0.0/16'] }
 * const verdict = await checkUrl('http://10.2.0.5/hook', policy) // reuse one options object
 */
export interface SsrfCheckOptions {
  /** Extra IPs or CIDR ranges to block, on top of the defaults. Always blocked. @default [] */
  blockList?: readonly string[]
  /**
   * Opens RFC 1918 (10/8, 172.16/12, 192.168/16), CGNAT (100.64/10) and IPv6 unique-local
   * (fc00::/7, plus the deprecated site-local fec0::/10 and local-use NAT64 64:ff9b:1::/48).
   * Loopback, link-local, multicast, reserved ranges, localhost names and cloud metadata endpoints
   * stay blocked.
   * @default false
   */
  allowPrivate?: boolean
  /**
   * DNS resolver for hostnames. Default: the platform resolver from `node:dns/promises`
   * (`lookup` with `all: true`: the A and AAAA answers the HTTP client itself would connect to),
   * loaded lazily. Where that module does not exist (edge runtimes), hostnames skip the address
   * check while IP literals, localhost and metadata names and the scheme are still checked.
   */
  resolve?: SsrfResolver
  /**
   * Longest wait for the resolver, in milliseconds. A lookup that takes longer blocks the URL
   * (403, reason `dns-timeout`) instead of holding the request open. @default 3000
   */
  resolveTimeout?: number
}

/**
 * Why {@link checkUrl} refused a URL.
 *
 * @example
 * const verdict = await checkUrl('http://169.254.169.254/latest/meta-data/')
 * if (!verdict.ok) {
 *   const reason: SsrfBlockReason = verdict.reason // 'blocked-address'
 * }
 */
export type SsrfBlockReason =
  | 'invalid-url'
  | 'unsupported-protocol'
  | 'blocked-hostname'
  | 'blocked-address'
  | 'dns-failure'
  | 'dns-timeout'

/**
 * The verdict of {@link checkUrl}.
 *
 * @example
 * app.post('/fetch', async (c) => {
 *   const verdict: SsrfCheckResult = await checkUrl((await c.req.json<{ url: string }>()).url)
 *   if (!verdict.ok) return c.text('Forbidden URL', verdict.status)
 *   return fetch(verdict.url, { redirect: 'manual' })
 * })
 */
export type SsrfCheckResult =
  | {
      ok: true
      /** The parsed, normalised URL: fetch this, not the original string. */
      url: URL
      /**
       * The addresses that were checked: the literal itself, or every resolved address. Empty when
       * the hostname was not resolved (no DNS available). Connect to one of these to pin the
       * destination against DNS rebinding.
       */
      addresses: string[]
    }
  | { ok: false; status: 400 | 403; reason: SsrfBlockReason }

// setTimeout treats larger delays as 1 ms.
const MAX_DELAY = 2_147_483_647
const TIMED_OUT = Symbol('timed out')

/** The platform resolver, loaded on first use; `null` where `node:dns/promises` does not exist. */
async function loadPlatformResolver(): Promise<SsrfResolver | null> {
  return (await loadPlatformDns())?.lookup ?? null
}

/** A compiled destination policy: parses, classifies and (when possible) resolves a URL. */
export type UrlChecker = (input: string | URL) => Promise<SsrfCheckResult>

export function compileChecker(factory: string, options: SsrfCheckOptions | undefined): UrlChecker {
  const blockList = assertStringArray(factory, 'blockList', options?.blockList ?? [])
  const allowPrivate = assertBoolean(factory, 'allowPrivate', options?.allowPrivate ?? false)
  const resolve =
    options?.resolve === undefined
      ? undefined
      : assertFunction<SsrfResolver>(factory, 'resolve', options.resolve)
  const resolveTimeout = assertPositiveInteger(
    factory,
    'resolveTimeout',
    options?.resolveTimeout ?? 3000,
  )
  if (resolveTimeout > MAX_DELAY) {
    throw optionError(
      factory,
      `"resolveTimeout" must be at most ${MAX_DELAY}, got ${resolveTimeout}`,
    )
  }
  const extra = blockList.map((entry) => {
    const range = parseCIDR(entry)
    if (range === null) {
      throw optionError(factory, `invalid IP or CIDR ${JSON.stringify(entry)} in "blockList"`)
    }
    return range
  })
  const blocked = new IPMatcher([
    ...parseAll(ALWAYS_BLOCKED),
    ...(allowPrivate ? [] : parseAll(PRIVATE)),
    ...extra,
  ])

  const isBlockedIP = (ip: IP): boolean => {
    if (blocked.has(ip)) return true
    if (ip.version === 4) return false
    for (const v4 of embeddedIPv4(ip.value)) {
      if (blocked.has({ version: 4, value: v4 })) return true
    }
    return false
  }

  return async function check(input) {
    let url: URL
    try {
      url = typeof input === 'string' ? new URL(input) : new URL(input.href)
    } catch {
      return { ok: false, status: 400, reason: 'invalid-url' }
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return { ok: false, status: 400, reason: 'unsupported-protocol' }
    }
    // The WHATWG parser has already turned every IPv4 spelling (0x7f.1, 2130706433, 0177.0.0.1,
    // 127.1, fullwidth digits, %-escapes) into dotted decimal and compressed IPv6 in brackets.
    const host = url.hostname
    const literal = host.startsWith('[') ? parseIP(host.slice(1, -1)) : parseIP(host)
    if (literal) {
      if (isBlockedIP(literal)) return { ok: false, status: 403, reason: 'blocked-address' }
      return { ok: true, url, addresses: [host.startsWith('[') ? host.slice(1, -1) : host] }
    }
    if (isBlockedName(host)) return { ok: false, status: 403, reason: 'blocked-hostname' }

    const resolver = resolve ?? (await loadPlatformResolver())
    // Edge runtimes: no DNS, so the address check is skipped as SPEC allows.
    if (!resolver) return { ok: true, url, addresses: [] }
    let addresses: readonly string[] | typeof TIMED_OUT
    let timer: ReturnType<typeof setTimeout> | undefined
    try {
      // A resolver that never answers must not hold the request open: race it against a timer.
      // race() also subscribes to a late rejection, so it never becomes unhandled.
      addresses = await Promise.race([
        resolver(host),
        new Promise<typeof TIMED_OUT>((settle) => {
          timer = setTimeout(settle, resolveTimeout, TIMED_OUT)
        }),
      ])
    } catch {
      return { ok: false, status: 403, reason: 'dns-failure' }
    } finally {
      clearTimeout(timer)
    }
    if (addresses === TIMED_OUT) return { ok: false, status: 403, reason: 'dns-timeout' }
    if (!Array.isArray(addresses) || addresses.length === 0) {
      return { ok: false, status: 403, reason: 'dns-failure' }
    }
    for (const address of addresses) {
      const ip = typeof address === 'string' ? parseIP(address) : null
      // One bad answer is enough: the client may connect to any of them.
      if (!ip || isBlockedIP(ip)) return { ok: false, status: 403, reason: 'blocked-address' }
    }
    return { ok: true, url, addresses: [...addresses] }
  }
}

const checkerCache = new WeakMap<SsrfCheckOptions, UrlChecker>()
let defaultChecker: UrlChecker | undefined

/**
 * Checks a URL against the SSRF policy of {@link ssrfGuard}: http/https only, no private,
 * loopback, link-local, multicast, reserved or metadata destination, by IP literal, by name or by
 * any resolved address; a failed lookup blocks. Use it again right before the outgoing `fetch`:
 * a request-time check alone cannot see DNS rebinding or redirects.
 *
 * Never throws for a bad URL; a bad option throws a `TypeError` starting with `checkUrl:`. The
 * policy is compiled once per options object (cached weakly), so reuse the same object.
 *
 * @param url the URL text or object.
 * @param options `blockList` (default `[]`), `allowPrivate` (default `false`), `resolve`
 *   (default: the platform DNS where available), `resolveTimeout` (default `3000` ms).
 * @returns `{ ok: true, url, addresses }`, or `{ ok: false, status: 400 | 403, reason }`.
 * @example
 * ```ts
 * const verdict = await checkUrl(target)
 * if (!verdict.ok) throw new Error(`refused: ${verdict.reason}`)
 * const res = await fetch(verdict.url, { redirect: 'manual' })
 * ```
 */
export function checkUrl(url: string | URL, options?: SsrfCheckOptions): Promise<SsrfCheckResult> {
  let checker: UrlChecker | undefined
  if (options === undefined) {
    defaultChecker ??= compileChecker('checkUrl', undefined)
    checker = defaultChecker
  } else {
    checker = checkerCache.get(options)
    if (!checker) {
      assertKnownKeys('checkUrl', options, [
        'blockList',
        'allowPrivate',
        'resolve',
        'resolveTimeout',
      ])
      checker = compileChecker('checkUrl', options)
      checkerCache.set(options, checker)
    }
  }
  return checker(url)
}
