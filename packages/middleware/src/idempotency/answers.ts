import type {
  Answers,
  RejectFor,
  RejectOrRecordFor,
  RejectsFrom,
} from '../internal/outcomes/answers'
import { reject as rejectAny } from '../internal/outcomes/reject'
import { rejectOrRecord as rejectOrRecordAny } from '../internal/outcomes/reject-or-record'

/** What `idempotency`'s answers depend on. */
export interface IdempotencySetup {
  /** `required: true`: a request without the header is refused. */
  required: boolean
  /** A store that can fail (any but the memory store). */
  storeCanFail: boolean
  /** A failing store lets requests through instead of answering 503. */
  failOpen: boolean
}

/** Every answer `idempotency` gives instead of calling `next()`, and when it can. */
export const ANSWERS = [
  {
    status: 400,
    code: 'idempotency_key_missing',
    description: 'Missing Idempotency-Key header',
    when: (o) => o.required,
  },
  {
    status: 400,
    code: 'idempotency_key_invalid',
    description: 'Malformed Idempotency-Key (one Structured Fields string of 1 to 255 characters)',
  },
  {
    status: 409,
    code: 'idempotency_in_flight',
    description: 'A request with this Idempotency-Key is still being processed',
  },
  {
    status: 422,
    code: 'idempotency_key_reused',
    description: 'This Idempotency-Key was used for a different request',
  },
  {
    status: 503,
    code: 'store_unavailable',
    description: 'The idempotency store is unavailable',
    when: (o) => o.storeCanFail && !o.failOpen,
  },
] as const satisfies Answers<IdempotencySetup>

/** `idempotency()`'s return type: what `hc` knows it can answer. */
export type IdempotencyRejects = RejectsFrom<typeof ANSWERS>

/** `reject()` taking only the statuses and codes above. */
export const reject: RejectFor<typeof ANSWERS> = rejectAny
/** `rejectOrRecord()` taking only the statuses and codes above. */
export const rejectOrRecord: RejectOrRecordFor<typeof ANSWERS> = rejectOrRecordAny
