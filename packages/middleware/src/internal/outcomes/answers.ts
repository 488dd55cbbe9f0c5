import type { RejectionCode } from '@palisade/shared/codes'
import type { DescribedHeader, DescribedResponse, Rejects } from '@palisade/shared/describe'
import type { ProblemFieldError } from '@palisade/shared/problem'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { Pending } from './decisions'

// A middleware's answers (each status and code it can reject with) are declared once, in a table
// beside it (`<feature>/answers.ts`). Everything else is derived from that table: the phantom
// `Rejects<…>` type `hc` reads, the responses of the self-description, the codes the feature's
// `reject()` and `rejectOrRecord()` accept, and the rows of docs/guide/rejection-codes.md and of the
// feature's docs page (a test compares them). `src/answers.test.ts` fails when a feature can throw
// a code its table lacks.

/** One of the named codes of `RejectionCode` (the shared list), not an app's own string. */
export type KnownCode = RejectionCode extends infer C
  ? C extends string
    ? string extends C
      ? never
      : C
    : never
  : never

/**
 * One answer a middleware gives instead of calling `next()`. `O` is what its instance was
 * configured with, as far as the answers depend on it.
 */
export interface Answer<O = undefined> {
  readonly status: ContentfulStatusCode
  readonly code: KnownCode
  /**
   * What it means, for the OpenAPI response: the rows of one status make one sentence
   * (`Missing bearer token, or invalid bearer token (…)`).
   */
  readonly description: string | ((options: O) => string)
  /** Whether the instance can give it at all; absent: always. */
  readonly when?: (options: O) => boolean
}

/** A middleware's table: every answer it can give, declared `as const`. */
export type Answers<O = undefined> = readonly Answer<O>[]

/** The codes of `T` by status: `{ 401: 'token_missing' | 'token_invalid', 503: … }`. */
export type AnswerCodes<T extends Answers<never>> = {
  [S in T[number]['status']]: Extract<T[number], { readonly status: S }>['code']
}

/**
 * The phantom return type a middleware with table `T` carries, for `hc`: every answer it can give
 * under some options (the description lists only those its own options make possible).
 */
export type RejectsFrom<T extends Answers<never>> = Rejects<AnswerCodes<T>>

/**
 * `reject()` narrowed to the statuses of table `T`, each with its own codes. A feature's
 * `answers.ts` exports the ground floor's `reject` under this type (`export const reject:
 * RejectFor<typeof ANSWERS> = rejectAny`), and the feature imports it from there: a code its
 * table lacks does not compile, and nothing is added at run time.
 */
export type RejectFor<T extends Answers<never>> = <S extends T[number]['status']>(
  status: S,
  message: string,
  code: AnswerCodes<T>[S],
  headers?: Record<string, string>,
) => never

/** `rejectOrRecord()` narrowed to the statuses of table `T`, each with its own codes (as {@link RejectFor}). */
export type RejectOrRecordFor<T extends Answers<never>> = <S extends T[number]['status']>(
  p: Pending | undefined,
  dryRun: boolean,
  status: S,
  message: string,
  code: AnswerCodes<T>[S],
  headers?: Record<string, string>,
  errors?: readonly ProblemFieldError[],
) => void

/**
 * The self-description's responses from a table: the answers `options` make possible, one
 * response per status (in table order) with the codes of its rows and `headers[status]`.
 *
 * @example
 * // in jwt-auth/description.ts, with jwtAuth's table
 * responsesOf(ANSWERS, { scopes: [], remote: false }, { 401: [challenge] })
 * // [{ status: 401, description: 'Missing bearer token, or invalid …', codes: ['token_missing', 'token_invalid'], headers: [challenge] }]
 */
export function responsesOf<O>(
  table: Answers<O>,
  options: O,
  headers: { readonly [status: number]: DescribedHeader[] } = {},
): DescribedResponse[] {
  const responses: (DescribedResponse & { codes: string[] })[] = []
  for (const row of table) {
    if (row.when && !row.when(options)) continue
    const text = typeof row.description === 'function' ? row.description(options) : row.description
    const same = responses.find((r) => r.status === row.status)
    if (same) {
      same.codes.push(row.code)
      // "Missing bearer token, or invalid bearer token": one sentence, an acronym kept as it is.
      same.description += `, or ${/^[A-Z][a-z]/.test(text) ? text[0]?.toLowerCase() + text.slice(1) : text}`
      continue
    }
    const extra = headers[row.status]
    responses.push({
      status: row.status,
      description: text,
      codes: [row.code],
      ...(extra ? { headers: extra } : {}),
    })
  }
  return responses
}
