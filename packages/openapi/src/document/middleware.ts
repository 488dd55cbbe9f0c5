// What the route's middleware describe about themselves, merged into its operation. The
// protocol is plain data under a registered symbol (see @palisade/middleware's README,
// "Describing middleware to OpenAPI"); this package reads it without importing that one, and
// anything malformed in a description is skipped, never trusted.
import { isRecord } from '../schema/common'
import type { OpenAPISchema } from '../schema/types'
import type { ComponentRegistry } from './naming'
import { assertSecuritySchemes, SchemeRegistry, schemeProblem } from './security'
import type {
  OpenAPIHeader,
  OpenAPIMediaType,
  OpenAPIPathItem,
  OpenAPIResponse,
  OpenAPISecurityRequirement,
  OpenAPISecurityScheme,
  SpecOptions,
  StoredRoute,
} from './types'

/** The key a described middleware carries its description under. */
export const DESCRIPTION_KEY = Symbol.for('palisade.openapi.describe')

interface Scheme {
  name: string
  scheme: OpenAPISecurityScheme
  scopes?: string[]
}
interface Header {
  name: string
  description: string
  schema?: OpenAPISchema
  on?: 'success' | 'always'
}
interface Answer {
  status: number
  description: string
  codes?: string[]
  headers?: Header[]
  content?: Record<string, { schema?: OpenAPISchema }>
}
/** The reader's view of a `MiddlewareDescription`. */
export interface Description {
  /** Which middleware this is (`'rateLimit'`, …): read by the audit, not by the document. */
  middleware?: string
  /** A cookie alone can authenticate the request (sessions, jwtAuth's cookie). */
  cookieAuth?: boolean
  methods?: string[]
  security?: Scheme[][]
  responses?: Answer[]
  headers?: Header[]
  requestMediaTypes?: string[]
  rejectionBody?: { mediaType: string; schemaName: string; schema: OpenAPISchema }
}

const strings = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((s) => typeof s === 'string')
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
const MEDIA_RANGE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

function header(v: unknown): Header | undefined {
  if (!isRecord(v) || typeof v.name !== 'string' || !HEADER_NAME.test(v.name)) return undefined
  if (typeof v.description !== 'string') return undefined
  return {
    name: v.name,
    description: v.description,
    schema: isRecord(v.schema) ? (v.schema as OpenAPISchema) : undefined,
    on: v.on === 'always' ? 'always' : 'success',
  }
}

/** The description `fn` carries, cleaned: unknown or malformed parts are dropped. */
export function readDescription(fn: unknown): Description | undefined {
  if (typeof fn !== 'function') return undefined
  const raw: unknown = (fn as unknown as Record<symbol, unknown>)[DESCRIPTION_KEY]
  if (!isRecord(raw)) return undefined
  const d: Description = {}
  if (typeof raw.middleware === 'string') d.middleware = raw.middleware
  if (raw.cookieAuth === true) d.cookieAuth = true
  if (strings(raw.methods)) d.methods = raw.methods.map((m) => m.toUpperCase())
  if (Array.isArray(raw.security)) {
    d.security = raw.security
      .filter(Array.isArray)
      .map((alt: unknown[]) =>
        alt.filter(
          (s): s is Scheme =>
            isRecord(s) &&
            typeof s.name === 'string' &&
            schemeProblem(s.scheme) === undefined &&
            (s.scopes === undefined || strings(s.scopes)),
        ),
      )
      .filter((alt) => alt.length > 0)
  }
  if (Array.isArray(raw.responses)) {
    d.responses = raw.responses.flatMap((r: unknown): Answer[] => {
      if (!isRecord(r) || !Number.isInteger(r.status) || typeof r.description !== 'string')
        return []
      const status = r.status as number
      if (status < 100 || status > 599) return []
      const answer: Answer = { status, description: r.description }
      if (strings(r.codes)) answer.codes = r.codes
      if (Array.isArray(r.headers)) answer.headers = r.headers.flatMap((h) => header(h) ?? [])
      if (isRecord(r.content)) {
        answer.content = {}
        for (const [type, media] of Object.entries(r.content)) {
          if (!MEDIA_RANGE.test(type) || !isRecord(media)) continue
          answer.content[type] = isRecord(media.schema)
            ? { schema: media.schema as OpenAPISchema }
            : {}
        }
      }
      return [answer]
    })
  }
  if (Array.isArray(raw.headers)) d.headers = raw.headers.flatMap((h) => header(h) ?? [])
  if (strings(raw.requestMediaTypes))
    d.requestMediaTypes = raw.requestMediaTypes.filter((t) => MEDIA_RANGE.test(t))
  const body = raw.rejectionBody
  if (
    isRecord(body) &&
    typeof body.mediaType === 'string' &&
    MEDIA_RANGE.test(body.mediaType) &&
    typeof body.schemaName === 'string' &&
    isRecord(body.schema)
  ) {
    d.rejectionBody = {
      mediaType: body.mediaType,
      schemaName: body.schemaName,
      schema: body.schema as OpenAPISchema,
    }
  }
  return d
}

/** Document-wide state the merge needs. */
export interface MergeContext {
  schemes: SchemeRegistry
  components: ComponentRegistry
  /** The body the app's error handler gives rejections, if it described one. */
  rejectionBody?: Description['rejectionBody']
}

/** The descriptions of a route's middleware that apply to `method` (lower case), outermost first. */
export function descriptionsFor(route: StoredRoute, method: string): Description[] {
  const upper = method.toUpperCase()
  return (route.middleware ?? []).flatMap((fn) => {
    const d = readDescription(fn)
    return d && (!d.methods || d.methods.includes(upper)) ? [d] : []
  })
}

/**
 * Security alternatives of several middleware that all run: each must be satisfied, so the
 * result is every combination of one alternative per middleware (`[[a],[b]] × [[c]]` →
 * `[{a,c},{b,c}]`).
 */
function combineSecurity(
  descriptions: Description[],
  schemes: SchemeRegistry,
): OpenAPISecurityRequirement[] | undefined {
  let combined: OpenAPISecurityRequirement[] | undefined
  for (const d of descriptions) {
    if (!d.security || d.security.length === 0) continue
    const alternatives = d.security.map((alt) => {
      const req: OpenAPISecurityRequirement = {}
      for (const s of alt) req[schemes.name(s.name, s.scheme)] = [...(s.scopes ?? [])]
      return req
    })
    combined = combined
      ? combined.flatMap((left) => alternatives.map((right) => ({ ...left, ...right })))
      : alternatives
  }
  if (!combined) return undefined
  const seen = new Set<string>()
  return combined.filter((req) => {
    const key = JSON.stringify(Object.entries(req).sort(([a], [b]) => a.localeCompare(b)))
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/**
 * One media type answered by two sources (the validation 400 and a middleware's 400, say): a
 * body matches either schema, so both are listed.
 */
function mergeMedia(
  existing: OpenAPIMediaType | undefined,
  added: OpenAPIMediaType,
): OpenAPIMediaType {
  if (!existing) return added
  const schemas =
    existing.schema.anyOf && !existing.schema.$ref ? existing.schema.anyOf : [existing.schema]
  if (schemas.some((s) => JSON.stringify(s) === JSON.stringify(added.schema))) return existing
  return { ...existing, schema: { anyOf: [...schemas, added.schema] } }
}

function headerObject(h: Header): OpenAPIHeader {
  return { description: h.description, schema: { ...(h.schema ?? { type: 'string' }) } }
}

function rejectionContent(ctx: MergeContext): Record<string, OpenAPIMediaType> {
  if (!ctx.rejectionBody) return { 'text/plain': { schema: { type: 'string' } } }
  const { mediaType, schemaName, schema } = ctx.rejectionBody
  return { [mediaType]: { schema: ctx.components.ref({ ...schema, title: schemaName }) } }
}

/** `range` (`type/*`, `*\/*` or exact) accepts the media type `type`. */
function covers(range: string, type: string): boolean {
  const [rt, rs] = range.toLowerCase().split('/')
  const [t, s] = type.toLowerCase().split(';')[0]?.trim().split('/') ?? []
  return (rt === '*' || rt === t) && (rs === '*' || rs === s)
}

function applyMediaTypes(operation: OpenAPIPathItem, descriptions: Description[]): void {
  let allowed: string[] | undefined
  for (const d of descriptions) {
    if (!d.requestMediaTypes || d.requestMediaTypes.length === 0) continue
    const next: string[] = d.requestMediaTypes
    allowed = allowed
      ? allowed.filter((a) => next.some((n) => covers(n, a) || covers(a, n)))
      : [...next]
  }
  if (!allowed || allowed.length === 0) return
  const declared = operation.requestBody?.content ?? {}
  const kept = Object.entries(declared).filter(([type]) => allowed.some((a) => covers(a, type)))
  const content: Record<string, OpenAPIMediaType> = {}
  if (kept.length > 0) for (const [type, media] of kept) content[type] = media
  else {
    const schema = Object.values(declared)[0]?.schema ?? {}
    for (const type of allowed) content[type] = { schema: { ...schema } }
  }
  operation.requestBody = { ...operation.requestBody, required: true, content }
}

/**
 * Adds what the route's middleware describe to `operation` (already built from the route's own
 * metadata): security (unless the route declared `security`), the responses they answer (never
 * replacing one the route declared; several middleware answering one status share it), the
 * headers they set, and the request media types they accept.
 */
export function applyDescriptions(
  operation: OpenAPIPathItem,
  route: StoredRoute,
  method: string,
  ctx: MergeContext,
): void {
  const descriptions = descriptionsFor(route, method)
  const security = combineSecurity(descriptions, ctx.schemes)
  const declaredSecurity = route.openapi?.security
  if (declaredSecurity !== undefined) operation.security = structuredClone(declaredSecurity)
  else if (security) operation.security = security

  // Only what the route itself declared is never touched; a response the generator added (the
  // default 200, the validation 400) is shared with the middleware answering the same status.
  const declared = new Set(Object.keys(route.openapi?.responses ?? {}))
  const parts = new Map<string, { descriptions: string[]; answer: OpenAPIResponse }>()
  for (const d of descriptions) {
    for (const r of d.responses ?? []) {
      const status = String(r.status)
      if (declared.has(status)) continue
      const content: Record<string, OpenAPIMediaType> = r.content
        ? Object.fromEntries(
            Object.entries(r.content).map(([t, m]) => [t, { schema: { ...(m.schema ?? {}) } }]),
          )
        : rejectionContent(ctx)
      let entry = parts.get(status)
      if (!entry) {
        const existing = operation.responses[status]
        entry = existing
          ? { descriptions: [existing.description], answer: existing }
          : { descriptions: [], answer: { description: '' } }
        parts.set(status, entry)
        operation.responses[status] = entry.answer
      }
      entry.answer.content ??= {}
      for (const [type, media] of Object.entries(content)) {
        entry.answer.content[type] = mergeMedia(entry.answer.content[type], media)
      }
      const codes = r.codes && r.codes.length > 0 ? ` (\`${r.codes.join('`, `')}\`)` : ''
      const text = `${r.description}${codes}`
      if (!entry.descriptions.includes(text)) entry.descriptions.push(text)
      entry.answer.description = entry.descriptions.join('; ')
      for (const h of r.headers ?? []) {
        entry.answer.headers ??= {}
        entry.answer.headers[h.name] ??= headerObject(h)
      }
    }
  }

  for (const d of descriptions) {
    for (const h of d.headers ?? []) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (h.on !== 'always' && !/^[23]/.test(status)) continue
        response.headers ??= {}
        response.headers[h.name] ??= headerObject(h)
      }
    }
  }
  applyMediaTypes(operation, descriptions)
  if (ctx.rejectionBody && !Object.keys(operation.responses).some((k) => k.startsWith('4'))) {
    operation.responses['4XX'] = {
      description: 'A client error, in the body every rejection has',
      content: rejectionContent(ctx),
    }
  }
  if (parts.size > 0) {
    const sorted = Object.entries(operation.responses).sort(([a], [b]) => a.localeCompare(b))
    operation.responses = Object.fromEntries(sorted)
  }
}

/** The merge state of one document, from `generateSpec`'s options. */
export function createMergeContext(
  options: SpecOptions,
  components: ComponentRegistry,
): MergeContext {
  return {
    schemes: new SchemeRegistry(assertSecuritySchemes(options.securitySchemes)),
    components,
    rejectionBody: readDescription(options.errorHandler)?.rejectionBody,
  }
}

/**
 * Completes a document's security once every operation is built: the schemes go into
 * `components.securitySchemes`, an operation without requirements is marked public (`[]`), and
 * a requirement naming no known scheme throws.
 */
export function finishSecurity(
  paths: Record<string, Record<string, OpenAPIPathItem>>,
  ctx: MergeContext,
): Record<string, OpenAPISecurityScheme> | undefined {
  if (Object.keys(ctx.schemes.schemes).length === 0 && !usesSecurity(paths)) return undefined
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      operation.security ??= []
      for (const req of operation.security) {
        for (const name of Object.keys(req)) {
          if (!ctx.schemes.has(name)) {
            throw new Error(
              `openapi: ${method.toUpperCase()} ${path}: security names "${name}", which is neither in securitySchemes nor described by a middleware of the route`,
            )
          }
        }
      }
    }
  }
  return ctx.schemes.schemes
}

function usesSecurity(paths: Record<string, Record<string, OpenAPIPathItem>>): boolean {
  return Object.values(paths).some((item) =>
    Object.values(item).some((op) => (op.security ?? []).some((r) => Object.keys(r).length > 0)),
  )
}

/**
 * Throws when `route` declares a security requirement naming a scheme that neither
 * `securitySchemes` nor any middleware of the routes so far (this one included) describes, so the
 * mistake surfaces at registration, not when the document is first served. A numbered form of a
 * described name (`apiKeyHeader2`) is accepted: the document decides the numbers.
 */
export function assertKnownSecurity(
  route: StoredRoute,
  routes: readonly StoredRoute[],
  declared: Record<string, unknown> | undefined,
): void {
  const requirements = route.openapi?.security
  if (!requirements || requirements.length === 0) return
  const hints = new Set(Object.keys(declared ?? {}))
  for (const r of [...routes, route]) {
    for (const fn of r.middleware ?? []) {
      for (const alt of readDescription(fn)?.security ?? []) for (const s of alt) hints.add(s.name)
    }
  }
  for (const req of requirements) {
    for (const name of Object.keys(req)) {
      const base = name.replace(/\d+$/, '')
      if (hints.has(name) || hints.has(base)) continue
      throw new Error(
        `openapi: ${route.method.toUpperCase()} ${route.path}: security names "${name}", which is neither in securitySchemes nor described by a middleware`,
      )
    }
  }
}
