import type { Context, MiddlewareHandler } from 'hono'
import { getClientIPParsed } from '../internal/network/client-ip'
import { type CIDR, IPMatcher, parseCIDR, parseIP } from '../internal/network/ip'
import {
  assertBoolean,
  assertFunction,
  assertKnownKeys,
  assertNonEmptyString,
  assertOneOf,
  assertStringArray,
  optionError,
} from '../internal/options'
import { begin, decide } from '../internal/outcomes/decisions'
import { described } from '../internal/outcomes/described'
import { type IpGuardRejects, rejectOrRecord } from './answers'
import { ipGuardDescription } from './description'

const FACTORY = 'ipGuard'

/**
 * Options of {@link ipGuard}.
 *
 * @example
 * const options: IpGuardOptions = { mode: 'allow', list: ['10.0.0.0/8', '2001:db8::/32'] }
 * app.use('/admin/*', ipGuard(options))
 */
export interface IpGuardOptions {
  /**
   * `'allow'`: only addresses in `list` pass. `'deny'`: addresses in `list` are rejected.
   * @default 'deny'
   */
  mode?: 'allow' | 'deny'
  /**
   * IPv4/IPv6 addresses and CIDR ranges (`'10.0.0.0/8'`, `'2001:db8::/32'`, `'::ffff:10.0.0.0/104'`).
   * Validated when the factory is called; host bits are masked (`10.1.2.3/8` is `10.0.0.0/8`).
   */
  list: readonly string[]
  /**
   * Derives the client address. Defaults to the connection address the runtime exposes and, only
   * when there is none, the right-most `X-Forwarded-For` entry.
   */
  keyGenerator?: (c: Context) => string | null | undefined | Promise<string | null | undefined>
  /**
   * Body of the 403 response.
   * @default 'Access denied'
   */
  message?: string
  /**
   * Report instead of refuse: a request that would be rejected passes, and its decision is
   * `dry-run` with the code it would have got. Default `false`.
   */
  dryRun?: boolean
}

/**
 * Allows or denies requests by client IP address against a list of IPs and CIDR ranges.
 *
 * The list is compiled once into sorted, merged ranges, so a lookup is a binary search whose cost
 * barely changes between 10 and 10,000 entries. An IPv4-mapped client (`::ffff:10.0.0.1`) is
 * matched as the IPv4 address; a native IPv6 client never matches an IPv4 rule. A client whose
 * address is missing or unparseable is rejected in both modes (fail closed). Rejections are
 * `403 Access denied` (or `message`).
 *
 * @param options.mode `'deny'` by default.
 * @param options.list required; an invalid entry throws a `TypeError` here, not on a request.
 * @param options.keyGenerator defaults to the shared client-IP rule.
 * @param options.message `'Access denied'` by default.
 * @example
 * ```ts
 * app.use('/admin/*', ipGuard({ mode: 'allow', list: ['10.0.0.0/8', '2001:db8::/32'] }))
 * app.use('*', ipGuard({ list: ['203.0.113.7', '198.51.100.0/24'] }))
 * ```
 */
export function ipGuard(options: IpGuardOptions): MiddlewareHandler & IpGuardRejects {
  if (options === undefined || options === null) {
    throw optionError(FACTORY, '"list" is required')
  }
  assertKnownKeys(FACTORY, options, ['mode', 'list', 'keyGenerator', 'message', 'dryRun'])
  const mode = assertOneOf(FACTORY, 'mode', options.mode ?? 'deny', ['allow', 'deny'] as const)
  if (options.list === undefined) throw optionError(FACTORY, '"list" is required')
  const list = assertStringArray(FACTORY, 'list', options.list)
  if (mode === 'allow' && list.length === 0) {
    throw optionError(FACTORY, '"list" must not be empty in allow mode (it would reject everyone)')
  }
  const keyGenerator =
    options.keyGenerator === undefined
      ? undefined
      : assertFunction<NonNullable<IpGuardOptions['keyGenerator']>>(
          FACTORY,
          'keyGenerator',
          options.keyGenerator,
        )
  const message = assertNonEmptyString(FACTORY, 'message', options.message ?? 'Access denied')
  const dryRun = assertBoolean(FACTORY, 'dryRun', options.dryRun ?? false)

  const ranges: CIDR[] = list.map((entry) => {
    const range = parseCIDR(entry)
    if (range === null) throw optionError(FACTORY, `invalid IP or CIDR ${JSON.stringify(entry)}`)
    return range
  })
  const matcher = new IPMatcher(ranges)
  const allowListed = mode === 'allow'

  const description = ipGuardDescription
  return described(description, async function ipGuard(c, next) {
    const d = begin(c, FACTORY)
    let ip: ReturnType<typeof parseIP>
    if (keyGenerator) {
      const raw = await keyGenerator(c)
      ip = typeof raw === 'string' ? parseIP(raw) : null
    } else {
      ip = getClientIPParsed(c)
    }
    // Fail closed: without a usable address neither mode can decide, so nobody passes.
    if (ip === null || matcher.has(ip) !== allowListed)
      rejectOrRecord(d, dryRun, 403, message, 'ip_denied')
    decide(d, 'allow')
    await next()
  })
}
