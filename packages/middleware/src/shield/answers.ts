import type { Answers, RejectOrRecordFor, RejectsFrom } from '../internal/outcomes/answers'
import { rejectOrRecord as rejectOrRecordAny } from '../internal/outcomes/reject-or-record'

/**
 * Every answer `shield` gives instead of calling `next()`. One row: the response says nothing
 * about which rule fired, nor whether the client is banned; the decision says both.
 */
export const ANSWERS = [
  {
    status: 403,
    code: 'attack_detected',
    description: 'Request blocked: it carries an attack, or its client is banned after several',
  },
] as const satisfies Answers

/** `shield()`'s return type: what `hc` knows it can answer. */
export type ShieldRejects = RejectsFrom<typeof ANSWERS>

/** `rejectOrRecord()` taking only the statuses and codes above. */
export const rejectOrRecord: RejectOrRecordFor<typeof ANSWERS> = rejectOrRecordAny
