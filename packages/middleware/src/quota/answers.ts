import type {
  Answers,
  RejectFor,
  RejectOrRecordFor,
  RejectsFrom,
} from '../internal/outcomes/answers'
import { reject as rejectAny } from '../internal/outcomes/reject'
import { rejectOrRecord as rejectOrRecordAny } from '../internal/outcomes/reject-or-record'

/** What `quota`'s answers depend on. */
export interface QuotaSetup {
  /** A failing store lets requests through instead of answering 503. */
  failOpen: boolean
}

/** Every answer `quota` gives instead of calling `next()`, and when it can. */
export const ANSWERS = [
  { status: 429, code: 'quota_exceeded', description: "The period's quota is used up" },
  {
    status: 503,
    code: 'store_unavailable',
    description: 'The quota store is unavailable',
    when: (o) => !o.failOpen,
  },
] as const satisfies Answers<QuotaSetup>

/** `quota()`'s return type: what `hc` knows it can answer. */
export type QuotaRejects = RejectsFrom<typeof ANSWERS>

/** `reject()` taking only the statuses and codes above. */
export const reject: RejectFor<typeof ANSWERS> = rejectAny
/** `rejectOrRecord()` taking only the statuses and codes above. */
export const rejectOrRecord: RejectOrRecordFor<typeof ANSWERS> = rejectOrRecordAny
