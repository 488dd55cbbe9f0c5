import type { Answers, RejectFor, RejectsFrom } from '../internal/outcomes/answers'
import { reject as rejectAny } from '../internal/outcomes/reject'

/** What `jwtAuth`'s answers depend on. */
export interface JwtAuthSetup {
  /** Required scopes: a valid token without one is answered 403. */
  scopes: readonly string[]
  /** The keys come from a remote JWKS (`jwks` URL or `discovery`), which can be unreachable. */
  remote: boolean
  /** `dpop` is set: proofs are checked (RFC 9449). */
  dpop: boolean
  /** `dpop.nonce` is set: the server hands out nonces the proofs must carry. */
  dpopNonce: boolean
  /** `dpop.nonceStore` can fail (any but the memory store). */
  storeCanFail: boolean
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
    status: 401,
    code: 'invalid_dpop_proof',
    description:
      'Missing or invalid DPoP proof (RFC 9449: malformed, bad signature, another method or URL, too old, replayed, or not for this token)',
    when: (o) => o.dpop,
  },
  {
    status: 401,
    code: 'use_dpop_nonce',
    description: 'The DPoP proof must carry the nonce sent in the DPoP-Nonce header',
    when: (o) => o.dpopNonce,
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
  {
    status: 503,
    code: 'store_unavailable',
    description: 'The DPoP replay store (nonce store) is unavailable',
    when: (o) => o.storeCanFail,
  },
] as const satisfies Answers<JwtAuthSetup>

/** The codes only the `dpop` option brings. */
type DpopCodes = 'invalid_dpop_proof' | 'use_dpop_nonce' | 'store_unavailable'

/** `jwtAuth()`'s return type without `dpop`: what `hc` knows it can answer. */
export type JwtAuthRejects = RejectsFrom<
  readonly Exclude<(typeof ANSWERS)[number], { code: DpopCodes }>[]
>

/** `jwtAuth()`'s return type with `dpop`: the DPoP answers too. */
export type JwtAuthDpopRejects = RejectsFrom<typeof ANSWERS>

/** `reject()` taking only the statuses and codes above. */
export const reject: RejectFor<typeof ANSWERS> = rejectAny
