// Type-level side of the answers a route's middleware and its request validation give: what
// `hc<AppType>` sees for a 401, 403, 413, 415, 429, … and the validation 400, with `code`
// narrowed to the codes of the middleware that answers. Middleware carry their codes as a
// phantom (`Rejects<C>` from the description protocol); nothing here exists at run time.
import type { RejectionCodes } from '@palisade/shared/describe'
import type { ProblemFieldError } from '@palisade/shared/problem'
import type { TypedResponse } from 'hono/types'
import type { StatusCode } from 'hono/utils/http-status'

/**
 * The problem details body of a rejection with status `S` and code `C`, as `problemHandler()`
 * renders it (and request validation always does).
 *
 * @example
 * if (res.status === 429) {
 *   const problem: RejectionProblem<429, 'rate_limited'> = await res.json()
 * }
 */
export interface RejectionProblem<S = number, C = string> {
  type: string
  title: string
  status: S
  detail?: string
  code: C
  errors?: ProblemFieldError[]
}

/** The codes by status a middleware type carries (`never` for one that carries none). */
export type RejectsOf<M> = M extends { readonly '~rejects'?: infer C }
  ? unknown extends C
    ? never
    : C extends RejectionCodes
      ? C
      : never
  : never

/** Middleware added by `use()` at a path pattern, kept in the router's type when they reject. */
export interface UseRecord<Pt extends string = string, C = RejectionCodes> {
  pattern: Pt
  codes: C
}

/** The record of `use(pattern, ...middleware)` (`never` when none of them rejects). */
export type UseRecordOf<Pt extends string, M> = [RejectsOf<M>] extends [never]
  ? never
  : UseRecord<Pt, RejectsOf<M>>

/**
 * Whether Hono runs `use()` middleware registered at `Pt` for a route at `Path`, as far as
 * types can tell: `*`, `prefix/*` (which also matches `prefix`) and exact paths. A pattern with
 * a parameter or a wildcard elsewhere is not matched by type (the document stays exact).
 */
type Applies<Path extends string, Pt extends string> = Pt extends '*' | '/*'
  ? true
  : Pt extends `${infer X}/*`
    ? Path extends X | `${X}/${string}`
      ? true
      : false
    : Pt extends `${string}${'*' | ':'}${string}`
      ? false
      : Path extends Pt
        ? true
        : false

/** The codes of the `use()` records that apply to a route at `Path`. */
type UsedCodes<U, Path extends string> =
  U extends UseRecord<infer Pt, infer C> ? (Applies<Path, Pt> extends true ? C : never) : never

/** One middleware's answers, except the statuses the route declares itself (which win). */
type Answers<C, O, P extends boolean> = C extends RejectionCodes
  ? {
      [S in Exclude<keyof C, keyof O>]: P extends true
        ? TypedResponse<RejectionProblem<S, C[S]>, Extract<S, StatusCode>, 'json'>
        : TypedResponse<string, Extract<S, StatusCode>, 'text'>
    }[Exclude<keyof C, keyof O>]
  : never

/** Whether a route validates a body (then a wrong media type is answered 415). */
type HasBody<R> = R extends { body: unknown } | { form: unknown } ? true : false

/** The 400 (and 415) of request validation, always problem details. */
type ValidationAnswers<R, O> = [
  keyof R & ('body' | 'form' | 'query' | 'params' | 'headers'),
] extends [never]
  ? never
  :
      | (400 extends keyof O
          ? never
          : TypedResponse<
              RejectionProblem<400, 'validation_failed' | 'malformed_body'>,
              400,
              'json'
            >)
      | (HasBody<R> extends true
          ? 415 extends keyof O
            ? never
            : TypedResponse<RejectionProblem<415, 'unsupported_media_type'>, 415, 'json'>
          : never)

/**
 * Every answer a route gives before its handler runs, as `hc` sees it: those of the `use()`
 * middleware whose pattern matches `Path` (records `U`) and of the route's own middleware `M`,
 * as problem details with their codes when the app renders problems (`P`, set by
 * `onError(problemHandler())`), else as text; and the validation 400/415 of request schemas `R`.
 * Statuses the route declares itself (`O`) are left to the declaration.
 */
export type RejectionOutput<U, Path extends string, M, R, O, P extends boolean> =
  | Answers<UsedCodes<U, Path> | RejectsOf<M>, O, P>
  | ValidationAnswers<R, O>

/** `true` when an error handler renders rejections as problem details (`problemHandler()`). */
export type RendersProblems<H> = H extends { readonly '~rejectionBody'?: infer B }
  ? unknown extends B
    ? false
    : B extends 'problem'
      ? true
      : false
  : false
