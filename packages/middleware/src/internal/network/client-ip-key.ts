import type { Context } from 'hono'
import { assertFunction, formatValue, optionError } from '../options'
import { getClientIP } from './client-ip'
import { formatIPv4, formatIPv6, ipv6Network, parseIP } from './ip'

/**
 * The default rate-limit key: the client address from the shared client-IP rule (the runtime's
 * connection address; `X-Forwarded-For` only when the runtime exposes none, and then its
 * right-most entry). IPv4-mapped IPv6 counts as IPv4. IPv6 clients are keyed by their
 * `/ipv6Subnet` network (default /56: providers hand a customer a /56 or a /48, so anything
 * narrower lets one customer rotate through 256 or more buckets), written as RFC 5952 text with
 * its prefix length, e.g. `2001:db8:1200::/56`; `false` keys by the full address. Requests
 * without a usable address share the single key `unknown`: they are limited together, never
 * exempted.
 *
 * @param ipv6Subnet - prefix length 32–128, or `false`. Default `56`.
 * @example
 * // Separate buckets per route on one shared store: prefix the default key.
 * const store = new MemoryRateLimitStore()
 * app.post('/login', rateLimit({ max: 5, store, keyGenerator: (c) => `login:${clientIpKey(c)}` }))
 * app.use('/api/*', rateLimit({ max: 100, store, keyGenerator: (c) => `api:${clientIpKey(c, 48)}` }))
 */
export function clientIpKey(c: Context, ipv6Subnet: number | false = 56): string {
  const raw = getClientIP(c)
  if (!raw) return 'unknown'
  // The key is a function of the address text and the subnet alone: a client sending requests in
  // a row (a keep-alive connection) is parsed and formatted once.
  if (raw === last.raw && ipv6Subnet === last.subnet) return last.key
  const ip = parseIP(raw)
  const key =
    ip === null
      ? 'unknown'
      : ip.version === 4
        ? formatIPv4(ip.value)
        : ipv6Subnet === false
          ? formatIPv6(ip.value)
          : `${formatIPv6(ipv6Network(ip.value, ipv6Subnet))}/${ipv6Subnet}`
  last = { raw, subnet: ipv6Subnet, key }
  return key
}

/** The last address clientIpKey keyed, with its subnet and key. */
let last: { raw: string; subnet: number | false; key: string } = {
  raw: '',
  subnet: false,
  key: 'unknown',
}

/** Whether `value` is a valid `ipv6Subnet`: an integer prefix length 32–128, or `false`. */
export function isIPv6Subnet(value: unknown): value is number | false {
  return (
    value === false ||
    (Number.isInteger(value) && (value as number) >= 32 && (value as number) <= 128)
  )
}

/**
 * The key option of a per-client limit (rateLimit's `keyGenerator`, concurrencyLimit's `key`)
 * and its `ipv6Subnet`, checked: the user's function, or the client IP grouped by `ipv6Subnet`
 * (default /56). `ipv6Subnet` beside a key function is refused, since it would do nothing.
 */
export function keyOption(
  factory: string,
  name: string,
  key: unknown,
  subnet: unknown,
): (c: Context) => string | Promise<string> {
  const ipv6Subnet = subnet === undefined ? 56 : subnet
  if (!isIPv6Subnet(ipv6Subnet)) {
    throw optionError(
      factory,
      `"ipv6Subnet" must be an integer from 32 to 128 or false, got ${formatValue(ipv6Subnet)}`,
    )
  }
  if (key === undefined) return (c) => clientIpKey(c, ipv6Subnet)
  const fn = assertFunction<(c: Context) => string | Promise<string>>(factory, name, key)
  if (subnet !== undefined) {
    throw optionError(
      factory,
      `"ipv6Subnet" applies to the default key only; with a ${name}, call clientIpKey(c, subnet) in it`,
    )
  }
  return fn
}
