import type { MiddlewareHandler } from 'hono'
import { headerPairs, setResponseHeaderPairs } from '../internal/http/header-pairs'
import { editResponseHeaders } from '../internal/http/headers'
import { assertKnownKeys, assertOneOf, formatValue, optionError } from '../internal/options'
import { described } from '../internal/outcomes/described'
import { compileCsp, cspNonce } from './csp'
import { securityHeadersDescription } from './description'
import {
  flag,
  headerValue,
  NAME,
  oneOrOff,
  type ReferrerPolicyValue,
  referrerPolicy,
} from './option-values'

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
  /** `Cross-Origin-Embedder-Policy`. Off by default. */
  crossOriginEmbedderPolicy?: 'require-corp' | 'credentialless' | 'unsafe-none' | false
  /** `Origin-Agent-Cluster: ?1` (ask for an origin-keyed agent cluster). Off by default. */
  originAgentCluster?: boolean
  /** `X-DNS-Prefetch-Control`. Off by default. */
  xDnsPrefetchControl?: 'off' | 'on' | false
  /** `X-Permitted-Cross-Domain-Policies`. Off by default. */
  xPermittedCrossDomainPolicies?: 'none' | 'master-only' | 'by-content-type' | 'all' | false
  /**
   * Turns on the full set with helmet's values: `Cross-Origin-Opener-Policy: same-origin`,
   * `Cross-Origin-Resource-Policy: same-origin`, `Cross-Origin-Embedder-Policy: require-corp`,
   * `Referrer-Policy: no-referrer`, `Origin-Agent-Cluster: ?1`, `X-DNS-Prefetch-Control: off`,
   * `X-Permitted-Cross-Domain-Policies: none`, and a `Permissions-Policy` that switches off
   * powerful features (helmet sends none). Each can still be set or turned off on its own.
   * @default false
   */
  full?: boolean
  /**
   * A fresh nonce per request: `'nonce-…'` is added to the CSP's `script-src` and `style-src`
   * (created from `default-src` when missing) and the nonce is in `c.get('cspNonce')` for
   * `<script nonce="…">`. @default false
   */
  nonce?: boolean
  /**
   * `Content-Security-Policy-Report-Only`. `true`: send `contentSecurityPolicy` as report-only
   * instead of enforcing it. A string: send that policy as report-only next to the enforced one
   * (to try a stricter policy first). @default false
   */
  contentSecurityPolicyReportOnly?: string | boolean
}

const COOP = [
  'same-origin',
  'same-origin-allow-popups',
  'noopener-allow-popups',
  'unsafe-none',
] as const
const CORP = ['same-origin', 'same-site', 'cross-origin'] as const
const COEP = ['require-corp', 'credentialless', 'unsafe-none'] as const
const DNS_PREFETCH = ['off', 'on'] as const
const CROSS_DOMAIN = ['none', 'master-only', 'by-content-type', 'all'] as const
/** Opt-in headers whose value is one token from a fixed list. */
const TOKEN_HEADERS: [string, keyof SecurityHeadersOptions, readonly string[]][] = [
  ['cross-origin-opener-policy', 'crossOriginOpenerPolicy', COOP],
  ['cross-origin-resource-policy', 'crossOriginResourcePolicy', CORP],
  ['cross-origin-embedder-policy', 'crossOriginEmbedderPolicy', COEP],
  ['x-dns-prefetch-control', 'xDnsPrefetchControl', DNS_PREFETCH],
  ['x-permitted-cross-domain-policies', 'xPermittedCrossDomainPolicies', CROSS_DOMAIN],
]
/** The `full` set: helmet's values, plus our Permissions-Policy (helmet sends none). */
const FULL = {
  crossOriginOpenerPolicy: 'same-origin',
  crossOriginResourcePolicy: 'same-origin',
  crossOriginEmbedderPolicy: 'require-corp',
  referrerPolicy: 'no-referrer',
  originAgentCluster: true,
  xDnsPrefetchControl: 'off',
  xPermittedCrossDomainPolicies: 'none',
  permissionsPolicy:
    'accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), ' +
    'magnetometer=(), microphone=(), payment=(), usb=()',
} as const satisfies SecurityHeadersOptions
const KNOWN = [
  'contentSecurityPolicy',
  'xContentTypeOptions',
  'xFrameOptions',
  'strictTransportSecurity',
  'referrerPolicy',
  'crossOriginOpenerPolicy',
  'crossOriginResourcePolicy',
  'permissionsPolicy',
  'crossOriginEmbedderPolicy',
  'originAgentCluster',
  'xDnsPrefetchControl',
  'xPermittedCrossDomainPolicies',
  'full',
  'nonce',
  'contentSecurityPolicyReportOnly',
] as const

/**
 * Adds security headers to every response: by default `X-Content-Type-Options: nosniff`,
 * `X-Frame-Options: DENY`, `Strict-Transport-Security: max-age=63072000; includeSubDomains` and
 * `Content-Security-Policy: default-src 'self'`. A header the handler already set is kept, so a
 * page can ship its own CSP. The rest is opt-in: one header at a time, or `full: true` for
 * helmet's full set (COOP, CORP, COEP, Referrer-Policy, Permissions-Policy, Origin-Agent-Cluster,
 * X-DNS-Prefetch-Control, X-Permitted-Cross-Domain-Policies). `nonce: true` puts a fresh nonce in
 * the CSP of every response and in `c.get('cspNonce')`; `contentSecurityPolicyReportOnly` sends a
 * policy as `Content-Security-Policy-Report-Only`.
 *
 * @param options.contentSecurityPolicy default `default-src 'self'`; `false` disables
 * @param options.xContentTypeOptions default `true`
 * @param options.xFrameOptions default `'DENY'`
 * @param options.strictTransportSecurity default `max-age=63072000; includeSubDomains`
 * @param options.full default `false`; `true` adds the full set with helmet's values
 * @param options.nonce default `false`
 * @param options.contentSecurityPolicyReportOnly default `false`
 * @param options.referrerPolicy off by default (`'no-referrer'` with `full`)
 * @param options.crossOriginOpenerPolicy off by default (`'same-origin'` with `full`)
 * @param options.crossOriginResourcePolicy off by default (`'same-origin'` with `full`)
 * @param options.crossOriginEmbedderPolicy off by default (`'require-corp'` with `full`)
 * @param options.permissionsPolicy off by default (powerful features off with `full`)
 * @param options.originAgentCluster off by default (`?1` with `full`)
 * @param options.xDnsPrefetchControl off by default (`'off'` with `full`)
 * @param options.xPermittedCrossDomainPolicies off by default (`'none'` with `full`)
 * @example
 * ```ts
 * app.use('*', securityHeaders({ full: true, nonce: true }))
 * app.get('/', (c) => c.html(`<script nonce="${c.get('cspNonce')}">boot()</script>`))
 * ```
 */
export function securityHeaders(options?: SecurityHeadersOptions): MiddlewareHandler {
  assertKnownKeys(NAME, options, KNOWN)
  const given = options ?? {}
  const full = flag('full', given.full)
  // The full set fills in what the caller left unset; an explicit value, `false` included, wins.
  const o: SecurityHeadersOptions = full ? withFull(given) : given
  const list: [string, string][] = []
  const add = (header: string, value: string | false) => {
    if (value !== false) list.push([header, value])
  }

  const policy = headerValue('contentSecurityPolicy', o.contentSecurityPolicy, "default-src 'self'")
  const reportOnly = o.contentSecurityPolicyReportOnly ?? false
  const useNonce = flag('nonce', o.nonce)
  let enforced: string | false = policy
  let reported: string | false = false
  if (reportOnly === true) {
    if (policy === false) {
      throw optionError(
        NAME,
        '"contentSecurityPolicyReportOnly: true" needs a contentSecurityPolicy',
      )
    }
    ;[enforced, reported] = [false, policy]
  } else if (reportOnly !== false) {
    reported = headerValue('contentSecurityPolicyReportOnly', reportOnly, false)
  }
  if (useNonce && enforced === false && reported === false) {
    throw optionError(NAME, '"nonce" needs a Content-Security-Policy to put the nonce in')
  }
  // Nonce-bearing policies are rendered per request; the rest of the list is fixed.
  const csp: [string, ReturnType<typeof compileCsp>][] = []
  if (enforced !== false) csp.push(['content-security-policy', compileCsp(enforced, useNonce)])
  if (reported !== false) {
    csp.push(['content-security-policy-report-only', compileCsp(reported, useNonce)])
  }
  if (o.xContentTypeOptions !== undefined && typeof o.xContentTypeOptions !== 'boolean') {
    throw optionError(
      NAME,
      `"xContentTypeOptions" must be a boolean, got ${formatValue(o.xContentTypeOptions)}`,
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
  for (const [header, name, allowed] of TOKEN_HEADERS) add(header, oneOrOff(name, o[name], allowed))
  add('permissions-policy', headerValue('permissionsPolicy', o.permissionsPolicy, false))
  add('origin-agent-cluster', flag('originAgentCluster', o.originAgentCluster) ? '?1' : false)
  const fixedCsp: [string, string][] = useNonce ? [] : csp.map(([name, c]) => [name, c.render()])
  // Set in one pass after the handler, each only where the handler set none (`keep`).
  const fixed = headerPairs([...fixedCsp, ...list])

  if (!useNonce) {
    // Not async: the chain's promise with the headers chained on saves an async frame per request.
    return described(securityHeadersDescription, function securityHeaders(c, next) {
      return next().then(() => setResponseHeaderPairs(c, fixed, true))
    })
  }
  return described(securityHeadersDescription, async function securityHeaders(c, next) {
    const nonce = cspNonce()
    c.set('cspNonce', nonce)
    await next()
    editResponseHeaders(c, (headers) => {
      for (const [name, policy] of csp) {
        if (!headers.has(name)) headers.set(name, policy.render(nonce))
      }
    })
    setResponseHeaderPairs(c, fixed, true)
  })
}

function withFull(given: SecurityHeadersOptions): SecurityHeadersOptions {
  const merged: Record<string, unknown> = { ...FULL }
  for (const [key, value] of Object.entries(given)) if (value !== undefined) merged[key] = value
  return merged as SecurityHeadersOptions
}
