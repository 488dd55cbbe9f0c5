import { requireInternals } from '../app/hono-internals'
import { resolveApp } from '../app/resolve'
import type { Description } from '../document/described-read'
import type { StoredRoute } from '../model/route'
import { deprecationOf, planDeprecation } from '../rules/deprecation'
import { isRecord } from '../schema/common'
import { descriptionsFor, type Operation, operationsOf, partialFor } from './operations'

/** The rules `audit` checks, in the order findings are reported. */
export const AUDIT_RULES = [
  'undocumented',
  'auth',
  'webhook-signature',
  'csrf',
  'rate-limit',
  'body-limit',
  'validation',
  'responses',
  'headers',
  'shield',
  'sunset',
] as const

/** How long before a sunset `audit` warns of it. */
export const SUNSET_WARNING_DAYS = 30
const DAY_MS = 86_400_000

/** Rules that are off unless the policy turns them on. */
const OFF_BY_DEFAULT: ReadonlySet<AuditRule> = new Set(['shield'])

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
  /** `GET`, `POST`, … (any case), or `*` (also `ALL`) for every method of the path. */
  method: string
  /**
   * The path as registered (`/users/:id`, `/assets/*`) or as documented (`/users/{id}`), whole:
   * `/a` exempts `/a` only, never `/a/b`.
   */
  path: string
  /** The rules the route is let off. */
  rules: AuditRule[]
  /** Why; a non-empty string. */
  reason: string
}

/**
 * What `audit` checks and how strictly. Every rule defaults to `'error'`, except `shield`
 * (`'off'`).
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
 *   route: '/users',
 *   rule: 'auth',
 *   severity: 'error',
 *   message: 'no security requirement: add an auth middleware or declare `security: []`',
 * }
 */
export interface AuditFinding {
  /** Upper case; `ALL` for a route registered past the wrapper for every method (a mount). */
  method: string
  /** The path as documented (`/users/{id}`), or as registered when the document lacks it. */
  path: string
  /**
   * The route's path as registered in Hono, base path included (`/users/:id{[0-9]+}`): two
   * routes on one documented path are told apart by it.
   */
  route: string
  rule: AuditRule
  severity: AuditSeverity
  message: string
}

/**
 * Options of {@link audit} besides the policy.
 *
 * @example
 * const options: AuditOptions = { now: () => Date.parse('2027-11-15T00:00:00Z') }
 * audit(api, {}, options)
 */
export interface AuditOptions {
  /** The clock the `sunset` rule reads, in milliseconds since the epoch. Default `Date.now`. */
  now?: () => number
}

/** Methods that change nothing (RFC 9110 §9.2.1): everything else can be forged cross-site. */
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE'])
/** Methods that take a body only when the route declares one. */
const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'DELETE'])
/** 2xx statuses whose answers carry no body, so they need no schema. */
const NO_CONTENT = new Set(['204', '205'])
/** The security scheme csrf describes: a token proving the page, not the user. */
const CSRF = 'csrf'

/** What a rule is given: the operation and what runs for it, for one method (upper case). */
interface Check {
  op: Operation
  method: string
  /** What the middleware that run describe for `method`. */
  descriptions: Description[]
}

function ran(check: Check, middleware: string): boolean {
  return check.descriptions.some((d) => d.middleware === middleware)
}

function declaresBody(route: StoredRoute | undefined): boolean {
  const request = route?.openapi?.request
  return request?.body !== undefined || request?.form !== undefined
}

/** `; jwtAuth at /files/:id{[0-9]+} runs for only part of this route's paths`, or ''. */
function partly(check: Check, pick: (d: Description) => boolean): string {
  const partial = partialFor(check.op, check.method).filter(
    (e) => e.description !== undefined && pick(e.description),
  )
  return partial
    .map(
      (e) =>
        // Stryker disable next-line OptionalChaining: partialFor keeps only entries with a description
        `; ${e.description?.middleware ?? 'a middleware'} at ${e.pattern} runs for only part of this route's paths`,
    )
    .join('')
}

/** `name` does not run (and where it runs for part of the paths, says so). */
function missing(check: Check, name: string): string | undefined {
  if (ran(check, name)) return undefined
  return `${name} does not run${partly(check, (d) => d.middleware === name)}`
}

/** The middleware that verify who sent a request: a webhook's or an HTTP message signature. */
const SIGNATURE_CHECKS = new Set(['webhook', 'httpSignature'])
/** A description of a signature check. */
const verifiesSignature = (d: Description) =>
  // Stryker disable next-line StringLiteral: any name but the two in SIGNATURE_CHECKS does as ''
  SIGNATURE_CHECKS.has(d.middleware ?? '')
/** A path segment naming webhooks: `/webhooks/billing`, `/stripe/webhook`, `/api/webhooks`. */
const WEBHOOK_SEGMENT = /\/webhooks?(?:\/|$)/i

/**
 * Whether the route receives webhooks: declared with `openapi.webhookReceiver` (which wins), else
 * an unsafe method on a path with a `webhook` or `webhooks` segment.
 */
function receivesWebhooks(check: Check): boolean {
  const declared = check.op.documented?.openapi?.webhookReceiver
  if (declared !== undefined) return declared
  return !SAFE.has(check.method) && WEBHOOK_SEGMENT.test(check.op.route)
}

function webhookSignature(check: Check): string | undefined {
  if (!receivesWebhooks(check)) return undefined
  if (check.descriptions.some(verifiesSignature)) return undefined
  const declared = check.op.documented?.openapi?.webhookReceiver === true
  return `${declared ? 'declared a webhook receiver' : 'receives webhooks (a webhook path segment)'} and no signature check runs: add webhook() (or httpSignature()) of @palisade/middleware${
    declared ? '' : ', or declare `openapi: { webhookReceiver: false }` if it is not one'
  }${partly(check, verifiesSignature)}`
}

/** A description that authenticates: a security requirement, and not csrf's token. */
const authenticates = (d: Description) => d.middleware !== CSRF && (d.security ?? []).length > 0

/** `apiKeyHeader2` is a numbered form of `apiKeyHeader` (the document numbers clashing names). */
const schemeBase = (name: string) => name.replace(/\d+$/, '')

function auth(check: Check): string | undefined {
  const { op, descriptions } = check
  const enforcing = descriptions.filter(authenticates)
  const declared = op.documented?.openapi?.security
  if (declared !== undefined) {
    // `[]`, or an empty requirement among the alternatives: public by declaration.
    if (declared.length === 0 || declared.some((r) => Object.keys(r).length === 0)) return undefined
    const enforced = new Set(
      // Stryker disable next-line ArrayDeclaration: what authenticates has a security list
      enforcing.flatMap((d) => (d.security ?? []).flat().map((s) => schemeBase(s.name))),
    )
    const names = [...new Set(declared.flatMap((r) => Object.keys(r)))]
    const unenforced = names.filter((n) => !enforced.has(schemeBase(n)))
    if (unenforced.length === 0) return undefined
    const csrfOnly = descriptions.some(
      (d) => d.middleware === CSRF && d.security?.flat().some((s) => unenforced.includes(s.name)),
    )
    return `declares security ${unenforced.join(', ')} but no middleware that enforces it runs${
      csrfOnly ? ' (csrf runs, and a CSRF token is not authentication)' : ''
    }: add the middleware (describe your own with describeMiddleware), or declare the route public with \`security: []\`${partly(check, authenticates)}`
  }
  if (enforcing.length > 0) return undefined
  const remedy =
    op.documented !== undefined
      ? 'add an auth middleware, or declare the route public with `security: []`'
      : 'add an auth middleware; a route the document does not describe cannot be declared public, so document it or exempt it'
  const what = ran(check, CSRF)
    ? 'csrf runs, but a CSRF token is not authentication'
    : 'no security requirement'
  return `${what}: ${remedy}${partly(check, authenticates)}`
}

/**
 * The `sunset` finding of a documented operation: an error from its sunset's second on, a warning
 * within {@link SUNSET_WARNING_DAYS} days before it (seconds, as the Sunset header carries it).
 */
function sunsetFault(
  op: Operation,
  now: number,
): { message: string; severity: AuditSeverity } | undefined {
  const sunset = deprecationOf(op.documented?.openapi)?.sunset
  if (sunset === undefined) return undefined
  const at = planDeprecation({ sunset }).sunset as number
  const when = new Date(at * 1000).toISOString()
  const days = (at * 1000 - now) / DAY_MS
  if (days <= 0)
    return {
      severity: 'error',
      message: `past its sunset (${when}): remove the operation (under sunsetMode 'enforce' it answers 410 gone), or move the sunset`,
    }
  if (days <= SUNSET_WARNING_DAYS)
    return {
      severity: 'warn',
      message: `its sunset (${when}) is ${Math.ceil(days)} day(s) away: check who still calls it (the deprecation decisions in logs and otel)`,
    }
  return undefined
}

/** The fault each rule finds on `check`, or undefined. `undocumented` is checked once per route. */
const CHECKS: Record<
  Exclude<AuditRule, 'undocumented' | 'sunset'>,
  (check: Check) => string | undefined
> = {
  auth,
  'webhook-signature': webhookSignature,
  csrf(check) {
    if (SAFE.has(check.method)) return undefined
    const cookie = check.descriptions.find((d) => d.cookieAuth)
    if (!cookie || ran(check, CSRF)) return undefined
    return `a cookie authenticates this unsafe request (${cookie.middleware ?? 'a middleware'}) and csrf does not run${partly(check, (d) => d.middleware === CSRF)}`
  },
  'rate-limit': (check) => missing(check, 'rateLimit'),
  'body-limit'(check) {
    const { op, method } = check
    if (BODYLESS.has(method) && !declaresBody(op.documented)) return undefined
    // bodyLimit caps a body whatever the method; its description lists where its 413 is
    // documented (POST, PUT, PATCH, QUERY), so a GET or DELETE with a body counts it too.
    const bodyLimit = (d: Description) => d.middleware === 'bodyLimit'
    if (descriptionsFor(op, method, false).some(bodyLimit)) return undefined
    return `takes a body and bodyLimit does not run${partly(check, bodyLimit)}`
  },
  validation({ op, method }) {
    if (op.documented === undefined) return undefined
    const request = op.documented.openapi?.request
    const problems: string[] = []
    if (op.params.length > 0 && request?.params === undefined)
      problems.push(`path parameters ${op.params.join(', ')} have no \`request.params\` schema`)
    if (!BODYLESS.has(method) && !declaresBody(op.documented))
      problems.push('takes a body that no `request.body` or `request.form` schema declares')
    if (
      op.documented.validate === false &&
      request !== undefined &&
      Object.keys(request).length > 0
    )
      problems.push('declares request schemas but turns validation off (`validate: false`)')
    return problems.length > 0 ? problems.join('; ') : undefined
  },
  responses({ op }) {
    if (op.documented === undefined) return undefined
    const responses = op.documented.openapi?.responses ?? {}
    const ok = Object.entries(responses).some(
      ([status, r]) =>
        /^2\d\d$/.test(status) &&
        (NO_CONTENT.has(status) || (isRecord(r) && r.schema !== undefined)),
    )
    return ok ? undefined : 'no success (2xx) response declares a schema'
  },
  headers: (check) => missing(check, 'securityHeaders'),
  shield(check) {
    const { op, method } = check
    if (ran(check, 'shield')) return undefined
    if (BODYLESS.has(method) && !declaresBody(op.documented)) return undefined
    // The wrapper notes a validated body whose every field is pinned down (validate/field-hints.ts).
    if (op.documented?.freeText === false) return undefined
    return `takes a free-text body and shield does not run${partly(check, (d) => d.middleware === 'shield')}`
  },
}

const UNDOCUMENTED: Record<NonNullable<Operation['undocumented']>, string> = {
  unregistered:
    'not in the document: registered on the Hono app past the wrapper (api.app.get, route, basePath, on, …); register it through the wrapper with `openapi` metadata, or exempt it',
  wildcard:
    'not in the document: OpenAPI cannot describe a wildcard path; use a path parameter, or exempt it',
  mounted:
    'not in the document: a mounted application (app.mount() or mount() from hono/mount) answers every method here; exempt it with what protects it',
  'described-elsewhere':
    "not in the document: its documented path's operation is taken from another route on the same path (another regex constraint, or a route with metadata), so this one's answers are not described; give it a path of its own, or exempt it",
}

/** The fault of `rule` on `op`: checked for each of its methods, reported once. */
function fault(rule: Exclude<AuditRule, 'sunset'>, op: Operation): string | undefined {
  if (rule === 'undocumented') return op.undocumented && UNDOCUMENTED[op.undocumented]
  const failing: [string, string][] = []
  for (const method of op.methods) {
    const message = CHECKS[rule]({ op, method, descriptions: descriptionsFor(op, method) })
    if (message !== undefined) failing.push([method, message])
  }
  const [first] = failing
  if (first === undefined) return undefined
  if (failing.length === op.methods.length) return first[1]
  return `${first[1]} (for ${failing.map(([m]) => m).join(', ')})`
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

/**
 * Whether exemption `e` lets `op` off: its method is the route's (or `*`/`ALL`) and its path is,
 * whole, the documented or the registered path. Never a prefix: `/a` does not exempt `/a/b`.
 */
function exempts(e: AuditExemption, op: Operation): boolean {
  const method = e.method.toUpperCase()
  if (method !== '*' && method !== 'ALL' && method !== op.method) return false
  return e.path === op.path || e.path === op.route
}

/**
 * Checks every route the Hono app serves against a security and contract policy, from what the
 * routes declare and what their middleware describe about themselves. No request is sent.
 *
 * The routes are read from Hono's router, not only from the wrapper's records: each documented
 * operation, and each route registered past the wrapper (`api.app.get`, `route()`, `basePath()`,
 * `on()`, `mount()`) or that the document cannot describe (a wildcard path). The middleware that
 * count for a route are those Hono runs before it: registered earlier (through the wrapper or
 * `api.app.use()`), for its method, on a path that reaches every path of the route.
 *
 * Rules (each `'error'` unless `policy.rules` says otherwise):
 * - `undocumented`: the document describes the route;
 * - `auth`: a middleware that authenticates runs (csrf does not), every scheme the route's
 *   `openapi.security` names is enforced by one, or the route is declared public (`security: []`);
 * - `webhook-signature`: a webhook receiver (`openapi.webhookReceiver: true`, or an unsafe method
 *   on a path with a `webhook` / `webhooks` segment unless declared `false`) runs `webhook()` or
 *   `httpSignature()`;
 * - `csrf`: an unsafe operation that a cookie can authenticate (sessions, jwtAuth's `cookie`)
 *   runs csrf;
 * - `rate-limit`: rateLimit runs;
 * - `body-limit`: an operation that takes a body (any method but GET, HEAD, OPTIONS, TRACE and
 *   DELETE, or a declared body) runs bodyLimit;
 * - `validation`: path parameters are typed by `request.params`, a body method declares its
 *   body, and declared schemas are not switched off with `validate: false`;
 * - `responses`: a 2xx response declares a schema (204 and 205 need none);
 * - `headers`: securityHeaders runs;
 * - `shield` (off unless the policy sets it): an operation that takes a free-text body (no body
 *   schema, or one with a field that is not a number, boolean, enum, uuid, date or email) runs
 *   shield;
 * - `sunset`: no operation is past its `openapi.deprecated.sunset` (an error; a warning when the
 *   rule is set to `'warn'`), and a warning for one whose sunset is 30 days away or less.
 *
 * The endpoints `openapi()` serves itself (the document, the pages and their files) are not
 * audited.
 *
 * @param app - the `OpenAPIApp` from `openapi()`, or the Hono app it wraps
 * @param policy - `rules` by name (`'error'`, `'warn'`, `'off'`) and `exempt` entries, each with
 *   a `reason`
 * @param options - `now`: the clock of the `sunset` rule (default `Date.now`)
 * @returns the findings, by route registration order, then rule order; `[]` when all pass
 * @throws TypeError for a bad policy, or when Hono's routes cannot be read
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
export function audit(app: unknown, policy?: AuditPolicy, options?: AuditOptions): AuditFinding[] {
  const api = resolveApp(app, 'audit')
  const { rules, exempt } = checkPolicy(policy)
  if (
    options !== undefined &&
    (!isRecord(options) || Object.keys(options).some((k) => k !== 'now'))
  )
    throw new TypeError('audit: options must be { now?: () => number }')
  if (options?.now !== undefined && typeof options.now !== 'function')
    throw new TypeError(
      'audit: options.now must be a function returning milliseconds (like Date.now)',
    )
  const now = (options?.now ?? Date.now)()
  requireInternals('audit')
  const operations = operationsOf(api)
  if (operations === undefined) {
    throw new TypeError(
      "audit: cannot read the Hono app's routes (app.routes), so no route can be audited; is this a Hono version @palisade/openapi supports?",
    )
  }
  const findings: AuditFinding[] = []
  for (const op of operations) {
    const waived = new Set(exempt.filter((e) => exempts(e, op)).flatMap((e) => e.rules))
    for (const rule of AUDIT_RULES) {
      const level = rules[rule] ?? (OFF_BY_DEFAULT.has(rule) ? 'off' : 'error')
      if (level === 'off' || waived.has(rule)) continue
      const found =
        rule === 'sunset'
          ? sunsetFault(op, now)
          : { message: fault(rule, op), severity: level as AuditSeverity }
      if (found?.message !== undefined) {
        // A rule set to 'warn' warns of a past sunset too; the 30 days' notice is always a warning.
        const severity = level === 'warn' ? 'warn' : found.severity
        const { method, path, route } = op
        findings.push({ method, path, route, rule, severity, message: found.message })
      }
    }
  }
  return findings
}
