import type { Answers, RejectOrRecordFor, RejectsFrom } from '../internal/outcomes/answers'
import { rejectOrRecord as rejectOrRecordAny } from '../internal/outcomes/reject-or-record'

/** Every answer `xssSanitize` gives instead of calling `next()`. */
export const ANSWERS = [
  { status: 400, code: 'malformed_body', description: 'Malformed JSON body' },
  { status: 400, code: 'body_too_deep', description: 'JSON body nested deeper than 1,000 levels' },
  {
    status: 415,
    code: 'unsupported_media_type',
    description: 'JSON body sent with a content coding (Content-Encoding)',
  },
] as const satisfies Answers

/** `xssSanitize()`'s return type: what `hc` knows it can answer. */
export type XssSanitizeRejects = RejectsFrom<typeof ANSWERS>

/** `rejectOrRecord()` taking only the statuses and codes above. */
export const rejectOrRecord: RejectOrRecordFor<typeof ANSWERS> = rejectOrRecordAny
