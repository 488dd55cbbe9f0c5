import type { Answers, RefuseFor, RejectsFrom } from '../internal/answers'
import { refuse as refuseAny } from '../internal/refuse'

/** Every answer `ipGuard` gives instead of calling `next()`. */
export const ANSWERS = [
  { status: 403, code: 'ip_denied', description: 'Client address not allowed' },
] as const satisfies Answers

/** `ipGuard()`'s return type: what `hc` knows it can answer. */
export type IpGuardRejects = RejectsFrom<typeof ANSWERS>

/** `refuse()` taking only the statuses and codes above. */
export const refuse: RefuseFor<typeof ANSWERS> = refuseAny
