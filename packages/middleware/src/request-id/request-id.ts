import type { MiddlewareHandler } from 'hono'
import { TOKEN } from '../internal/http/header-syntax'
import { setResponseHeader } from '../internal/http/headers'
import {
  assertBoolean,
  assertFunction,
  assertKnownKeys,
  assertNonEmptyString,
  optionError,
} from '../internal/options'
import { described } from '../internal/outcomes/described'
import { REQUEST_ID_PATTERN, REQUEST_ID_SHAPE, requestIdDescription } from './description'
import { randomUuid } from './uuid'

/**
 * Options of {@link requestId}.
 *
 * @example
 * const options: RequestIdOptions = { headerName: 'X-Correlation-ID', trustUpstream: false }
 * app.use(requestId(options))
 */
export interface RequestIdOptions {
  /** Header read from the request and written to the response. Default `X-Request-ID`. */
  headerName?: string
  /**
   * Produces a new ID; must return 1–255 characters of `[A-Za-z0-9._:=+/-]`. Default: a random
   * version 4 UUID, as `crypto.randomUUID()` makes.
   */
  generate?: () => string
  /** Reuse a well-formed ID sent by the client. Default `true`. */
  trustUpstream?: boolean
  /** Context key the ID is stored under. Default `requestId`. */
  contextKey?: string
}

const NAME = 'requestId'
const KNOWN = ['headerName', 'generate', 'trustUpstream', 'contextKey'] as const
/** What an ID may look like: safe in a header, a log line and a URL, and bounded in size. */
const VALID_ID = new RegExp(REQUEST_ID_PATTERN)

const defaultGenerate = randomUuid

/**
 * Gives every request an ID, stores it in the context (`c.get('requestId')`) and writes it to the
 * response header. An incoming ID is reused only when `trustUpstream` is on and it is 1–255
 * characters of `[A-Za-z0-9._:=+/-]`; anything else (CR/LF, spaces, quotes, unicode, too long)
 * is replaced by a fresh one.
 *
 * @param options.headerName default `X-Request-ID`
 * @param options.generate default: a random version 4 UUID (as `crypto.randomUUID()` makes)
 * @param options.trustUpstream default `true`
 * @param options.contextKey default `requestId`
 * @example
 * ```ts
 * app.use('*', requestId())
 * app.get('/', (c) => c.text(`your request: ${c.get('requestId')}`))
 * ```
 */
export function requestId(options?: RequestIdOptions): MiddlewareHandler {
  assertKnownKeys(NAME, options, KNOWN)
  const o = options ?? {}
  const headerName = assertNonEmptyString(NAME, 'headerName', o.headerName ?? 'X-Request-ID')
  if (!TOKEN.test(headerName)) {
    throw optionError(NAME, `"headerName" ${JSON.stringify(headerName)} is not a valid header name`)
  }
  const generate = assertFunction<() => string>(NAME, 'generate', o.generate ?? defaultGenerate)
  // A UUID always matches VALID_ID; only a user's generator is checked per request.
  const checkGenerated = generate !== defaultGenerate
  const trustUpstream = assertBoolean(NAME, 'trustUpstream', o.trustUpstream ?? true)
  const contextKey = assertNonEmptyString(NAME, 'contextKey', o.contextKey ?? 'requestId')

  const description = requestIdDescription(headerName)
  // Header names are case-insensitive: read and written lower-case, the name the response's
  // header record keys it by, lower-cased once here instead of on every request.
  const field = headerName.toLowerCase()
  // Without an async frame (a promise, a suspended frame and its await on every request): the
  // header is chained on next()'s own promise. A throw before next() (a bad generator) is still
  // a rejected promise, never a synchronous throw.
  return described(description, function requestId(c, next) {
    try {
      const incoming = trustUpstream ? c.req.header(field) : undefined
      let id: string
      if (incoming !== undefined && VALID_ID.test(incoming)) {
        id = incoming
      } else {
        id = generate()
        // A generator is configuration: a bad one is a bug to surface, not an ID to send.
        if (checkGenerated && (typeof id !== 'string' || !VALID_ID.test(id))) {
          throw optionError(NAME, `generate() must return ${REQUEST_ID_SHAPE}`)
        }
      }
      c.set(contextKey as 'requestId', id)
      return next().then(() => setResponseHeader(c, field, id))
    } catch (error) {
      return Promise.reject(error)
    }
  })
}
