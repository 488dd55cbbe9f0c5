// The public types of `@palisade/openapi/fuzz`.

/**
 * One operation of the document, as the auth hook and the filter see it.
 *
 * @example
 * const op: FuzzOperation = { method: 'POST', path: '/users', operationId: 'createUser', security: [] }
 */
export interface FuzzOperation {
  /** Upper case. */
  method: string
  /** As documented: `/users/{id}`. */
  path: string
  operationId?: string
  /** The operation's security requirements (`[]`: public). */
  security: Record<string, string[]>[]
}

/**
 * What the auth hook adds to a request: headers (a bearer token, an API key, a CSRF header) and
 * cookies (a session, the CSRF cookie).
 *
 * @example
 * const auth: FuzzAuth = { headers: { authorization: `Bearer ${token}` } }
 */
export interface FuzzAuth {
  headers?: Record<string, string>
  cookies?: Record<string, string>
}

/**
 * Options of {@link fuzz}.
 *
 * @example
 * const options: FuzzOptions = { runs: 50, seed: 42, auth: () => ({ headers: { 'x-api-key': key } }) }
 */
export interface FuzzOptions {
  /** Generated requests per operation (valid ones and near misses), before shrinking. Default 100. */
  runs?: number
  /** Seed of the run; the report carries it, so a run can be repeated. Default: random. */
  seed?: number
  /**
   * Credentials for one request of `operation`; called before every request, with the request
   * about to be sent (its method, URL and body), so a hook can sign the body (a webhook's
   * signature headers, `signWebhook()`).
   */
  auth?: (
    operation: FuzzOperation,
    request: Readonly<Pick<FuzzRequest, 'method' | 'url' | 'body'>>,
  ) => FuzzAuth | undefined | Promise<FuzzAuth | undefined>
  /** Which operations to fuzz. Default: all. */
  filter?: (operation: FuzzOperation) => boolean
  /** Headers sent on every request (e.g. `X-Forwarded-For` for a rate limiter's key). */
  headers?: Record<string, string>
  /** Passed as the third argument of `app.request()` (bindings on Workers). */
  env?: unknown
  /**
   * `'fail'` (default): a JSON body property the documented object schema does not declare is a
   * failure, as nothing undeclared should leave the app; `'allow'`: JSON Schema's own rule (an
   * object without `additionalProperties` accepts any other property).
   */
  extraProperties?: 'fail' | 'allow'
  /**
   * Stateful fuzzing over the document's links: after a valid request answered as documented,
   * each link of its response is followed (its expressions evaluated against that request and
   * response) and the linked operation's answer judged. `max` chains started per operation
   * (default 10), `depth` links in a row (default 3); `false` follows none.
   */
  links?: false | { max?: number; depth?: number }
  /** Called once per failure, after shrinking (the CLI prints them). */
  onFailure?: (failure: FuzzFailure) => void
  /** Called once per operation no request could be generated for (the CLI prints them). */
  onSkipped?: (skipped: FuzzSkipped) => void
}

/**
 * A request as the fuzzer sent it.
 *
 * @example
 * const request: FuzzRequest = { method: 'POST', url: '/users', headers: {}, body: '{}', kind: 'valid' }
 */
export interface FuzzRequest {
  method: string
  /** Path and query, percent-encoded as sent. */
  url: string
  headers: Record<string, string>
  body?: string
  /** `valid`, or which near miss it is (`wrong type at /name`, `missing /email`, …). */
  kind: string
}

/**
 * One operation the app answered against its document, with the smallest request that shows it.
 *
 * @example
 * const failure: FuzzFailure = {
 *   method: 'GET', path: '/users/{id}', status: 500, reason: 'server error (500)',
 *   request: { method: 'GET', url: '/users/0', headers: {}, kind: 'valid' },
 * }
 */
export interface FuzzFailure {
  method: string
  path: string
  request: FuzzRequest
  status: number
  reason: string
}

/**
 * An operation the fuzzer sent nothing to: no request could be generated from its schemas (a
 * schema nothing satisfies, such as an email of at most 3 characters, or one asking for more
 * than the fuzzer builds, such as a `minLength` of 10,000,000).
 *
 * @example
 * const skipped: FuzzSkipped = {
 *   method: 'POST', path: '/signup', pointer: '/body/email',
 *   reason: 'no email address with 0 to 3 characters in 200 attempts',
 * }
 */
export interface FuzzSkipped {
  method: string
  path: string
  /** Where in the request: `/body/email`, `/query/limit`, `/path/id`, `/header/x-id`. */
  pointer: string
  reason: string
}

/**
 * What a fuzz run found.
 *
 * @example
 * const report: FuzzReport = await fuzz(api, { seed: 1 })
 * if (report.failures.length > 0) process.exitCode = 1
 */
export interface FuzzReport {
  /** The seed: `fuzz(api, { seed })` repeats the run. */
  seed: number
  /** Operations fuzzed (those in `skipped` not counted). */
  operations: number
  /** Requests sent, shrinking included. */
  requests: number
  /** How many responses had each status. */
  statuses: Record<string, number>
  failures: FuzzFailure[]
  /** Operations no request could be generated for, with where and why; the others were fuzzed. */
  skipped: FuzzSkipped[]
  /** Each link of the document the run met, and how often it was followed. */
  links: FuzzLink[]
}

/**
 * One link the fuzzer met in an answer, and what following it gave.
 *
 * @example
 * const link: FuzzLink = {
 *   from: 'POST /comments 201', link: 'GetComment', to: 'GET /comments/{id}',
 *   followed: 12, statuses: { 200: 12 },
 * }
 */
export interface FuzzLink {
  /** The operation and status whose response declares the link. */
  from: string
  /** The link's name. */
  link: string
  /** The operation it leads to; undefined when that is not fuzzed (filtered out, or external). */
  to?: string
  /** Calls made through it. */
  followed: number
  /** How the linked operation answered them. */
  statuses: Record<string, number>
}
