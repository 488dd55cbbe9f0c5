import type { Answers, RejectOrRecordFor, RejectsFrom } from '../internal/outcomes/answers'
import { rejectOrRecord as rejectOrRecordAny } from '../internal/outcomes/reject-or-record'

/** What `ssrfGuard`'s answers depend on. */
export interface SsrfGuardSetup {
  /** No `extractUrl`: the default reader reads the body (and refuses a compressed one). */
  readsBody: boolean
}

/** Every answer `ssrfGuard` gives instead of calling `next()`, and when it can. */
export const ANSWERS = [
  { status: 400, code: 'url_invalid', description: 'Invalid URL (not http or https)' },
  {
    status: 403,
    code: 'url_forbidden',
    description: 'The URL points to a private, loopback or metadata address',
  },
  {
    status: 415,
    code: 'unsupported_media_type',
    description: 'The body is sent with a content coding (Content-Encoding)',
    when: (o) => o.readsBody,
  },
] as const satisfies Answers<SsrfGuardSetup>

/** `ssrfGuard()`'s return type: what `hc` knows it can answer. */
export type SsrfGuardRejects = RejectsFrom<typeof ANSWERS>

/** `rejectOrRecord()` taking only the statuses and codes above. */
export const rejectOrRecord: RejectOrRecordFor<typeof ANSWERS> = rejectOrRecordAny
