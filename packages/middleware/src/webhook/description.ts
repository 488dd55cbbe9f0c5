import type { MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { MemoryNonceStore, type NonceStore } from '../internal/stores/nonce-store'
import { ANSWERS } from './answers'
import type { Scheme } from './presets'

/** What each preset signs, for the scheme's description. */
const WHAT: Record<string, string> = {
  standardWebhooks:
    'Standard Webhooks signature: `webhook-signature` carries `v1,` HMAC-SHA256 (or `v1a,` Ed25519) signatures of `{webhook-id}.{webhook-timestamp}.{body}`',
  stripe:
    'Stripe webhook signature: `Stripe-Signature: t=…,v1=…`, the hex HMAC-SHA256 of `{t}.{body}`',
  github:
    'GitHub webhook signature: `X-Hub-Signature-256: sha256=…`, the hex HMAC-SHA256 of the body (no timestamp is signed)',
  slack:
    'Slack request signature: `X-Slack-Signature: v0=…`, the hex HMAC-SHA256 of `v0:{X-Slack-Request-Timestamp}:{body}`',
}

/** The sentence describing `scheme`. */
function what(scheme: Scheme): string {
  const known = WHAT[scheme.preset]
  if (known !== undefined) return known
  const parts = [
    `Webhook signature (${scheme.preset}): \`${scheme.signatureHeader}\` carries the ${scheme.encoding} HMAC-${scheme.hash.slice(4)} of the body`,
  ]
  if (scheme.timestampHeader) parts.push(`with the timestamp of \`${scheme.timestampHeader}\``)
  if (scheme.idHeader) parts.push(`and the message id of \`${scheme.idHeader}\``)
  return parts.join(' ')
}

/**
 * What `webhook` adds: a header `apiKey` scheme named after the preset (its description says
 * what is signed and by which headers), and its answers (`answers.ts`).
 */
export function webhookDescription(
  scheme: Scheme,
  toleranceSeconds: number,
  maxBodyBytes: number,
  nonces: NonceStore | undefined,
): MiddlewareDescription {
  const timing = scheme.timestamped
    ? `; the timestamp must be within ${toleranceSeconds} s of the receiver's clock`
    : ''
  const replay = nonces === undefined ? '' : '; a message seen before is refused (replay)'
  const name = `webhook${scheme.preset[0]?.toUpperCase()}${scheme.preset.slice(1)}`
  return {
    middleware: 'webhook',
    security: [
      [
        {
          name: name.replace(/[^A-Za-z0-9._-]/g, ''),
          scheme: {
            type: 'apiKey',
            in: 'header',
            name: scheme.signatureHeader,
            description: `${what(scheme)}, over the raw body as sent${timing}${replay}.`,
          },
        },
      ],
    ],
    responses: responsesOf(ANSWERS, {
      timestamped: scheme.timestamped,
      maxBodyBytes,
      storeCanFail: nonces !== undefined && !(nonces instanceof MemoryNonceStore),
    }),
  }
}
