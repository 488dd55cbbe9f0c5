import type { MiddlewareHandler } from 'hono'
import { described } from '../internal/outcomes/described'
import { assertNoDryRun } from '../internal/outcomes/reject-or-record'
import type { HttpSignatureRejects } from './answers'
import { type HttpSignatureOptions, httpSignatureConfig } from './config'
import { httpSignatureDescription } from './description'
import { httpSignatureHandler } from './request'

export type { HttpSignatureOptions } from './config'

/**
 * Verifies HTTP Message Signatures (RFC 9421) on incoming requests: the `Signature` and
 * `Signature-Input` fields, parsed as Structured Fields (RFC 9651), the signature base rebuilt
 * from the request, the key found by `keyid` (a lookup, a JWKS or a JWKS URL; the key decides the
 * algorithm), the policy (covered components, `created` within `maxAgeSeconds`, `expires`, `tag`,
 * `label`), the body against its `Content-Digest` (RFC 9530; the body stays readable), and the
 * `nonce` against a replay store. The verified signature is in `c.get('signature')`.
 *
 * Answers 401 `signature_missing` or `signature_invalid` (the message says what a valid signature
 * needs, never which check failed; `Accept-Signature` says it too), 400 `digest_mismatch`; with a
 * JWKS URL 503 `jwks_unavailable`, with a shared nonce store 503 `store_unavailable`.
 *
 * @param options.keys - Lookup `(keyid, c) => CryptoKey | JWK | undefined`, JWKS object or JWKS URL. Required.
 * @param options.components - Components that must be covered. Default `@method` and
 *   `@target-uri` (or `@authority` + `@path`); `content-digest` too whenever there is a body.
 * @param options.maxAgeSeconds - Oldest accepted `created`. Default `300`.
 * @param options.clockSkewSeconds - Leeway for the signer's clock. Default `5`.
 * @param options.tag - Required `tag` parameter. Default none.
 * @param options.label - The one label to verify. Default: the first signature that fits.
 * @param options.nonce - Replay store (`NonceStore`); a nonce is then required. Default none.
 * @param options.algorithms - Accepted algorithms. Default all five.
 * @example
 * import { httpSignature } from '@palisade/middleware/http-signature'
 *
 * app.use('/partner/*', httpSignature({
 *   keys: 'https://partner.example/.well-known/jwks.json',
 *   tag: 'partner-api',
 * }))
 * app.post('/partner/orders', (c) => c.json({ from: c.get('signature').keyid }))
 */
export function httpSignature(
  options: HttpSignatureOptions,
): MiddlewareHandler & HttpSignatureRejects {
  const factory = 'httpSignature'
  assertNoDryRun(factory, options)
  const config = httpSignatureConfig(factory, options)
  const description = httpSignatureDescription({
    remote: config.keys.remote,
    storeCanFail: config.storeCanFail,
    guidance: config.guidance,
    acceptSignature: config.acceptSignature,
  })
  return described(description, httpSignatureHandler(config)) as MiddlewareHandler &
    HttpSignatureRejects
}
