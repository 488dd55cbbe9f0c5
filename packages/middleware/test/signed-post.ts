/** Test support (not exported by the package): a request signed by httpSignature's signRequest. */
import { signRequest } from '../src/http-signature'

export const signedBody = '{"amount":5}'

/** A POST of `signedBody` to `http://localhost/`, signed with a fresh HMAC key (keyid `k1`). */
export async function signedPost() {
  const key = await crypto.subtle.importKey(
    'raw',
    new Uint8Array(32).fill(7),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  )
  const signed = await signRequest(
    new Request('http://localhost/', { method: 'POST', body: signedBody }),
    { key, keyid: 'k1' },
  )
  return { key, signed }
}
