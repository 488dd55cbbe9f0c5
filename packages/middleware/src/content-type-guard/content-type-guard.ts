import { MEDIA_RANGE } from '@palisade/shared/media-type'
import type { MiddlewareHandler } from 'hono'
import { TOKEN } from '../internal/http/header-syntax'
import {
  assertBoolean,
  assertKnownKeys,
  assertNonEmptyString,
  assertStringArray,
  optionError,
} from '../internal/options'
import { begin, decide } from '../internal/outcomes/decisions'
import { described } from '../internal/outcomes/described'
import { type ContentTypeGuardRejects, rejectOrRecord } from './answers'
import { contentTypeGuardDescription } from './description'

/**
 * Options of {@link contentTypeGuard}.
 *
 * @example
 * const options: ContentTypeGuardOptions = { required: ['application/json', 'multipart/*'] }
 * app.use('/api/*', contentTypeGuard(options))
 */
export interface ContentTypeGuardOptions {
  /** Allowed media types: `application/json`, `multipart/*`, `*\/*`. Required, not empty. */
  required: string[]
  /** Methods the check applies to. Default `['POST','PUT','PATCH','QUERY']`. */
  methods?: string[]
  /** Rejection body. Default `Unsupported Media Type`. */
  message?: string
  /**
   * Report instead of refuse: a request that would be rejected passes, and its decision is
   * `dry-run` with the code it would have got. Default `false`.
   */
  dryRun?: boolean
}

const NAME = 'contentTypeGuard'
const KNOWN = ['required', 'methods', 'message', 'dryRun'] as const
// HTTP optional whitespace is space and tab only; String#trim would also strip U+00A0 and more.
const OWS = /^[ \t]+|[ \t]+$/g

/**
 * On the guarded methods, requires the request's `Content-Type` to match one of `required`, and
 * otherwise rejects with 415. Media types are compared case-insensitively and without parameters
 * (`application/json; charset=utf-8` matches `application/json`); `type/*` and `*\/*` are
 * wildcards. A missing or malformed Content-Type never matches.
 *
 * @param options.required allowed media types (required)
 * @param options.methods default `['POST','PUT','PATCH','QUERY']`
 * @param options.message default `Unsupported Media Type`
 * @example
 * ```ts
 * app.use('/api/*', contentTypeGuard({ required: ['application/json', 'multipart/*'] }))
 * ```
 */
export function contentTypeGuard(
  options: ContentTypeGuardOptions,
): MiddlewareHandler & ContentTypeGuardRejects {
  if (options === undefined) throw optionError(NAME, 'options with "required" must be given')
  assertKnownKeys(NAME, options, KNOWN)
  if (options.required === undefined) throw optionError(NAME, '"required" must be given')
  const required = assertStringArray(NAME, 'required', options.required, { allowEmpty: false })
  const methods = new Set(
    assertStringArray(NAME, 'methods', options.methods ?? ['POST', 'PUT', 'PATCH', 'QUERY']).map(
      (m) => {
        if (!TOKEN.test(m))
          throw optionError(NAME, `"methods" entry ${JSON.stringify(m)} is not a method name`)
        return m.toUpperCase()
      },
    ),
  )
  const message = assertNonEmptyString(NAME, 'message', options.message ?? 'Unsupported Media Type')
  const dryRun = assertBoolean(NAME, 'dryRun', options.dryRun ?? false)

  const exact = new Set<string>()
  const types = new Set<string>()
  let any = false
  for (const entry of required) {
    const match = MEDIA_RANGE.exec(entry.toLowerCase())
    const [, type, subtype] = match ?? []
    const badWildcard =
      (type === '*' && subtype !== '*') ||
      (type?.includes('*') && type !== '*') ||
      (subtype?.includes('*') && subtype !== '*')
    if (!type || !subtype || badWildcard) {
      throw optionError(
        NAME,
        `"required" entry ${JSON.stringify(entry)} is not a media type like "type/subtype" or "type/*" (no parameters)`,
      )
    }
    if (type === '*') any = true
    else if (subtype === '*') types.add(type)
    else exact.add(`${type}/${subtype}`)
  }

  function allowed(header: string | undefined): boolean {
    if (!header) return false
    const semi = header.indexOf(';')
    const essence = (semi === -1 ? header : header.slice(0, semi)).replace(OWS, '').toLowerCase()
    const match = MEDIA_RANGE.exec(essence)
    // "*" is a token character, but a request declaring "*/*" or "text/*" names no real type.
    if (!match || essence.includes('*')) return false
    return any || exact.has(essence) || types.has(match[1] as string)
  }

  const description = contentTypeGuardDescription(required, methods)
  return described(description, async function contentTypeGuard(c, next) {
    const d = begin(c, NAME)
    if (!methods.has(c.req.method.toUpperCase())) decide(d, 'skip')
    else if (!allowed(c.req.header('content-type'))) {
      rejectOrRecord(d, dryRun, 415, message, 'unsupported_media_type')
    } else decide(d, 'allow')
    await next()
  })
}
