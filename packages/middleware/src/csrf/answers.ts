import type { Answers, RejectOrRecordFor, RejectsFrom } from '../internal/outcomes/answers'
import { rejectOrRecord as rejectOrRecordAny } from '../internal/outcomes/reject-or-record'

/** Every answer `csrf` gives instead of calling `next()`. */
export const ANSWERS = [
  // One code for every failure (missing, mismatched, unsigned): probing learns nothing.
  { status: 403, code: 'csrf_token_invalid', description: 'Invalid CSRF token' },
] as const satisfies Answers

/** `csrf()`'s return type: what `hc` knows it can answer. */
export type CsrfRejects = RejectsFrom<typeof ANSWERS>

/** `rejectOrRecord()` taking only the statuses and codes above. */
export const rejectOrRecord: RejectOrRecordFor<typeof ANSWERS> = rejectOrRecordAny
