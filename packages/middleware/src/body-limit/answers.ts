import type {
  Answers,
  RejectFor,
  RejectOrRecordFor,
  RejectsFrom,
} from '../internal/outcomes/answers'
import { reject as rejectAny } from '../internal/outcomes/reject'
import { rejectOrRecord as rejectOrRecordAny } from '../internal/outcomes/reject-or-record'

/** What `bodyLimit`'s answers depend on. */
export interface BodyLimitSetup {
  /** Largest accepted body in bytes. */
  max: number
}

/** Every answer `bodyLimit` gives instead of calling `next()`. */
export const ANSWERS = [
  {
    status: 413,
    code: 'body_too_large',
    description: (o) => `Request body larger than ${o.max} bytes`,
  },
  // Only where the body is counted as it arrives (no runtime framed it by Content-Length).
  {
    status: 400,
    code: 'content_length_mismatch',
    description: 'Content-Length does not match the body',
  },
  { status: 400, code: 'body_unreadable', description: 'The request body could not be read' },
] as const satisfies Answers<BodyLimitSetup>

/** `bodyLimit()`'s return type: what `hc` knows it can answer. */
export type BodyLimitRejects = RejectsFrom<typeof ANSWERS>

/** `reject()` taking only the statuses and codes above. */
export const reject: RejectFor<typeof ANSWERS> = rejectAny
/** `rejectOrRecord()` taking only the statuses and codes above. */
export const rejectOrRecord: RejectOrRecordFor<typeof ANSWERS> = rejectOrRecordAny
