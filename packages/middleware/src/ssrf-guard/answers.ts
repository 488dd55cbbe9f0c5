import type { Answers, RefuseFor, RejectsFrom } from '../internal/answers'
import { refuse as refuseAny } from '../internal/refuse'

/** Every answer `ssrfGuard` gives instead of calling `next()`. */
export const ANSWERS = [
  { status: 400, code: 'url_invalid', description: 'Invalid URL (not http or https)' },
  {
    status: 403,
    code: 'url_forbidden',
    description: 'The URL points to a private, loopback or metadata address',
  },
] as const satisfies Answers

/** `ssrfGuard()`'s return type: what `hc` knows it can answer. */
export type SsrfGuardRejects = RejectsFrom<typeof ANSWERS>

/** `refuse()` taking only the statuses and codes above. */
export const refuse: RefuseFor<typeof ANSWERS> = refuseAny
