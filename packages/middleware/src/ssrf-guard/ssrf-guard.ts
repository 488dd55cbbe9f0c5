import type { Context, MiddlewareHandler } from 'hono'
import { mayHaveBody } from '../internal/body'
import { described } from '../internal/described'
import { type CIDR, type IP, IPMatcher, parseCIDR, parseIP } from '../internal/ip'
import { readBodyForm, readBodyText } from '../internal/json-body'
import {
  assertBoolean,
  assertFunction,
  assertKnownKeys,
  assertNonEmptyString,
  assertPositiveInteger,
  assertStringArray,
  optionError,
} from '../internal/options'
import { reject } from '../internal/reject'
import { ssrfGuardDescription } from './description'

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
 * Options of {@link ssrfGuard}.
 *
 * @example
 * const options: SsrfGuardOptions = { extractUrl: (c) => c.req.query('target') ?? null }
 * app.get('/preview', ssrfGuard(options))
 */
export interface SsrfGuardOptions extends SsrfCheckOptions {
  /**
   * Finds the URL to check. Returning `null`/`undefined` lets the request pass. Default: the `url`
   * field of a JSON body, whatever its Content-Type, a form type included (`c.req.json()` ignores
   * it too), and every `url` field of a form body; read once into Hono's body cache, with `c.req.raw`
   * replaced by a Request carrying the same bytes, so the handler can still read the body. A body that
   * is not JSON, or has no `url`, passes. A `url` that is present but not a string is 400.
   */
  extractUrl?: (c: Context) => string | null | undefined | Promise<string | null | undefined>
  /** Body of the 403 response for a blocked destination. @default 'Forbidden URL' */
  message?: string
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

// Blocked whatever `allowPrivate` says. Checked against the IANA IPv4 and IPv6 Special-Purpose
// Address Registries: every block that is not globally reachable is here or in PRIVATE, except
// the IPv4-in-IPv6 translation blocks, which are judged by the IPv4 address they carry.
const ALWAYS_BLOCKED = [
  '0.0.0.0/8', // "this network"; 0.0.0.0 reaches the local host on most stacks
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local, incl. 169.254.169.254 (AWS, GCP, Azure, DigitalOcean, Oracle)
  '192.0.0.0/24', // IETF protocol assignments (DS-Lite, NAT64 discovery, Oracle's 192.0.0.192)
  '192.0.2.0/24', // TEST-NET-1 (documentation)
  '192.88.99.0/24', // deprecated 6to4 relay anycast (RFC 7526)
  '198.51.100.0/24', // TEST-NET-2 (documentation)
  '203.0.113.0/24', // TEST-NET-3 (documentation)
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, incl. broadcast 255.255.255.255
  '100.100.100.200/32', // Alibaba Cloud metadata: inside CGNAT, so it must survive allowPrivate
  '168.63.129.16/32', // Azure WireServer / host DNS: public-looking, answers only inside Azure
  '::/96', // unspecified (::), loopback (::1) and deprecated IPv4-compatible addresses
  '100::/64', // discard-only (RFC 6666)
  '100:0:0:1::/64', // dummy IPv6 prefix (RFC 9780)
  '2001:2::/48', // benchmarking (RFC 5180)
  '2001:10::/28', // deprecated ORCHID (RFC 4843)
  '2001:20::/27', // ORCHIDv2 (RFC 7343) and DRIP entity tags (RFC 9374): identifiers, not hosts
  '2001:db8::/32', // documentation (RFC 3849)
  '3fff::/20', // documentation (RFC 9637)
  '5f00::/16', // SRv6 segment identifiers (RFC 9602)
  'fe80::/10', // link-local
  'ff00::/8', // multicast
  'fd00:ec2::254/128', // AWS metadata over IPv6: inside fc00::/7, so it must survive allowPrivate
]

// Blocked unless `allowPrivate`.
const PRIVATE = [
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10', // CGNAT (RFC 6598)
  // Benchmarking (RFC 2544); also the "fake IP" range of some proxies and VPN clients, an
  // internal network in practice, hence opened by allowPrivate rather than always blocked.
  '198.18.0.0/15',
  'fc00::/7', // unique local (RFC 4193)
  'fec0::/10', // deprecated site-local (RFC 3879)
  '64:ff9b:1::/48', // local-use NAT64 (RFC 8215): may translate to any internal IPv4
]

const BLOCKED_NAMES = new Set([
  'localhost',
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
])

const parseAll = (entries: readonly string[]): CIDR[] =>
  entries.map((entry) => parseCIDR(entry) as CIDR)

const MASK32 = 0xffffffffn
// setTimeout treats larger delays as 1 ms.
const MAX_DELAY = 2_147_483_647
const TIMED_OUT = Symbol('timed out')

/**
 * The IPv4 addresses an IPv6 address carries, which a translator or tunnel may deliver to:
 * NAT64 (64:ff9b::/96), SIIT (::ffff:0:0:0/96), 6to4 (2002::/16) and Teredo (2001::/32, server
 * and XOR-obfuscated client). IPv4-mapped addresses never get here: `parseIP` turns them into IPv4.
 */
function embeddedIPv4(value: bigint): number[] {
  const top16 = value >> 112n
  if (value >> 32n === 0x0064ff9b0000000000000000n) return [Number(value & MASK32)]
  if (value >> 32n === 0xffff0000n) return [Number(value & MASK32)]
  if (top16 === 0x2002n) return [Number((value >> 80n) & MASK32)]
  if (value >> 96n === 0x20010000n) {
    return [Number((value >> 64n) & MASK32), Number(~value & MASK32)]
  }
  return []
}

function stripTrailingDots(name: string): string {
  let end = name.length
  while (end > 0 && name.charCodeAt(end - 1) === 46 /* '.' */) end--
  return name.slice(0, end)
}

function isBlockedName(hostname: string): boolean {
  const name = stripTrailingDots(hostname.toLowerCase())
  return BLOCKED_NAMES.has(name) || name.endsWith('.localhost')
}

type DnsModule = {
  lookup(
    hostname: string,
    options: { all: true; verbatim: boolean },
  ): Promise<{ address: string }[]>
}

let platformResolver: Promise<SsrfResolver | null> | undefined

/** The platform resolver, loaded on first use; `null` where `node:dns/promises` does not exist. */
function loadPlatformResolver(): Promise<SsrfResolver | null> {
  // A variable specifier keeps bundlers for edge targets from trying to resolve the module.
  const specifier = 'node:dns/promises'
  platformResolver ??= import(/* @vite-ignore */ specifier).then(
    (mod: DnsModule) => async (hostname: string) =>
      (await mod.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address),
    () => null,
  )
  return platformResolver
}

/** A compiled destination policy: parses, classifies and (when possible) resolves a URL. */
type UrlChecker = (input: string | URL) => Promise<SsrfCheckResult>

function compileChecker(factory: string, options: SsrfCheckOptions | undefined): UrlChecker {
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

/**
 * Rejects requests that ask the server to fetch an internal destination (server-side request
 * forgery). The target URL comes from `extractUrl` (default: the `url` field of a JSON body).
 *
 * `400 Invalid URL` for an unparseable URL or a scheme other than http/https; `403 Forbidden URL`
 * (or `message`) for a blocked destination, including a hostname whose lookup fails. No URL found
 * → the request passes. See {@link checkUrl} for the policy and its limits.
 *
 * @param options.blockList extra IPs/CIDRs, default `[]`; invalid entries throw here.
 * @param options.allowPrivate default `false`.
 * @param options.extractUrl default: `url` of the JSON body.
 * @param options.message default `'Forbidden URL'`.
 * @param options.resolve default: platform DNS, none on edge runtimes.
 * @param options.resolveTimeout default `3000` ms; a slower lookup is a 403.
 * @example
 * ```ts
 * app.post('/webhooks', ssrfGuard(), async (c) => {
 *   const { url } = await c.req.json()
 *   // Re-check at fetch time and do not follow redirects blindly.
 *   const verdict = await checkUrl(url)
 *   if (!verdict.ok) return c.text('Forbidden URL', 403)
 *   await fetch(verdict.url, { method: 'POST', redirect: 'manual' })
 *   return c.body(null, 204)
 * })
 * ```
 */
export function ssrfGuard(options?: SsrfGuardOptions): MiddlewareHandler {
  const FACTORY = 'ssrfGuard'
  assertKnownKeys(FACTORY, options, [
    'blockList',
    'allowPrivate',
    'extractUrl',
    'message',
    'resolve',
    'resolveTimeout',
  ])
  const check = compileChecker(FACTORY, options)
  const custom =
    options?.extractUrl === undefined
      ? undefined
      : assertFunction<NonNullable<SsrfGuardOptions['extractUrl']>>(
          FACTORY,
          'extractUrl',
          options.extractUrl,
        )
  const message = assertNonEmptyString(FACTORY, 'message', options?.message ?? 'Forbidden URL')

  const description = ssrfGuardDescription
  return described(description, async function ssrfGuard(c, next) {
    const targets: unknown[] = custom ? [await custom(c)] : await urlsFromBody(c)
    for (const target of targets) {
      if (target === null || target === undefined) continue
      // A non-string would be coerced by fetch(): ['http://127.0.0.1'] becomes 'http://127.0.0.1'.
      if (typeof target !== 'string') reject(400, 'Invalid URL', 'url_invalid')
      const verdict = await check(target)
      if (!verdict.ok)
        reject(
          verdict.status,
          verdict.status === 403 ? message : 'Invalid URL',
          verdict.status === 403 ? 'url_forbidden' : 'url_invalid',
        )
    }
    await next()
  })
}

const FORM_TYPE = /^(?:application\/x-www-form-urlencoded|multipart\/form-data)\s*(?:;|$)/i

/**
 * The `url` values of the request body. JSON is tried whatever the Content-Type says, because
 * `c.req.json()` parses a `text/plain` body, or a JSON body labelled as a form, just as happily;
 * form bodies also give every `url` field.
 */
async function urlsFromBody(c: Context): Promise<unknown[]> {
  if (!mayHaveBody(c)) return []
  const urls: unknown[] = []
  if (FORM_TYPE.test(c.req.header('content-type') ?? '')) {
    const form = await readBodyForm(c)
    if (form) urls.push(...form.getAll('url'))
  }
  const text = await readBodyText(c)
  if (!text) return urls
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON: nothing here a JSON handler could fetch, and the handler's own parse rejects it.
    return urls
  }
  if (
    body !== null &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    Object.hasOwn(body, 'url')
  ) {
    urls.push((body as { url: unknown }).url)
  }
  return urls
}
