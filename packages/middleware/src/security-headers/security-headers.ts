import type { MiddlewareHandler } from 'hono'
import { editResponseHeaders, HEADER_VALUE } from '../internal/headers'
import { assertKnownKeys, assertOneOf, describe, optionError } from '../internal/options'

/**
 * Options of {@link securityHeaders}. Every header can be turned off with `false`.
 *
 * @example
 * const options: SecurityHeadersOptions = {
 *   referrerPolicy: 'no-referrer',
 *   xFrameOptions: 'SAMEORIGIN',
 * }
 * app.use(securityHeaders(options))
 */
export interface SecurityHeadersOptions {
  /** `Content-Security-Policy`. Default `default-src 'self'`. */
  contentSecurityPolicy?: string | false
  /** `X-Content-Type-Options: nosniff`. Default `true`. */
  xContentTypeOptions?: boolean
  /** `X-Frame-Options`. Default `'DENY'`. */
  xFrameOptions?: 'DENY' | 'SAMEORIGIN' | false
  /** `Strict-Transport-Security`. Default `max-age=63072000; includeSubDomains`. */
  strictTransportSecurity?: string | false
  /** `Referrer-Policy`, e.g. `'no-referrer'`, or a list (later entries are fallbacks). Off by default. */
  referrerPolicy?: ReferrerPolicyValue | ReferrerPolicyValue[] | false
  /** `Cross-Origin-Opener-Policy`. Off by default. */
  crossOriginOpenerPolicy?:
    | 'same-origin'
    | 'same-origin-allow-popups'
    | 'noopener-allow-popups'
    | 'unsafe-none'
    | false
  /** `Cross-Origin-Resource-Policy`. Off by default. */
  crossOriginResourcePolicy?: 'same-origin' | 'same-site' | 'cross-origin' | false
  /** `Permissions-Policy`, e.g. `'camera=(), geolocation=()'`. Off by default. */
  permissionsPolicy?: string | false
}

/**
 * A `Referrer-Policy` token (RFC-listed values only).
 *
 * @example
 * const referrerPolicy: ReferrerPolicyValue[] = ['no-referrer', 'strict-origin-when-cross-origin']
 * app.use(securityHeaders({ referrerPolicy }))
 */
export type ReferrerPolicyValue =
  | 'no-referrer'
  | 'no-referrer-when-downgrade'
  | 'origin'
  | 'origin-when-cross-origin'
  | 'same-origin'
  | 'strict-origin'
  | 'strict-origin-when-cross-origin'
  | 'unsafe-url'

const NAME = 'securityHeaders'
const REFERRER: readonly ReferrerPolicyValue[] = [
  'no-referrer',
  'no-referrer-when-downgrade',
  'origin',
  'origin-when-cross-origin',
  'same-origin',
  'strict-origin',
  'strict-origin-when-cross-origin',
  'unsafe-url',
]
const COOP = [
  'same-origin',
  'same-origin-allow-popups',
  'noopener-allow-popups',
  'unsafe-none',
] as const
const CORP = ['same-origin', 'same-site', 'cross-origin'] as const
const KNOWN = [
  'contentSecurityPolicy',
  'xContentTypeOptions',
  'xFrameOptions',
  'strictTransportSecurity',
  'referrerPolicy',
  'crossOriginOpenerPolicy',
  'crossOriginResourcePolicy',
  'permissionsPolicy',
] as const

/**
 * Adds security headers to every response: by default `X-Content-Type-Options: nosniff`,
 * `X-Frame-Options: DENY`, `Strict-Transport-Security: max-age=63072000; includeSubDomains` and
 * `Content-Security-Policy: default-src 'self'`. A header the handler already set is kept, so a
 * page can ship its own CSP. Referrer-Policy, COOP, CORP and Permissions-Policy are opt-in.
 *
 * @param options.contentSecurityPolicy default `default-src 'self'`; `false` disables
 * @param options.xContentTypeOptions default `true`
 * @param options.xFrameOptions default `'DENY'`
 * @param options.strictTransportSecurity default `max-age=63072000; includeSubDomains`
 * @param options.referrerPolicy off by default
 * @param options.crossOriginOpenerPolicy off by default
 * @param options.crossOriginResourcePolicy off by default
 * @param options.permissionsPolicy off by default
 * @example
 * ```ts
 * app.use('*', securityHeaders({ contentSecurityPolicy: "default-src 'self'; img-src *", referrerPolicy: 'no-referrer' }))
 * ```
 */
export function securityHeaders(options?: SecurityHeadersOptions): MiddlewareHandler {
  assertKnownKeys(NAME, options, KNOWN)
  const o = options ?? {}
  const list: [string, string][] = []
  const add = (header: string, value: string | false) => {
    if (value !== false) list.push([header, value])
  }

  add(
    'content-security-policy',
    headerValue('contentSecurityPolicy', o.contentSecurityPolicy, "default-src 'self'"),
  )
  if (o.xContentTypeOptions !== undefined && typeof o.xContentTypeOptions !== 'boolean') {
    throw optionError(
      NAME,
      `"xContentTypeOptions" must be a boolean, got ${describe(o.xContentTypeOptions)}`,
    )
  }
  add('x-content-type-options', o.xContentTypeOptions === false ? false : 'nosniff')
  add(
    'x-frame-options',
    o.xFrameOptions === false
      ? false
      : assertOneOf(NAME, 'xFrameOptions', o.xFrameOptions ?? 'DENY', ['DENY', 'SAMEORIGIN']),
  )
  add(
    'strict-transport-security',
    headerValue(
      'strictTransportSecurity',
      o.strictTransportSecurity,
      'max-age=63072000; includeSubDomains',
    ),
  )
  add('referrer-policy', referrerPolicy(o.referrerPolicy))
  add(
    'cross-origin-opener-policy',
    oneOrOff('crossOriginOpenerPolicy', o.crossOriginOpenerPolicy, COOP),
  )
  add(
    'cross-origin-resource-policy',
    oneOrOff('crossOriginResourcePolicy', o.crossOriginResourcePolicy, CORP),
  )
  add('permissions-policy', headerValue('permissionsPolicy', o.permissionsPolicy, false))

  return async function securityHeaders(c, next) {
    await next()
    editResponseHeaders(c, (headers) => {
      for (const [name, value] of list) {
        if (!headers.has(name)) headers.set(name, value)
      }
    })
  }
}

function headerValue(name: string, value: unknown, fallback: string | false): string | false {
  if (value === undefined) return fallback
  if (value === false) return false
  if (typeof value !== 'string' || value.trim() === '') {
    throw optionError(NAME, `"${name}" must be a non-empty string or false, got ${describe(value)}`)
  }
  if (!HEADER_VALUE.test(value)) {
    throw optionError(NAME, `"${name}" must not contain control characters such as CR or LF`)
  }
  return value
}

function oneOrOff<T extends string>(
  name: string,
  value: unknown,
  allowed: readonly T[],
): T | false {
  if (value === undefined || value === false) return false
  return assertOneOf(NAME, name, value, allowed)
}

function referrerPolicy(value: unknown): string | false {
  if (value === undefined || value === false) return false
  // The header may list fallbacks ("no-referrer, strict-origin-when-cross-origin").
  const parts = typeof value === 'string' ? value.split(',').map((p) => p.trim()) : value
  if (
    !Array.isArray(parts) ||
    parts.length === 0 ||
    parts.some((p) => !REFERRER.includes(p as ReferrerPolicyValue))
  ) {
    throw optionError(
      NAME,
      `"referrerPolicy" must be one of ${REFERRER.map((r) => `'${r}'`).join(', ')}, got ${describe(value)}`,
    )
  }
  return parts.join(', ')
}
