import { isRecord } from '../schema/common'
import type { OpenAPIPathItem, OpenAPISecurityScheme } from './document'
import { canonicalJSON } from './naming'

/** What a component name may look like (OpenAPI: `^[a-zA-Z0-9.\-_]+$`). */
const NAME = /^[A-Za-z0-9._-]+$/

/**
 * Names the security schemes of one document. Schemes the user declared (`securitySchemes`)
 * keep their names and win. A middleware's name hint is kept when every middleware using it
 * describes the same scheme; a different scheme under a taken name gets the next number
 * (`apiKeyHeader2`). The same scheme described twice, under any hint, is one entry.
 */
export class SchemeRegistry {
  readonly schemes: Record<string, OpenAPISecurityScheme> = {}
  private readonly byCanonical = new Map<string, string>()
  private readonly declared = new Set<string>()

  constructor(declared: Record<string, OpenAPISecurityScheme> = {}) {
    for (const [name, scheme] of Object.entries(declared)) {
      this.schemes[name] = structuredClone(scheme)
      this.declared.add(name)
      if (!this.byCanonical.has(canonicalJSON(scheme)))
        this.byCanonical.set(canonicalJSON(scheme), name)
    }
  }

  /** True when `name` is a scheme of the document so far. */
  has(name: string): boolean {
    return Object.hasOwn(this.schemes, name)
  }

  /** The name `scheme` is listed under, registering it under `hint` (or a numbered form). */
  name(hint: string, scheme: OpenAPISecurityScheme): string {
    const canonical = canonicalJSON(scheme)
    const known = this.byCanonical.get(canonical)
    if (known !== undefined) return known
    const base = hint.replace(/[^A-Za-z0-9._-]+/g, '') || 'scheme'
    let name = base
    for (let i = 2; this.has(name); i++) name = `${base}${i}`
    this.schemes[name] = structuredClone(scheme)
    this.byCanonical.set(canonical, name)
    return name
  }
}

const TYPES = ['http', 'apiKey', 'oauth2', 'openIdConnect', 'mutualTLS']
const IN = ['header', 'query', 'cookie']

/** Shape check of a Security Scheme Object; returns an error message or undefined. */
export function schemeProblem(scheme: unknown): string | undefined {
  if (!isRecord(scheme)) return 'must be a Security Scheme Object'
  if (!TYPES.includes(scheme.type as string)) return `type must be one of ${TYPES.join(', ')}`
  if (scheme.type === 'http' && (typeof scheme.scheme !== 'string' || scheme.scheme === ''))
    return 'an http scheme needs `scheme` (e.g. "bearer")'
  if (scheme.type === 'apiKey') {
    if (typeof scheme.name !== 'string' || scheme.name === '')
      return 'an apiKey scheme needs `name`'
    if (!IN.includes(scheme.in as string))
      return 'an apiKey scheme needs `in`: header, query or cookie'
  }
  if (scheme.type === 'oauth2' && !isRecord(scheme.flows)) return 'an oauth2 scheme needs `flows`'
  if (scheme.type === 'openIdConnect' && typeof scheme.openIdConnectUrl !== 'string')
    return 'an openIdConnect scheme needs `openIdConnectUrl`'
  return undefined
}

/** Validates the `securitySchemes` option; throws a `TypeError` naming the bad entry. */
export function assertSecuritySchemes(
  value: unknown,
): Record<string, OpenAPISecurityScheme> | undefined {
  if (value === undefined) return undefined
  if (!isRecord(value)) throw new TypeError('openapi: securitySchemes must be an object by name')
  for (const [name, scheme] of Object.entries(value)) {
    if (!NAME.test(name))
      throw new TypeError(`openapi: securitySchemes name "${name}" must match ${NAME}`)
    const problem = schemeProblem(scheme)
    if (problem) throw new TypeError(`openapi: securitySchemes.${name} ${problem}`)
  }
  return value as Record<string, OpenAPISecurityScheme>
}

/** True for a list of Security Requirement Objects (`[{ name: [scopes] }]`; `[]` = public). */
export function isSecurityRequirementList(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every(
      (req) =>
        isRecord(req) &&
        Object.values(req).every((s) => Array.isArray(s) && s.every((x) => typeof x === 'string')),
    )
  )
}

/**
 * Completes a document's security once every operation is built: the schemes go into
 * `components.securitySchemes`, an operation without requirements is marked public (`[]`), and
 * a requirement naming no known scheme throws.
 */
export function finishSecurity(
  paths: Record<string, Record<string, OpenAPIPathItem>>,
  schemes: SchemeRegistry,
): Record<string, OpenAPISecurityScheme> | undefined {
  if (Object.keys(schemes.schemes).length === 0 && !usesSecurity(paths)) return undefined
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      operation.security ??= []
      for (const req of operation.security) {
        for (const name of Object.keys(req)) {
          if (!schemes.has(name)) {
            throw new Error(
              `openapi: ${method.toUpperCase()} ${path}: security names "${name}", which is neither in securitySchemes nor described by a middleware of the route`,
            )
          }
        }
      }
    }
  }
  return schemes.schemes
}

function usesSecurity(paths: Record<string, Record<string, OpenAPIPathItem>>): boolean {
  return Object.values(paths).some((item) =>
    Object.values(item).some((op) => (op.security ?? []).some((r) => Object.keys(r).length > 0)),
  )
}
