import type {
  Answers,
  RejectFor,
  RejectOrRecordFor,
  RejectsFrom,
} from '../internal/outcomes/answers'
import { reject as rejectAny } from '../internal/outcomes/reject'
import { rejectOrRecord as rejectOrRecordAny } from '../internal/outcomes/reject-or-record'

/** What `concurrencyLimit`'s answers depend on. */
export interface ConcurrencyLimitSetup {
  /** A store that can fail (any but the memory store). */
  storeCanFail: boolean
  /** A failing store lets requests through instead of answering 503. */
  failOpen: boolean
}

/** Every answer `concurrencyLimit` gives instead of calling `next()`, and when it can. */
export const ANSWERS = [
  { status: 429, code: 'concurrency_limited', description: 'Too many concurrent requests' },
  {
    status: 503,
    code: 'store_unavailable',
    description: 'The concurrency store is unavailable',
    when: (o) => o.storeCanFail && !o.failOpen,
  },
] as const satisfies Answers<ConcurrencyLimitSetup>

/** `concurrencyLimit()`'s return type: what `hc` knows it can answer. */
export type ConcurrencyLimitRejects = RejectsFrom<typeof ANSWERS>

/** `reject()` taking only the statuses and codes above. */
export const reject: RejectFor<typeof ANSWERS> = rejectAny
/** `rejectOrRecord()` taking only the statuses and codes above. */
export const rejectOrRecord: RejectOrRecordFor<typeof ANSWERS> = rejectOrRecordAny
