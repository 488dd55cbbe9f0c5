import type { Answers, RefuseFor, RejectsFrom } from '../internal/answers'
import { refuse as refuseAny } from '../internal/refuse'

/** Every answer `xssSanitize` gives instead of calling `next()`. */
export const ANSWERS = [
  { status: 400, code: 'malformed_body', description: 'Malformed JSON body' },
  { status: 400, code: 'body_too_deep', description: 'JSON body nested deeper than 1,000 levels' },
] as const satisfies Answers

/** `xssSanitize()`'s return type: what `hc` knows it can answer. */
export type XssSanitizeRejects = RejectsFrom<typeof ANSWERS>

/** `refuse()` taking only the statuses and codes above. */
export const refuse: RefuseFor<typeof ANSWERS> = refuseAny
