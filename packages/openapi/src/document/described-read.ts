// Reads what a route's middleware describe about themselves. The protocol is plain data under a
// registered symbol (see @palisade/middleware's README, "Describing middleware to OpenAPI"); this
// package reads it without importing that one, and anything malformed in a description is
// skipped, never trusted. `described-merge.ts` adds what is read to the operations.
import { OPENAPI_DESCRIPTION } from '@palisade/shared/describe'
import { MEDIA_RANGE } from '@palisade/shared/media-type'
import { TOKEN as HEADER_NAME } from '@palisade/shared/token'
import type { OpenAPISecurityScheme } from '../model/document'
import type { StoredRoute } from '../model/route'
import { schemeProblem } from '../model/security'
import { isRecord } from '../schema/common'
import type { OpenAPISchema } from '../schema/types'

/** The key a described middleware carries its description under. */
export const DESCRIPTION_KEY = OPENAPI_DESCRIPTION

interface Scheme {
  name: string
  scheme: OpenAPISecurityScheme
  scopes?: string[]
}
/** A response header a middleware sets. */
export interface Header {
  name: string
  description: string
  schema?: OpenAPISchema
  on?: 'success' | 'passed' | 'always'
}
interface Answer {
  status: number
  description: string
  codes?: string[]
  headers?: Header[]
  content?: Record<string, { schema?: OpenAPISchema }>
}
/** A request header a middleware reads (a header parameter of the operation). */
export interface RequestHeader {
  name: string
  description: string
  required: boolean
  schema?: OpenAPISchema
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
  requestHeaders?: RequestHeader[]
  rejectionBody?: { mediaType: string; schemaName: string; schema: OpenAPISchema }
}

const strings = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((s) => typeof s === 'string')

function header(v: unknown): Header | undefined {
  if (!isRecord(v) || typeof v.name !== 'string' || !HEADER_NAME.test(v.name)) return undefined
  if (typeof v.description !== 'string') return undefined
  return {
    name: v.name,
    description: v.description,
    schema: isRecord(v.schema) ? (v.schema as OpenAPISchema) : undefined,
    on: v.on === 'always' || v.on === 'passed' ? v.on : 'success',
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
  if (Array.isArray(raw.requestHeaders)) {
    d.requestHeaders = raw.requestHeaders.flatMap((h: unknown): RequestHeader[] => {
      const read = header(h)
      if (!read || !isRecord(h)) return []
      return [
        {
          name: read.name,
          description: read.description,
          required: h.required === true,
          schema: read.schema,
        },
      ]
    })
  }
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

/** The descriptions of a route's middleware that apply to `method` (lower case), outermost first. */
export function descriptionsFor(route: StoredRoute, method: string): Description[] {
  const upper = method.toUpperCase()
  return (route.middleware ?? []).flatMap((fn) => {
    const d = readDescription(fn)
    return d && (!d.methods || d.methods.includes(upper)) ? [d] : []
  })
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
