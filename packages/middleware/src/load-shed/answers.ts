import type {
  Answers,
  RejectFor,
  RejectOrRecordFor,
  RejectsFrom,
} from '../internal/outcomes/answers'
import { reject as rejectAny } from '../internal/outcomes/reject'
import { rejectOrRecord as rejectOrRecordAny } from '../internal/outcomes/reject-or-record'

/** Every answer `loadShed` gives instead of calling `next()`. */
export const ANSWERS = [
  { status: 503, code: 'overloaded', description: 'The server is overloaded; retry later' },
] as const satisfies Answers

/** `loadShed()`'s return type: what `hc` knows it can answer. */
export type LoadShedRejects = RejectsFrom<typeof ANSWERS>

/** `reject()` taking only the statuses and codes above. */
export const reject: RejectFor<typeof ANSWERS> = rejectAny
/** `rejectOrRecord()` taking only the statuses and codes above. */
export const rejectOrRecord: RejectOrRecordFor<typeof ANSWERS> = rejectOrRecordAny
