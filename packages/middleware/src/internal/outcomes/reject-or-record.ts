import type { ProblemFieldError } from '@palisade/shared/problem'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { optionError } from '../options'
import { decide, type Pending } from './decisions'
import { reject } from './reject'
import { Rejection, type RejectionCode } from './rejection'

/**
 * The one place a guard refuses: rejects (throws the rejection and records it), or, in dry run,
 * records `dry-run` with the code the request would have got and returns so the request passes.
 * `errors` name the part of the request at fault, as request validation does.
 */
export function rejectOrRecord(
  p: Pending | undefined,
  dryRun: boolean,
  status: ContentfulStatusCode,
  message: string,
  code: RejectionCode,
  headers?: Record<string, string>,
  errors?: readonly ProblemFieldError[],
): void {
  decide(p, dryRun ? 'dry-run' : 'reject', code, status)
  if (dryRun) return
  if (errors !== undefined) throw new Rejection(status, message, code, headers, errors)
  reject(status, message, code, headers)
}

/**
 * Auth middleware take no `dryRun`: a handler must never run without the identity it relies on.
 * Named here so the error says why instead of "unknown option".
 */
export function assertNoDryRun(factory: string, options: unknown): void {
  if (options !== null && typeof options === 'object' && Object.hasOwn(options, 'dryRun')) {
    throw optionError(
      factory,
      '"dryRun" is not available on authentication middleware: a handler must never run without the identity it relies on',
    )
  }
}
