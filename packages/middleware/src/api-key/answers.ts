import type { Answers, RejectFor, RejectsFrom } from '../internal/outcomes/answers'
import { reject as rejectAny } from '../internal/outcomes/reject'

/** What `apiKey`'s answers depend on. */
export interface ApiKeySetup {
  /** A store that can fail (any but the memory store). */
  storeCanFail: boolean
  /** Scopes the route requires (`scopes` option): a key without one is answered 403. */
  scopes: readonly string[]
}

/** Every answer `apiKey` gives instead of calling `next()`, and when it can. */
export const ANSWERS = [
  // Missing and invalid alike: a prober learns nothing from the difference.
  { status: 401, code: 'api_key_invalid', description: 'Missing or invalid API key' },
  // The holder of an expired or revoked key holds a real key: telling them why helps, leaks nothing.
  { status: 401, code: 'api_key_expired', description: 'The API key has expired' },
  { status: 401, code: 'api_key_revoked', description: 'The API key was revoked' },
  {
    status: 403,
    code: 'insufficient_scope',
    description: (o) => `The API key lacks a required scope (${o.scopes.join(' ')})`,
    when: (o) => o.scopes.length > 0,
  },
  {
    status: 503,
    code: 'store_unavailable',
    description: 'The API key store is unavailable',
    when: (o) => o.storeCanFail,
  },
] as const satisfies Answers<ApiKeySetup>

/** `apiKey()`'s return type: what `hc` knows it can answer. */
export type ApiKeyRejects = RejectsFrom<typeof ANSWERS>

/** `reject()` taking only the statuses and codes above. */
export const reject: RejectFor<typeof ANSWERS> = rejectAny
