import type { Answers, RejectFor, RejectsFrom } from '../internal/outcomes/answers'
import { reject as rejectAny } from '../internal/outcomes/reject'

/** What `httpSignature`'s answers depend on. */
export interface HttpSignatureSetup {
  /** The keys come from a JWKS URL, which can be unreachable. */
  remote: boolean
  /** A nonce store that can fail (any but the memory store). */
  storeCanFail: boolean
}

/** Every answer `httpSignature` gives instead of calling `next()`, and when it can. */
export const ANSWERS = [
  {
    status: 400,
    code: 'digest_mismatch',
    description: 'The body does not match its signed Content-Digest (RFC 9530)',
  },
  {
    status: 401,
    code: 'signature_missing',
    description: 'Missing HTTP message signature (Signature and Signature-Input, RFC 9421)',
  },
  {
    status: 401,
    code: 'signature_invalid',
    description:
      'Invalid HTTP message signature (malformed, unknown key, bad signature, too old, replayed, or not covering what the policy requires)',
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
    description: 'The nonce store is unavailable',
    when: (o) => o.storeCanFail,
  },
] as const satisfies Answers<HttpSignatureSetup>

/** `httpSignature()`'s return type: what `hc` knows it can answer. */
export type HttpSignatureRejects = RejectsFrom<typeof ANSWERS>

/** `reject()` taking only the statuses and codes above. */
export const reject: RejectFor<typeof ANSWERS> = rejectAny
