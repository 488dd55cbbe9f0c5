import type { Answers, RejectFor, RejectsFrom } from '../internal/outcomes/answers'
import { reject as rejectAny } from '../internal/outcomes/reject'

/** What `sessions`' answers depend on. */
export interface SessionsSetup {
  /** A store that can fail (any but the memory store). */
  storeCanFail: boolean
}

/** Every answer `sessions` gives instead of calling `next()`. */
export const ANSWERS = [
  {
    status: 503,
    code: 'store_unavailable',
    description: 'The session store is unavailable',
    when: (o) => o.storeCanFail,
  },
] as const satisfies Answers<SessionsSetup>

/** `sessions()`'s return type: what `hc` knows it can answer. */
export type SessionsRejects = RejectsFrom<typeof ANSWERS>

/** `reject()` taking only the statuses and codes above. */
export const reject: RejectFor<typeof ANSWERS> = rejectAny
