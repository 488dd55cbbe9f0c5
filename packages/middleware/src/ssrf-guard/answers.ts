import type { Answers, RejectOrRecordFor, RejectsFrom } from '../internal/outcomes/answers'
import { rejectOrRecord as rejectOrRecordAny } from '../internal/outcomes/reject-or-record'

/** Every answer `ssrfGuard` gives instead of calling `next()`. */
export const ANSWERS = [
  { status: 400, code: 'url_invalid', description: 'Invalid URL (not http or https)' },
  {
    status: 403,
    code: 'url_forbidden',
    description: 'The URL points to a private, loopback or metadata address',
  },
] as const satisfies Answers

/** `ssrfGuard()`'s return type: what `hc` knows it can answer. */
export type SsrfGuardRejects = RejectsFrom<typeof ANSWERS>

/** `rejectOrRecord()` taking only the statuses and codes above. */
export const rejectOrRecord: RejectOrRecordFor<typeof ANSWERS> = rejectOrRecordAny
