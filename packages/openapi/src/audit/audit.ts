import { resolveApp } from '../app/resolve'
import { type Description, descriptionsFor } from '../document/described-read'
import type { StoredRoute } from '../model/route'
import { planRoute } from '../rules/route-plan'
import { isRecord } from '../schema/common'

/** The rules `audit` checks, in the order findings are reported. */
export const AUDIT_RULES = [
  'auth',
  'csrf',
  'rate-limit',
  'body-limit',
  'validation',
  'responses',
  'headers',
] as const

/** One rule of {@link audit}. */
export type AuditRule = (typeof AUDIT_RULES)[number]

/** How a rule's findings count: `'error'` fails `palisade audit`, `'warn'` is reported only. */
export type AuditSeverity = 'error' | 'warn'

/**
 * A route the policy lets off some rules, with the reason (required, shown in reviews).
 *
 * @example
 * const exemption: AuditExemption = {
 *   method: 'GET',
 *   path: '/health',
 *   rules: ['rate-limit'],
 *   reason: 'liveness probe: the orchestrator polls it and must never be throttled',
 * }
 */
export interface AuditExemption {
  /** `GET`, `POST`, … (any case), or `*` for every method of the path. */
  method: string
  /** The path as registered (`/users/:id`) or as documented (`/users/{id}`). */
  path: string
  /** The rules the route is let off. */
  rules: AuditRule[]
  /** Why; a non-empty string. */
  reason: string
}

/**
 * What `audit` checks and how strictly. Every rule defaults to `'error'`.
 *
 * @example
 * const policy: AuditPolicy = {
 *   rules: { 'rate-limit': 'warn', headers: 'off' },
 *   exempt: [{ method: 'GET', path: '/health', rules: ['auth'], reason: 'public probe' }],
 * }
 */
export interface AuditPolicy {
  rules?: Partial<Record<AuditRule, AuditSeverity | 'off'>>
  exempt?: AuditExemption[]
}

/**
 * One fault of one operation.
 *
 * @example
 * const finding: AuditFinding = {
 *   method: 'POST',
 *   path: '/users',
 *   rule: 'auth',
 *   severity: 'error',
 *   message: 'no security requirement: add an auth middleware or declare `security: []`',
 * }
 */
export interface AuditFinding {
  /** Upper case. */
  method: string
  /** The path as documented (`/users/{id}`). */
  path: string
  rule: AuditRule
  severity: AuditSeverity
  message: string
}

const UNSAFE = new Set(['post', 'put', 'patch', 'delete'])
const BODY = new Set(['post', 'put', 'patch'])
const NO_CONTENT = new Set(['204', '205', '304'])

interface Operation {
  route: StoredRoute
  method: string
  template: string
  params: string[]
  descriptions: Description[]
}

function ran(op: Operation, middleware: string): boolean {
  return op.descriptions.some((d) => d.middleware === middleware)
}

function declaresBody(route: StoredRoute): boolean {
  const request = route.openapi?.request
  return request?.body !== undefined || request?.form !== undefined
}

/** The fault each rule finds on `op`, or undefined. */
const CHECKS: Record<AuditRule, (op: Operation) => string | undefined> = {
  auth(op) {
    const declared = op.route.openapi?.security
    if (declared !== undefined) return undefined // [] is public by declaration
    if (op.descriptions.some((d) => (d.security ?? []).length > 0)) return undefined
    return 'no security requirement: add an auth middleware, or declare the route public with `security: []`'
  },
  csrf(op) {
    if (!UNSAFE.has(op.method)) return undefined
    const cookie = op.descriptions.find((d) => d.cookieAuth)
    if (!cookie || ran(op, 'csrf')) return undefined
    return `a cookie authenticates this unsafe request (${cookie.middleware ?? 'a middleware'}) and csrf does not run`
  },
  'rate-limit'(op) {
    return ran(op, 'rateLimit') ? undefined : 'rateLimit does not run'
  },
  'body-limit'(op) {
    if (!BODY.has(op.method) && !declaresBody(op.route)) return undefined
    return ran(op, 'bodyLimit') ? undefined : 'takes a body and bodyLimit does not run'
  },
  validation(op) {
    const request = op.route.openapi?.request
    const problems: string[] = []
    if (op.params.length > 0 && request?.params === undefined)
      problems.push(`path parameters ${op.params.join(', ')} have no \`request.params\` schema`)
    if (BODY.has(op.method) && !declaresBody(op.route))
      problems.push('takes a body that no `request.body` or `request.form` schema declares')
    if (op.route.validate === false && request !== undefined && Object.keys(request).length > 0)
      problems.push('declares request schemas but turns validation off (`validate: false`)')
    return problems.length > 0 ? problems.join('; ') : undefined
  },
  responses(op) {
    const responses = op.route.openapi?.responses ?? {}
    const ok = Object.entries(responses).some(
      ([status, r]) =>
        /^2\d\d$/.test(status) &&
        (NO_CONTENT.has(status) || (isRecord(r) && r.schema !== undefined)),
    )
    return ok ? undefined : 'no success (2xx) response declares a schema'
  },
  headers(op) {
    return ran(op, 'securityHeaders') ? undefined : 'securityHeaders does not run'
  },
}

const SEVERITIES = new Set(['error', 'warn', 'off'])

function checkPolicy(policy: AuditPolicy | undefined): Required<AuditPolicy> {
  if (policy === undefined) return { rules: {}, exempt: [] }
  if (!isRecord(policy)) throw new TypeError('audit: policy must be an object')
  const known = new Set<string>(AUDIT_RULES)
  for (const key of Object.keys(policy)) {
    if (key !== 'rules' && key !== 'exempt')
      throw new TypeError(`audit: unknown policy key "${key}" (rules, exempt)`)
  }
  const rules = policy.rules ?? {}
  if (!isRecord(rules)) throw new TypeError('audit: policy.rules must be an object by rule name')
  for (const [name, level] of Object.entries(rules)) {
    if (!known.has(name))
      throw new TypeError(`audit: unknown rule "${name}" (${AUDIT_RULES.join(', ')})`)
    if (!SEVERITIES.has(level as string))
      throw new TypeError(`audit: policy.rules.${name} must be 'error', 'warn' or 'off'`)
  }
  const exempt = policy.exempt ?? []
  if (!Array.isArray(exempt)) throw new TypeError('audit: policy.exempt must be an array')
  exempt.forEach((e: unknown, i) => {
    const at = `audit: policy.exempt[${i}]`
    if (!isRecord(e)) throw new TypeError(`${at} must be { method, path, rules, reason }`)
    if (typeof e.method !== 'string' || e.method === '')
      throw new TypeError(`${at}.method must be an HTTP method or '*'`)
    if (typeof e.path !== 'string' || !e.path.startsWith('/'))
      throw new TypeError(`${at}.path must be a path starting with /`)
    if (!Array.isArray(e.rules) || e.rules.length === 0 || !e.rules.every((r) => known.has(r)))
      throw new TypeError(`${at}.rules must list rules from ${AUDIT_RULES.join(', ')}`)
    if (typeof e.reason !== 'string' || e.reason.trim() === '')
      throw new TypeError(`${at}.reason is required: say why the route is exempt`)
  })
  return { rules, exempt }
}

/** `/users/:id{[0-9]+}` and `/users/{id}` name the same documented path. */
function samePath(exempted: string, template: string, registered: string): boolean {
  return exempted === template || exempted === registered
}

/**
 * Checks every documented operation of an app against a security and contract policy, from what
 * the routes declare and what their middleware describe about themselves. No request is sent.
 *
 * Rules (each `'error'` unless `policy.rules` says otherwise):
 * - `auth`: the operation has a security requirement, or is declared public (`security: []`);
 * - `csrf`: an unsafe operation that a cookie can authenticate (sessions, jwtAuth's `cookie`)
 *   runs csrf;
 * - `rate-limit`: rateLimit runs;
 * - `body-limit`: an operation that takes a body (POST, PUT, PATCH, or a declared body) runs
 *   bodyLimit;
 * - `validation`: path parameters are typed by `request.params`, a body method declares its
 *   body, and declared schemas are not switched off with `validate: false`;
 * - `responses`: a 2xx response declares a schema (204, 205 and 304 need none);
 * - `headers`: securityHeaders runs.
 *
 * Only middleware the wrapper records count: `api.use()` and group `use()` registered before the
 * route, and the route's own `middlewares` (not `api.app.use()`).
 *
 * @param app - the `OpenAPIApp` from `openapi()`, or the Hono app it wraps
 * @param policy - `rules` by name (`'error'`, `'warn'`, `'off'`) and `exempt` entries, each with
 *   a `reason`
 * @returns the findings, by route registration order, then rule order; `[]` when all pass
 * @example
 * ```ts
 * import { audit } from '@palisade/openapi/audit'
 *
 * const findings = audit(api, {
 *   exempt: [{ method: 'GET', path: '/health', rules: ['rate-limit'], reason: 'probe' }],
 * })
 * if (findings.some((f) => f.severity === 'error')) process.exitCode = 1
 * ```
 */
export function audit(app: unknown, policy?: AuditPolicy): AuditFinding[] {
  const api = resolveApp(app, 'audit')
  const { rules, exempt } = checkPolicy(policy)
  const findings: AuditFinding[] = []
  const seen = new Set<string>()
  for (const route of api.routes) {
    for (const planned of planRoute(route)) {
      const method = planned.method
      const template = planned.variant.template
      // A method and path registered twice: Hono runs the first route's chain, so that one counts.
      const key = `${method} ${template}`
      if (seen.has(key)) continue
      seen.add(key)
      const op: Operation = {
        route,
        method,
        template,
        params: planned.variant.params.map((p) => p.name),
        descriptions: descriptionsFor(route, method),
      }
      const upper = method.toUpperCase()
      const waived = new Set(
        exempt
          .filter(
            (e) =>
              (e.method === '*' || e.method.toUpperCase() === upper) &&
              samePath(e.path, template, route.path),
          )
          .flatMap((e) => e.rules),
      )
      for (const rule of AUDIT_RULES) {
        const level = rules[rule] ?? 'error'
        if (level === 'off' || waived.has(rule)) continue
        const message = CHECKS[rule](op)
        if (message !== undefined)
          findings.push({ method: upper, path: template, rule, severity: level, message })
      }
    }
  }
  return findings
}
