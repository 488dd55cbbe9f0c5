import type { Answers, RejectFor, RejectsFrom } from '../internal/outcomes/answers'
import { reject as rejectAny } from '../internal/outcomes/reject'

/** What `jwtAuth`'s answers depend on. */
export interface JwtAuthSetup {
  /** Required scopes: a valid token without one is answered 403. */
  scopes: readonly string[]
  /** The keys come from a remote JWKS (`jwks` URL or `discovery`), which can be unreachable. */
  remote: boolean
}

/** Every answer `jwtAuth` gives instead of calling `next()`, and when it can. */
export const ANSWERS = [
  { status: 401, code: 'token_missing', description: 'Missing bearer token' },
  {
    status: 401,
    code: 'token_invalid',
    description: 'Invalid bearer token (malformed, bad signature, expired, …)',
  },
  {
    status: 403,
    code: 'insufficient_scope',
    description: (o) => `The token lacks a required scope (${o.scopes.join(' ')})`,
    when: (o) => o.scopes.length > 0,
  },
  {
    status: 503,
    code: 'jwks_unavailable',
    description: 'The signing keys (JWKS) cannot be fetched and no cached keys are left',
    when: (o) => o.remote,
  },
] as const satisfies Answers<JwtAuthSetup>

/** `jwtAuth()`'s return type: what `hc` knows it can answer. */
export type JwtAuthRejects = RejectsFrom<typeof ANSWERS>

/** `reject()` taking only the statuses and codes above. */
export const reject: RejectFor<typeof ANSWERS> = rejectAny
