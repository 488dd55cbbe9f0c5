import type { Answers, RejectFor, RejectsFrom } from '../internal/outcomes/answers'
import { reject as rejectAny } from '../internal/outcomes/reject'

/** What `requestTimeout`'s answers depend on. */
export interface RequestTimeoutSetup {
  /** Time the handler chain has, in milliseconds. */
  ms: number
}

/** Every answer `requestTimeout` gives instead of calling `next()`. */
export const ANSWERS = [
  { status: 408, code: 'request_timeout', description: (o) => `No response within ${o.ms} ms` },
] as const satisfies Answers<RequestTimeoutSetup>

/** `requestTimeout()`'s return type: what `hc` knows it can answer. */
export type RequestTimeoutRejects = RejectsFrom<typeof ANSWERS>

/** `reject()` taking only the statuses and codes above. */
export const reject: RejectFor<typeof ANSWERS> = rejectAny
