import type { Answers, RejectOrRecordFor, RejectsFrom } from '../internal/outcomes/answers'
import { rejectOrRecord as rejectOrRecordAny } from '../internal/outcomes/reject-or-record'

/** Every answer `botGuard` gives instead of calling `next()`. */
export const ANSWERS = [
  {
    status: 403,
    code: 'bot_denied',
    description: 'The client is a bot of a denied category (by default, a spoofed crawler)',
  },
] as const satisfies Answers

/** `botGuard()`'s return type: what `hc` knows it can answer. */
export type BotGuardRejects = RejectsFrom<typeof ANSWERS>

/** `rejectOrRecord()` taking only the statuses and codes above. */
export const rejectOrRecord: RejectOrRecordFor<typeof ANSWERS> = rejectOrRecordAny
