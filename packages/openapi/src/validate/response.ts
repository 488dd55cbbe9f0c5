// Checking what a handler answers against the responses its route declares: JSON bodies built
// with `c.json()` are stripped of undeclared properties and validated; a status the route does
// not declare is reported. This module puts the parts together: the check of one answer
// (response-checker.ts), the handler and route middleware wrapped around it (checked-handler.ts,
// checked-middleware.ts), the stripping rules (strip.ts), the public types (response-types.ts).
import { toOpenAPISchema } from '../schema/convert'
import { bodyCheckedHandler, statusCheckedHandler } from './checked-handler'
import { checkedMiddleware } from './checked-middleware'
import { JSON_MEDIA, ResponseChecker, type StatusCheck } from './response-checker'
import type { DeclaredResponse, ResponseCheck, ResponseCheckOptions } from './response-types'
import { stripperFor } from './strip'
import { resolveValidator } from './validator'

export {
  type DeclaredResponse,
  RESPONSE_VALIDATION_MODES,
  type ResponseCheck,
  type ResponseCheckOptions,
  type ResponseValidationErrorHandler,
  type ResponseValidationIssue,
  type ResponseValidationMode,
} from './response-types'

/**
 * The response check of a route with `responses` (by status), or undefined when there is nothing
 * to check (mode `'off'`, no responses declared).
 *
 * Bodies built with the handler's `c.json()` are stripped and validated before they are
 * serialised (what `JSON.stringify` would send: `toJSON()` applied, any object read by its own
 * enumerable properties), and the stripped copy is what is serialised. Other answers with a JSON
 * media type (`c.body()`, `new Response()`, a route middleware's `c.json()`) are read, parsed and
 * checked the same way. In `'strip'` and `'strict'` a JSON answer under a status the route does
 * not declare is refused (500 `response_invalid`). Non-JSON answers (streams, text, HTML), answers
 * to HEAD requests and 304s pass untouched. A thrown error never reaches the check.
 */
export function responseCheck(
  responses: Readonly<Record<string, DeclaredResponse>> | undefined,
  options: ResponseCheckOptions,
): ResponseCheck | undefined {
  const { mode } = options
  if (mode === 'off' || responses === undefined || Object.keys(responses).length === 0)
    return undefined
  const declared = new Set<number>(options.alsoDeclared)
  const checks = new Map<number, StatusCheck>()
  for (const [key, response] of Object.entries(responses)) {
    const status = Number(key)
    declared.add(status)
    if (response.schema === undefined) continue
    if (response.contentType !== undefined && !JSON_MEDIA.test(response.contentType)) continue
    const json = toOpenAPISchema(response.schema, { converters: options.converters })
    checks.set(status, {
      strip: stripperFor(json),
      validate: resolveValidator(response.schema, options.jsonSchemaValidator),
    })
  }
  const checker = new ResponseChecker({
    mode,
    path: options.path,
    declared,
    checks,
    hook: options.onResponseValidationError,
  })
  // No declared status has a body to check: only the status is looked at.
  const wrap = checks.size === 0 ? statusCheckedHandler : bodyCheckedHandler
  return {
    handler: (handler) => wrap(checker, handler),
    middleware: (mw) => checkedMiddleware(checker, mw),
  }
}
