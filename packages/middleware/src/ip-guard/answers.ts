import type { Answers, RejectOrRecordFor, RejectsFrom } from '../internal/outcomes/answers'
import { rejectOrRecord as rejectOrRecordAny } from '../internal/outcomes/reject-or-record'

/** Every answer `ipGuard` gives instead of calling `next()`. */
export const ANSWERS = [
  { status: 403, code: 'ip_denied', description: 'Client address not allowed' },
] as const satisfies Answers

/** `ipGuard()`'s return type: what `hc` knows it can answer. */
export type IpGuardRejects = RejectsFrom<typeof ANSWERS>

/** `rejectOrRecord()` taking only the statuses and codes above. */
export const rejectOrRecord: RejectOrRecordFor<typeof ANSWERS> = rejectOrRecordAny
