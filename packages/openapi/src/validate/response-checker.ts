// The check of one answer against what its route declares: the status, then the JSON body,
// stripped of undeclared properties and validated; and the answer that is sent in its place.
import type { Context } from 'hono'
import { jsonValue } from './json-value'
import { PROBLEM_JSON, problemDetails } from './problem'
import type { ResponseValidationErrorHandler, ResponseValidationIssue } from './response-types'
import { type StandardResult, toPointer, type ValidateFn } from './standard'
import { type Removed, UnresolvedSchemaError } from './strip'

/** How the body under one declared status is checked. */
export interface StatusCheck {
  strip: (value: unknown, removed?: Removed) => unknown
  validate: ValidateFn | undefined
}

/**
 * What `c.json()` stripped before serialising, for the status it expected. `unresolved` when the
 * schema could not say what is declared (`stripped` is then `null`, which is what was built).
 */
export interface EarlyStrip {
  status: number
  stripped: unknown
  removed: Removed | undefined
  unresolved?: UnresolvedSchemaError
}

/** What a {@link ResponseChecker} is made of: a route's mode, path, statuses and their checks. */
export interface ResponseCheckerParts {
  mode: ResponseValidationIssue['mode']
  path: string
  /** Every status the operation declares. */
  declared: ReadonlySet<number>
  /** Per declared status with a JSON schema, how its body is checked. */
  checks: ReadonlyMap<number, StatusCheck>
  hook: ResponseValidationErrorHandler | undefined
}

/** A JSON media type (`application/json`, `application/*+json`). */
export const JSON_MEDIA = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i
const UNDECLARED = 'Undeclared property'

/**
 * Checks the answers of one route. Its methods return what to send instead of the answer (or the
 * answer itself), and a promise only when something awaits: a synchronous answer with a
 * synchronous schema is checked without a microtask in between.
 */
export class ResponseChecker {
  readonly mode: ResponseValidationIssue['mode']
  /** 'report' sends what was built; the others send only what they checked. */
  private readonly refuses: boolean
  private readonly path: string
  private readonly declared: ReadonlySet<number>
  private readonly checks: ReadonlyMap<number, StatusCheck>
  private readonly hook: ResponseValidationErrorHandler | undefined

  constructor(parts: ResponseCheckerParts) {
    this.mode = parts.mode
    this.refuses = parts.mode !== 'report'
    this.path = parts.path
    this.declared = parts.declared
    this.checks = parts.checks
    this.hook = parts.hook
  }

  /**
   * What `c.json()` strips before serialising under `status` (see `checked-handler.ts`), or
   * undefined when the status has no schema. 'strip' and 'strict' only.
   */
  stripFor(status: number, object: unknown): EarlyStrip | undefined {
    const declaredCheck = this.checks.get(status)
    if (declaredCheck === undefined) return undefined
    const removed: Removed | undefined = this.mode === 'strip' ? undefined : []
    const { stripped, unresolved } = stripSafely(declaredCheck, object, removed)
    return unresolved ? { status, stripped, removed, unresolved } : { status, stripped, removed }
  }

  /**
   * What to send instead of `res` (or `res` itself). `built` is the response the handler's
   * `c.json()` built from `body`; `early` is what `c.json()` already stripped before serialising
   * (the response then carries the stripped body, and only the validation is left).
   */
  check(
    c: Context,
    res: unknown,
    built: Response | undefined,
    body: unknown,
    early?: EarlyStrip,
  ): unknown | Promise<unknown> {
    if (!(res instanceof Response) || res.status === 304 || c.req.method === 'HEAD') return res
    const status = res.status
    // The Content-Type is read only where it decides something: reading `res.headers` turns
    // @hono/node-server's lightweight response into an undici one, and the server then copies
    // its Headers back into a record (issue 42: 12–15 µs a request over HTTP for a declared
    // status without a schema, the common route).
    if (!this.declared.has(status)) {
      // A JSON body under a status the document does not declare: nothing says what may leave.
      const issue = this.issueOf(c, 'undeclared_status', status, [])
      return res === built || isJSON(res)
        ? this.refuse(c, res, issue)
        : this.report(c, issue).then(() => res)
    }
    const declaredCheck = this.checks.get(status)
    if (declaredCheck === undefined) return res
    if (res !== built && !isJSON(res)) return this.otherMedia(c, res, status)
    if (res !== built) return this.checkSerialised(c, res, declaredCheck)
    const sentStripped = early !== undefined && early.status === status
    if (sentStripped && early.unresolved) {
      return this.refuse(c, res, this.unresolvedIssue(c, status, early.unresolved))
    }
    const removed: Removed | undefined = sentStripped
      ? early.removed
      : this.mode === 'strip'
        ? undefined
        : []
    let stripped: unknown
    if (sentStripped) stripped = early.stripped
    else {
      const result = stripSafely(declaredCheck, body, removed)
      if (result.unresolved) {
        return this.refuse(c, res, this.unresolvedIssue(c, status, result.unresolved))
      }
      stripped = result.stripped
    }
    return this.validated(c, res, body, stripped, removed, status, sentStripped, declaredCheck)
  }

  /**
   * A JSON answer the handler's `c.json()` did not build (`c.body()`, `new Response()`, a route
   * middleware's answer): read, parsed, then stripped and validated like the others.
   */
  private async checkSerialised(
    c: Context,
    res: Response,
    declaredCheck: StatusCheck,
  ): Promise<unknown> {
    const status = res.status
    // A compressed body cannot be read here; nothing unread leaves.
    if (res.headers.has('content-encoding')) {
      return this.refuse(
        c,
        res,
        this.issueOf(c, 'invalid_body', status, [{ path: '', message: 'Encoded JSON body' }]),
      )
    }
    const text = await res.text()
    const read = new Response(text, res)
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return this.refuse(
        c,
        read,
        this.issueOf(c, 'invalid_body', status, [{ path: '', message: 'Not JSON' }]),
      )
    }
    const removed: Removed | undefined = this.mode === 'strip' ? undefined : []
    const result = stripSafely(declaredCheck, body, removed)
    if (result.unresolved) {
      return this.refuse(c, read, this.unresolvedIssue(c, status, result.unresolved))
    }
    return this.validated(c, read, body, result.stripped, removed, status, false, declaredCheck)
  }

  /**
   * An answer under a status the route declares as JSON with a schema, sent with another media
   * type (`c.text()`, `new Response(text)` without a JSON Content-Type, a stream): the document
   * promises JSON there, so a client built from it would fail on this body. Nothing in it can be
   * stripped or validated; it is reported (as `invalid_body`, naming the media type) and sent, as
   * a non-JSON answer under an undeclared status is.
   */
  private otherMedia(c: Context, res: Response, status: number): Promise<Response> {
    const type = res.headers.get('content-type')
    const message = type ? `Not a JSON media type (${type})` : 'No Content-Type'
    return this.report(c, this.issueOf(c, 'invalid_body', status, [{ path: '', message }])).then(
      () => res,
    )
  }

  /** `finish` once the stripped body (the JSON form of the body in `'report'`) is validated. */
  private validated(
    c: Context,
    res: Response,
    body: unknown,
    stripped: unknown,
    removed: Removed | undefined,
    status: number,
    sentStripped: boolean,
    declaredCheck: StatusCheck,
  ): unknown | Promise<unknown> {
    if (!declaredCheck.validate) {
      return this.finish(c, res, body, stripped, removed, status, sentStripped, undefined)
    }
    const r = declaredCheck.validate(this.mode === 'report' ? jsonValue(body) : stripped)
    return typeof (r as Promise<StandardResult>).then === 'function'
      ? (r as Promise<StandardResult>).then((v) =>
          this.finish(c, res, body, stripped, removed, status, sentStripped, v),
        )
      : this.finish(c, res, body, stripped, removed, status, sentStripped, r as StandardResult)
  }

  /** The answer once the body is validated: `res`, a stripped copy, or the 500. */
  private finish(
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
      if (this.mode === 'report' || stripped === body || sentStripped) return res
      return withBody(res, JSON.stringify(stripped))
    }
    const errors: ResponseValidationIssue['errors'] = []
    if (removed) for (const path of removed) errors.push({ path, message: UNDECLARED })
    if (issues) {
      for (const issue of issues)
        errors.push({ path: toPointer(issue.path), message: issue.message })
      if (issues.length === 0) errors.push({ path: '', message: 'Invalid value' })
    }
    return this.refuse(c, res, this.issueOf(c, 'invalid_body', status, errors))
  }

  /** The 500 for a body the check refuses (or `res` in `'report'`), once the hook has it. */
  private refuse(c: Context, res: Response, issue: ResponseValidationIssue): Promise<Response> {
    return this.report(c, issue).then(() => (this.refuses ? invalidResponse(res) : res))
  }

  private async report(c: Context, issue: ResponseValidationIssue): Promise<void> {
    if (this.hook) await this.hook(issue, c)
  }

  private issueOf(
    c: Context,
    kind: ResponseValidationIssue['kind'],
    status: number,
    errors: ResponseValidationIssue['errors'],
  ): ResponseValidationIssue {
    return { kind, mode: this.mode, method: c.req.method, path: this.path, status, errors }
  }

  private unresolvedIssue(
    c: Context,
    status: number,
    error: UnresolvedSchemaError,
  ): ResponseValidationIssue {
    return this.issueOf(c, 'invalid_body', status, [
      { path: error.pointer, message: error.message },
    ])
  }
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
