import type { Answers, RejectOrRecordFor, RejectsFrom } from '../internal/outcomes/answers'
import { rejectOrRecord as rejectOrRecordAny } from '../internal/outcomes/reject-or-record'

/** What `contentTypeGuard`'s answers depend on. */
export interface ContentTypeGuardSetup {
  /** The accepted media types (`type/*` allowed). */
  required: readonly string[]
}

/** Every answer `contentTypeGuard` gives instead of calling `next()`. */
export const ANSWERS = [
  {
    status: 415,
    code: 'unsupported_media_type',
    description: (o) => `Content-Type is not ${o.required.join(' or ')}`,
  },
] as const satisfies Answers<ContentTypeGuardSetup>

/** `contentTypeGuard()`'s return type: what `hc` knows it can answer. */
export type ContentTypeGuardRejects = RejectsFrom<typeof ANSWERS>

/** `rejectOrRecord()` taking only the statuses and codes above. */
export const rejectOrRecord: RejectOrRecordFor<typeof ANSWERS> = rejectOrRecordAny
