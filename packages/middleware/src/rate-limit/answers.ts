import type { Answers, RejectFor, RejectsFrom } from '../internal/outcomes/answers'
import { reject as rejectAny } from '../internal/outcomes/reject'

/** What `rateLimit`'s answers depend on. */
export interface RateLimitSetup {
  /** A store that can fail (any but the memory store). */
  storeCanFail: boolean
  /** A failing store lets requests through instead of answering 503. */
  failOpen: boolean
}

/** Every answer `rateLimit` gives instead of calling `next()`, and when it can. */
export const ANSWERS = [
  { status: 429, code: 'rate_limited', description: 'Too many requests' },
  {
    status: 503,
    code: 'store_unavailable',
    description: 'The rate limit store is unavailable',
    when: (o) => o.storeCanFail && !o.failOpen,
  },
] as const satisfies Answers<RateLimitSetup>

/** `rateLimit()`'s return type: what `hc` knows it can answer. */
export type RateLimitRejects = RejectsFrom<typeof ANSWERS>

/** `reject()` taking only the statuses and codes above. */
export const reject: RejectFor<typeof ANSWERS> = rejectAny
