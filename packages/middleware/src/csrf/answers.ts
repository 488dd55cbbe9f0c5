import type { Answers, RefuseFor, RejectsFrom } from '../internal/answers'
import { refuse as refuseAny } from '../internal/refuse'

/** Every answer `csrf` gives instead of calling `next()`. */
export const ANSWERS = [
  // One code for every failure (missing, mismatched, unsigned): probing learns nothing.
  { status: 403, code: 'csrf_token_invalid', description: 'Invalid CSRF token' },
] as const satisfies Answers

/** `csrf()`'s return type: what `hc` knows it can answer. */
export type CsrfRejects = RejectsFrom<typeof ANSWERS>

/** `refuse()` taking only the statuses and codes above. */
export const refuse: RefuseFor<typeof ANSWERS> = refuseAny
