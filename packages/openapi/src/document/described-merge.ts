// Merges what a route's middleware describe (read by `described-read.ts`) into its operation:
// security, the responses they answer, the headers they set, the request media types they accept.
import type {
  OpenAPIHeader,
  OpenAPIMediaType,
  OpenAPIPathItem,
  OpenAPIResponse,
  OpenAPISecurityRequirement,
} from '../model/document'
import type { ComponentRegistry } from '../model/naming'
import type { SpecOptions } from '../model/options'
import type { StoredRoute } from '../model/route'
import { assertSecuritySchemes, SchemeRegistry } from '../model/security'
import { type Description, descriptionsFor, type Header, readDescription } from './described-read'

/** Document-wide state the merge needs. */
export interface MergeContext {
  schemes: SchemeRegistry
  components: ComponentRegistry
  /** The body the app's error handler gives rejections, if it described one. */
  rejectionBody?: Description['rejectionBody']
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
 * Adds the request headers middleware read as header parameters, unless the operation already
 * has a header parameter of that name (the route's own declaration wins; names compared without
 * case, as HTTP does).
 */
function applyRequestHeaders(operation: OpenAPIPathItem, descriptions: Description[]): void {
  for (const d of descriptions) {
    for (const h of d.requestHeaders ?? []) {
      const name = h.name.toLowerCase()
      const params = operation.parameters ?? []
      if (params.some((p) => p.in === 'header' && p.name.toLowerCase() === name)) continue
      params.push({
        name: h.name,
        in: 'header',
        required: h.required,
        description: h.description,
        schema: { ...(h.schema ?? { type: 'string' }) },
      })
      operation.parameters = params
    }
  }
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
  // Who can answer each status, by the answering middleware's place in the chain; what the
  // operation already has (the route's own, the validation's) answers after every middleware.
  const last = Number.POSITIVE_INFINITY
  const answeredBy = new Map<string, number[]>(
    Object.keys(operation.responses).map((status) => [status, [last]]),
  )
  for (const [place, d] of descriptions.entries()) {
    for (const r of d.responses ?? []) {
      const status = String(r.status)
      if (declared.has(status)) continue
      answeredBy.set(status, [...(answeredBy.get(status) ?? []), place])
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

  // problemHandler() answers any other error 500 in its body: documented once the app has it.
  if (ctx.rejectionBody && !operation.responses['500'] && !operation.responses['5XX']) {
    operation.responses['500'] = {
      description: 'An unexpected server error (`internal_error`), in the body every rejection has',
      content: rejectionContent(ctx),
    }
    answeredBy.set('500', [last])
  }

  for (const [place, d] of descriptions.entries()) {
    for (const h of d.headers ?? []) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const applies =
          h.on === 'always' ||
          /^[23]/.test(status) ||
          (h.on === 'passed' && (answeredBy.get(status) ?? [last]).some((p) => p >= place))
        if (!applies) continue
        response.headers ??= {}
        response.headers[h.name] ??= headerObject(h)
      }
    }
  }
  applyMediaTypes(operation, descriptions)
  applyRequestHeaders(operation, descriptions)
  if (ctx.rejectionBody && !Object.keys(operation.responses).some((k) => k.startsWith('4'))) {
    operation.responses['4XX'] = {
      description: 'A client error, in the body every rejection has',
      content: rejectionContent(ctx),
    }
  }
  if (parts.size > 0 || operation.responses['500']) {
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
