import type { Answers, RejectOrRecordFor, RejectsFrom } from '../internal/outcomes/answers'
import { rejectOrRecord as rejectOrRecordAny } from '../internal/outcomes/reject-or-record'

/** What `shield`'s answers depend on. */
export interface ShieldSetup {
  /** `uninspected: 'refuse'`: a body shield cannot inspect whole is refused. */
  refuseUninspected: boolean
}

/**
 * Every answer `shield` gives instead of calling `next()`. The 403 says nothing about which
 * rule fired, nor whether the client is banned; the decision says both. With `uninspected:
 * 'refuse'`, a body shield could not inspect whole is refused: longer than `maxInspectBytes`
 * (413), or in a content coding this runtime does not decode (415, with `Accept-Encoding`).
 */
export const ANSWERS = [
  {
    status: 403,
    code: 'attack_detected',
    description: 'Request blocked: it carries an attack, or its client is banned after several',
  },
  {
    status: 413,
    code: 'body_too_large',
    description: 'The body is longer than shield inspects',
    when: (o) => o.refuseUninspected,
  },
  {
    status: 415,
    code: 'unsupported_media_type',
    description: "The body's Content-Encoding is not one shield decodes",
    when: (o) => o.refuseUninspected,
  },
] as const satisfies Answers<ShieldSetup>

/** `shield()`'s return type: what `hc` knows it can answer. */
export type ShieldRejects = RejectsFrom<typeof ANSWERS>

/** `rejectOrRecord()` taking only the statuses and codes above. */
export const rejectOrRecord: RejectOrRecordFor<typeof ANSWERS> = rejectOrRecordAny
