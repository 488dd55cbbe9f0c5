import type { DescribedHeader, MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { ANSWERS, type HttpSignatureSetup } from './answers'

/** What shapes the description of one `httpSignature` instance. */
export interface HttpSignatureDescribed extends HttpSignatureSetup {
  /** The policy in words: what a signature must cover and carry. */
  guidance: string
  /** The `Accept-Signature` field a 401 carries. */
  acceptSignature: string
}

/**
 * What `httpSignature` adds: an `apiKey` scheme on the `Signature` header whose description names
 * RFC 9421, the headers a client sends and the policy, and the answers of its table.
 */
export function httpSignatureDescription(d: HttpSignatureDescribed): MiddlewareDescription {
  const acceptSignature: DescribedHeader = {
    name: 'Accept-Signature',
    description: `What a valid signature covers and carries (RFC 9421 §5.1), e.g. \`${d.acceptSignature}\``,
  }
  return {
    middleware: 'httpSignature',
    security: [
      [
        {
          name: 'httpSignature',
          scheme: {
            type: 'apiKey',
            in: 'header',
            name: 'Signature',
            description: `HTTP Message Signatures (RFC 9421): send \`Signature\` and \`Signature-Input\`, and \`Content-Digest\` (RFC 9530, sha-256 or sha-512) with a body. ${d.guidance}. Algorithms: ed25519, ecdsa-p256-sha256, rsa-pss-sha512, rsa-v1_5-sha256, hmac-sha256; the key named by keyid decides which. Answers 401 signature_missing / signature_invalid (with Accept-Signature) and 400 digest_mismatch.`,
          },
        },
      ],
    ],
    responses: responsesOf(ANSWERS, d, { 401: [acceptSignature] }),
  }
}
