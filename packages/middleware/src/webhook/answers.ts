import type { Answers, RejectFor, RejectsFrom } from '../internal/outcomes/answers'
import { reject as rejectAny } from '../internal/outcomes/reject'

/** What `webhook`'s answers depend on. */
export interface WebhookSetup {
  /** The preset signs a timestamp (every one but `github` and a custom one without). */
  timestamped: boolean
  /** Largest accepted body in bytes. */
  maxBodyBytes: number
  /** A nonce store that can fail (any but the memory store). */
  storeCanFail: boolean
}

/** Every answer `webhook` gives instead of calling `next()`, and when it can. */
export const ANSWERS = [
  // Missing, malformed, wrong and replayed alike: a forger learns nothing from the difference.
  {
    status: 401,
    code: 'webhook_signature_invalid',
    description: 'Missing, invalid or replayed webhook signature',
  },
  {
    status: 400,
    code: 'webhook_timestamp_invalid',
    description: 'Webhook timestamp missing, malformed or outside the tolerance',
    when: (o) => o.timestamped,
  },
  { status: 400, code: 'body_unreadable', description: 'The request body could not be read' },
  {
    status: 413,
    code: 'body_too_large',
    description: (o) => `Webhook body larger than ${o.maxBodyBytes} bytes`,
  },
  {
    status: 503,
    code: 'store_unavailable',
    description: 'The replay (nonce) store is unavailable',
    when: (o) => o.storeCanFail,
  },
] as const satisfies Answers<WebhookSetup>

/** `webhook()`'s return type: what `hc` knows it can answer. */
export type WebhookRejects = RejectsFrom<typeof ANSWERS>

/** `reject()` taking only the statuses and codes above. */
export const reject: RejectFor<typeof ANSWERS> = rejectAny
