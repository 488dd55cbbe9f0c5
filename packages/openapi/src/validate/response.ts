// Checking what a handler answers against the responses its route declares: JSON bodies built
// with `c.json()` are stripped of undeclared properties and validated; a status the route does
// not declare is reported.
import type { Context, Handler, MiddlewareHandler } from 'hono'
import { type ConvertOptions, toOpenAPISchema } from '../schema/convert'
import { PROBLEM_JSON, problemDetails } from './problem'
import { type StandardResult, toPointer, type ValidateFn } from './standard'
import { jsonValue, type Removed, stripperFor, UnresolvedSchemaError } from './strip'
import { type JSONSchemaValidator, resolveValidator } from './validator'

/**
 * What happens to a JSON body whose status has a declared schema:
 * - `'strip'` (default): properties the schema does not declare are removed, then the body is
 *   validated; a body that still fails is answered 500 `response_invalid`;
 * - `'strict'`: an undeclared property is itself a failure (500);
 * - `'report'`: the body is sent as built; failures and undeclared properties go to the hook;
 * - `'off'`: nothing is checked, not even the status.
 *
 * The body checked is what `JSON.stringify` would send (`toJSON` applied, class instances read by
 * their own enumerable properties). In `'strip'` and `'strict'` a JSON body under a status the
 * route does not declare is answered 500 `response_invalid` too.
 */
export type ResponseValidationMode = 'strip' | 'strict' | 'report' | 'off'

/** The response validation modes, for option checks. */
export const RESPONSE_VALIDATION_MODES: readonly ResponseValidationMode[] = [
  'strip',
  'strict',
  'report',
  'off',
]

/**
 * What the `onResponseValidationError` hook receives: a body that failed its declared schema
 * (`invalid_body`), or a status the route does not declare (`undeclared_status`, reported in every
 * mode but `'off'`; a JSON answer under it is refused in `'strip'` and `'strict'`, anything else
 * is sent as it is).
 *
 * @example
 * const issue: ResponseValidationIssue = {
 *   kind: 'invalid_body', mode: 'strip', method: 'GET', path: '/users/:id', status: 200,
 *   errors: [{ path: '/email', message: 'Invalid email address' }],
 * }
 */
export interface ResponseValidationIssue {
  kind: 'invalid_body' | 'undeclared_status'
  /** The mode the route runs in. */
  mode: Exclude<ResponseValidationMode, 'off'>
  /** The request method (upper case) and the route path as registered. */
  method: string
  path: string
  status: number
  /**
   * What failed, by RFC 6901 JSON pointer into the body. Undeclared properties (failures in
   * `'strict'`, reported in `'report'`) have the message `'Undeclared property'`. Empty for an
   * undeclared status.
   */
  errors: { path: string; message: string }[]
}

/**
 * Called with every response validation issue; its return value is ignored (in `'strip'` and
 * `'strict'` the client gets the 500 `response_invalid` problem regardless). Log here: the
 * client is never told what failed.
 *
 * @example
 * const onResponseValidationError: ResponseValidationErrorHandler = (issue) => {
 *   console.error(`${issue.method} ${issue.path} ${issue.status}`, issue.errors)
 * }
 */
export type ResponseValidationErrorHandler = (
  issue: ResponseValidationIssue,
  // biome-ignore lint/suspicious/noExplicitAny: the hook sees the route's context, whatever its Env
  c: Context<any, any, any>,
) => void | Promise<void>

/** One declared response, as the route's `openapi.responses` holds it. */
export interface DeclaredResponse {
  schema?: unknown
  contentType?: string
}

/** What the response check of one route needs. */
export interface ResponseCheckOptions {
  mode: ResponseValidationMode
  /** The route path as registered (reported in issues). */
  path: string
  /** Statuses declared elsewhere for this operation (middleware answers, the validation 400). */
  alsoDeclared?: Iterable<number>
  jsonSchemaValidator?: JSONSchemaValidator | undefined
  converters?: ConvertOptions['converters']
  onResponseValidationError?: ResponseValidationErrorHandler | undefined
}

interface StatusCheck {
  strip: (value: unknown, removed?: Removed) => unknown
  validate: ValidateFn | undefined
}

/**
 * What `c.json()` stripped before serialising, for the status it expected. `unresolved` when the
 * schema could not say what is declared (`stripped` is then `null`, which is what was built).
 */
interface EarlyStrip {
  status: number
  stripped: unknown
  removed: Removed | undefined
  unresolved?: UnresolvedSchemaError
}

/** `strip(value)`, or the unresolvable `$ref` that stopped it. */
function stripSafely(
  check: StatusCheck,
  value: unknown,
  removed: Removed | undefined,
): { stripped: unknown; unresolved?: UnresolvedSchemaError } {
  try {
    return { stripped: check.strip(value, removed) }
  } catch (error) {
    if (error instanceof UnresolvedSchemaError) return { stripped: null, unresolved: error }
    throw error
  }
}

/** The status `c.json()` answers without one given (and without an earlier `c.status()`). */
const DEFAULT_STATUS = 200

const JSON_MEDIA = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i
const UNDECLARED = 'Undeclared property'

/** What checks the answers of one route: its handler's, and its route middleware's. */
export interface ResponseCheck {
  /** The handler, with its answers checked. */
  handler(handler: Handler): Handler
  /** A route middleware, with the answer it gives instead of calling `next()` checked. */
  middleware(middleware: MiddlewareHandler): MiddlewareHandler
}

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
  // 'report' sends what was built; the others send only what they checked.
  const refuses = mode !== 'report'
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
  const hook = options.onResponseValidationError
  const report = async (c: Context, issue: ResponseValidationIssue) => {
    if (hook) await hook(issue, c)
  }
  const issueOf = (
    c: Context,
    kind: ResponseValidationIssue['kind'],
    status: number,
    errors: ResponseValidationIssue['errors'],
  ): ResponseValidationIssue => ({
    kind,
    mode: mode as ResponseValidationIssue['mode'],
    method: c.req.method,
    path: options.path,
    status,
    errors,
  })

  /** The 500 for a body the check refuses (or `res` in `'report'`), once the hook has it. */
  const refuse = (c: Context, res: Response, issue: ResponseValidationIssue) =>
    report(c, issue).then(() => (refuses ? invalidResponse(res) : res))

  const unresolvedIssue = (c: Context, status: number, error: UnresolvedSchemaError) =>
    issueOf(c, 'invalid_body', status, [{ path: error.pointer, message: error.message }])

  /**
   * What to send instead of `res` (or `res` itself); a promise only when something awaits.
   * `early` is what `c.json()` already stripped before serialising (see `checkResponse`): the
   * response then carries the stripped body, and only the validation is left.
   */
  const check = (
    c: Context,
    res: unknown,
    built: Response | undefined,
    body: unknown,
    early?: EarlyStrip,
  ): unknown | Promise<unknown> => {
    if (!(res instanceof Response) || res.status === 304 || c.req.method === 'HEAD') return res
    const status = res.status
    const json = res === built || isJSON(res)
    if (!declared.has(status)) {
      // A JSON body under a status the document does not declare: nothing says what may leave.
      const issue = issueOf(c, 'undeclared_status', status, [])
      return json ? refuse(c, res, issue) : report(c, issue).then(() => res)
    }
    const declaredCheck = checks.get(status)
    if (declaredCheck === undefined || !json) return res
    if (res !== built) return checkSerialised(c, res, declaredCheck)
    const sentStripped = early !== undefined && early.status === status
    if (sentStripped && early.unresolved) {
      return refuse(c, res, unresolvedIssue(c, status, early.unresolved))
    }
    const removed: Removed | undefined = sentStripped
      ? early.removed
      : mode === 'strip'
        ? undefined
        : []
    let stripped: unknown
    if (sentStripped) stripped = early.stripped
    else {
      const result = stripSafely(declaredCheck, body, removed)
      if (result.unresolved) return refuse(c, res, unresolvedIssue(c, status, result.unresolved))
      stripped = result.stripped
    }
    return validated(c, res, body, stripped, removed, status, sentStripped, declaredCheck)
  }

  /** `finish` once the stripped body (the JSON form of the body in `'report'`) is validated. */
  const validated = (
    c: Context,
    res: Response,
    body: unknown,
    stripped: unknown,
    removed: Removed | undefined,
    status: number,
    sentStripped: boolean,
    declaredCheck: StatusCheck,
  ): unknown | Promise<unknown> => {
    if (!declaredCheck.validate) {
      return finish(c, res, body, stripped, removed, status, sentStripped, undefined)
    }
    const r = declaredCheck.validate(mode === 'report' ? jsonValue(body) : stripped)
    return typeof (r as Promise<StandardResult>).then === 'function'
      ? (r as Promise<StandardResult>).then((v) =>
          finish(c, res, body, stripped, removed, status, sentStripped, v),
        )
      : finish(c, res, body, stripped, removed, status, sentStripped, r as StandardResult)
  }

  /**
   * A JSON answer the handler's `c.json()` did not build (`c.body()`, `new Response()`, a route
   * middleware's answer): read, parsed, then stripped and validated like the others.
   */
  const checkSerialised = async (
    c: Context,
    res: Response,
    declaredCheck: StatusCheck,
  ): Promise<unknown> => {
    const status = res.status
    const failed = (message: string) =>
      refuse(c, res, issueOf(c, 'invalid_body', status, [{ path: '', message }]))
    // A compressed body cannot be read here; nothing unread leaves.
    if (res.headers.has('content-encoding')) return failed('Encoded JSON body')
    const text = await res.text()
    const read = new Response(text, res)
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return report(
        c,
        issueOf(c, 'invalid_body', status, [{ path: '', message: 'Not JSON' }]),
      ).then(() => (refuses ? invalidResponse(read) : read))
    }
    const removed: Removed | undefined = mode === 'strip' ? undefined : []
    const result = stripSafely(declaredCheck, body, removed)
    if (result.unresolved) return refuse(c, read, unresolvedIssue(c, status, result.unresolved))
    return validated(c, read, body, result.stripped, removed, status, false, declaredCheck)
  }

  /** The answer once the body is validated: `res`, a stripped copy, or the 500. */
  function finish(
    c: Context,
    res: Response,
    body: unknown,
    stripped: unknown,
    removed: Removed | undefined,
    status: number,
    sentStripped: boolean,
    r: StandardResult | undefined,
  ): unknown | Promise<unknown> {
    const issues = r?.issues
    if ((removed === undefined || removed.length === 0) && !issues) {
      if (mode === 'report' || stripped === body || sentStripped) return res
      return withBody(res, JSON.stringify(stripped))
    }
    const errors: ResponseValidationIssue['errors'] = []
    if (removed) for (const path of removed) errors.push({ path, message: UNDECLARED })
    if (issues) {
      for (const issue of issues)
        errors.push({ path: toPointer(issue.path), message: issue.message })
      if (issues.length === 0) errors.push({ path: '', message: 'Invalid value' })
    }
    return report(c, issueOf(c, 'invalid_body', status, errors)).then(() =>
      mode === 'report' ? res : invalidResponse(res),
    )
  }

  // No declared status has a body to check: only the status is looked at, and c.json is left
  // alone (giving a Context an own `json` per request changes its shape, which costs every later
  // access to it far more than the check itself).
  /**
   * A route middleware whose answer (a response returned, or set as `c.res`, without calling
   * `next()`) is checked like the handler's; what it does around `next()` is left alone.
   */
  const middleware = (mw: MiddlewareHandler): MiddlewareHandler => {
    const checkedMiddleware: MiddlewareHandler = async (c, next) => {
      let passed = false
      const out = await mw(c, () => {
        passed = true
        return next()
      })
      if (passed) return out
      const answer = out instanceof Response ? out : c.finalized ? c.res : undefined
      if (answer === undefined) return out
      const checked = await check(c, answer, undefined, undefined)
      // Hono keeps a response set on the context over the one returned.
      if (checked !== answer && c.finalized) c.res = checked as Response
      return checked as Response
    }
    // What it describes of itself (symbol-keyed: the openapi description) stays readable on the
    // function Hono runs, for whoever reads the router.
    for (const key of Object.getOwnPropertySymbols(mw)) {
      Object.defineProperty(
        checkedMiddleware,
        key,
        Object.getOwnPropertyDescriptor(mw, key) as PropertyDescriptor,
      )
    }
    return checkedMiddleware
  }

  if (checks.size === 0) {
    const handler = (handler: Handler): Handler =>
      function checkStatus(c, next) {
        const out = handler(c, next)
        if (out instanceof Promise) {
          return out.then((res) => check(c, res, undefined, undefined)) as ReturnType<Handler>
        }
        return check(c, out, undefined, undefined) as ReturnType<Handler>
      }
    return { handler, middleware }
  }

  // Not async: a handler that answers synchronously, with a synchronous schema, is checked
  // without a microtask in between.
  //
  // 'strip' and 'strict' strip inside c.json(), before the value is serialised, so a body with
  // something undeclared is serialised once, stripped, rather than serialised, stripped and
  // serialised again into a copied Response. The status is read from c.json()'s arguments (200
  // without them); a status set earlier with c.status() shows on the built response, and when it
  // is not the one guessed the value is stripped by that status's schema and serialised again.
  const stripsEarly = mode === 'strip' || mode === 'strict'
  const stripFor = (status: number, object: unknown): EarlyStrip | undefined => {
    const declaredCheck = checks.get(status)
    if (declaredCheck === undefined) return undefined
    const removed: Removed | undefined = mode === 'strip' ? undefined : []
    const { stripped, unresolved } = stripSafely(declaredCheck, object, removed)
    return unresolved ? { status, stripped, removed, unresolved } : { status, stripped, removed }
  }
  const handler = (handler: Handler): Handler =>
    function checkResponse(c, next) {
      const json = c.json as (o: unknown, a?: unknown, h?: unknown) => Response
      let built: Response | undefined
      let body: unknown
      let early: EarlyStrip | undefined
      setJson(c, (object: unknown, arg?: unknown, headers?: unknown) => {
        body = object
        early = undefined
        const guess =
          typeof arg === 'number'
            ? arg
            : ((arg as { status?: number } | undefined)?.status ?? DEFAULT_STATUS)
        const first = stripsEarly ? stripFor(guess, object) : undefined
        if (first === undefined) {
          built = json(object, arg, headers)
          return built
        }
        built = json(first.stripped, arg, headers)
        const status = built.status
        if (status === guess) {
          early = first
          return built
        }
        // c.status() chose another status: strip by its schema, if it declares one.
        const second = stripFor(status, object)
        if (second === undefined) {
          if (first.stripped !== object) built = json(object, arg, headers)
          return built
        }
        if (second.stripped !== first.stripped) built = json(second.stripped, arg, headers)
        early = second
        return built
      })
      let out: unknown
      try {
        out = handler(c, next)
      } catch (error) {
        setJson(c, json)
        throw error
      }
      if (out instanceof Promise) {
        return out.then(
          (res) => {
            setJson(c, json)
            return check(c, res, built, body, early)
          },
          (error) => {
            setJson(c, json)
            throw error
          },
        ) as ReturnType<Handler>
      }
      setJson(c, json)
      return check(c, out, built, body, early) as ReturnType<Handler>
    }
  return { handler, middleware }
}

/**
 * Gives `c` its `json` function. Defined, not assigned: on V8, assigning over the function a Hono
 * Context holds as its own field made the objects of every request outlive the young generation
 * (a whole request promoted to the old generation per scavenge, then left to a full GC), which
 * cost a server more CPU per request than the response check itself; a defined property does
 * not (bench/FINDINGS.md, "Garbage").
 */
function setJson(c: Context, json: (o: unknown, a?: unknown, h?: unknown) => Response): void {
  Object.defineProperty(c, 'json', {
    value: json,
    writable: true,
    enumerable: true,
    configurable: true,
  })
}

/** Whether `res` says it carries JSON (`application/json`, `application/*+json`). */
const isJSON = (res: Response) => JSON_MEDIA.test(res.headers.get('content-type') ?? '')

/** `res` with another body (its length no longer what a `Content-Length` would say). */
function withBody(res: Response, body: string): Response {
  const headers = new Headers(res.headers)
  headers.delete('content-length')
  return new Response(body, { status: res.status, statusText: res.statusText, headers })
}

/** 500 `response_invalid`, without any detail, keeping the headers the handler's answer had. */
function invalidResponse(res: Response): Response {
  const headers = new Headers(res.headers)
  headers.delete('content-length')
  headers.set('Content-Type', PROBLEM_JSON)
  const problem = problemDetails(500, { code: 'response_invalid' })
  return new Response(JSON.stringify(problem), { status: 500, headers })
}
