// How each provider signs a webhook: which headers carry what, the bytes signed around the body,
// and how a signature is written. Pure data and parsers; keys and the request path live in
// keys.ts and verify.ts.
import type { HmacHash } from '../internal/crypto'

/** The built-in presets. */
export type WebhookPresetName = 'standardWebhooks' | 'stripe' | 'github' | 'slack'

/**
 * A webhook signed with an HMAC in one header, for providers without a preset.
 *
 * @example
 * // Shopify: X-Shopify-Hmac-Sha256 is the base64 HMAC-SHA256 of the body
 * const shopify: CustomWebhookPreset = {
 *   signatureHeader: 'X-Shopify-Hmac-Sha256',
 *   encoding: 'base64',
 *   idHeader: 'X-Shopify-Webhook-Id',
 * }
 */
export interface CustomWebhookPreset {
  /** Names the preset in `c.get('webhook')`, decisions and the document. Default `'custom'`. */
  name?: string
  /** Header carrying the signature (required). */
  signatureHeader: string
  /** Text before the signature in the header (`'sha256='`). Default none. */
  prefix?: string
  /** How the signature is written. Default `'hex'`. */
  encoding?: 'hex' | 'base64' | 'base64url'
  /** HMAC hash. Default `'SHA-256'`. */
  hash?: HmacHash
  /** Header carrying the signed Unix timestamp (seconds); checked against the tolerance. */
  timestampHeader?: string
  /** Header carrying the message id: the replay check's key. */
  idHeader?: string
  /**
   * What is signed, with `{body}` exactly once and `{timestamp}` / `{id}` where the sender puts
   * them: `'{timestamp}.{body}'`. Default `'{body}'`.
   */
  signed?: string
}

/** What a preset's signature header says. */
export interface SignatureParts {
  /** Stripe carries its timestamp in the signature header. */
  timestamp?: string
  /** HMAC signatures, as written (hex lower-cased). */
  hmac: string[]
  /** Ed25519 signatures (Standard Webhooks `v1a,`), base64. */
  ed25519: string[]
}

/** One preset, resolved. */
export interface Scheme {
  readonly preset: string
  readonly signatureHeader: string
  readonly timestampHeader: string | undefined
  readonly idHeader: string | undefined
  /** Whether the id header must be present (Standard Webhooks). */
  readonly idRequired: boolean
  /** Whether a timestamp is signed and checked. */
  readonly timestamped: boolean
  readonly hash: HmacHash
  readonly encoding: 'hex' | 'base64' | 'base64url'
  /** The signature header's signatures; `null` when it is malformed. */
  parse(value: string): SignatureParts | null
  /** The text signed before and after the body. */
  around(id: string | undefined, timestamp: string | undefined): [string, string]
  /** The headers a sender writes (signWebhook). */
  write(
    signatures: { hmac: string[]; ed25519: string[] },
    id: string | undefined,
    timestamp: string | undefined,
  ): Record<string, string>
}

const HEX64 = /^[0-9a-fA-F]{64}$/
/** Longest id accepted: replay keys stay well under the nonce stores' 512 characters. */
export const MAX_ID_LENGTH = 256
/** Ids are visible ASCII (what every provider sends); anything else is malformed. */
export const ID = /^[\x21-\x7e]{1,256}$/

/** `<prefix><64 hex>`, lower-cased, or null. */
function hexAfter(value: string, prefix: string): string | null {
  if (!value.startsWith(prefix)) return null
  const hex = value.slice(prefix.length)
  return HEX64.test(hex) ? hex.toLowerCase() : null
}

const standardWebhooks: Scheme = {
  preset: 'standardWebhooks',
  signatureHeader: 'webhook-signature',
  timestampHeader: 'webhook-timestamp',
  idHeader: 'webhook-id',
  idRequired: true,
  timestamped: true,
  hash: 'SHA-256',
  encoding: 'base64',
  parse(value) {
    // Space-separated `version,signature` pairs; versions this code does not know are skipped,
    // as the spec asks (a sender may add a newer scheme beside v1). Walked by index, as Stripe's
    // header is: no array of items and no version strings per request (about 0.2 → 0.07 µs).
    // The same answers as splitting on ' ' and each item at its first ',' (a property test
    // compares the two, webhook.test.ts).
    const parts: SignatureParts = { hmac: [], ed25519: [] }
    let start = 0
    while (start < value.length) {
      let end = value.indexOf(' ', start)
      if (end === -1) end = value.length
      if (end > start) {
        const comma = value.indexOf(',', start)
        // Every item is `version,signature` with a non-empty version.
        if (comma <= start || comma >= end) return null
        if (comma === start + 2 && value.startsWith('v1', start))
          parts.hmac.push(value.slice(comma + 1, end))
        else if (comma === start + 3 && value.startsWith('v1a', start))
          parts.ed25519.push(value.slice(comma + 1, end))
      }
      start = end + 1
    }
    return parts
  },
  around: (id, timestamp) => [`${id}.${timestamp}.`, ''],
  write: (s, id, timestamp) => ({
    'webhook-id': id as string,
    'webhook-timestamp': timestamp as string,
    'webhook-signature': [
      ...s.hmac.map((v) => `v1,${v}`),
      ...s.ed25519.map((v) => `v1a,${v}`),
    ].join(' '),
  }),
}

const stripe: Scheme = {
  preset: 'stripe',
  signatureHeader: 'stripe-signature',
  timestampHeader: undefined,
  idHeader: undefined,
  idRequired: false,
  timestamped: true,
  hash: 'SHA-256',
  encoding: 'hex',
  parse(value) {
    // `t=…,v1=…,v1=…,v0=…`: one timestamp, any number of v1 signatures (two during a secret's
    // rotation); other schemes (v0, Stripe's test-mode scheme) are ignored, as Stripe's SDK does.
    // Walked by index rather than split: no array of items and no key strings per request. The
    // same answers as splitting on ',' and each item at its first '=' (a property test compares
    // the two, webhook.test.ts).
    const parts: SignatureParts = { hmac: [], ed25519: [] }
    let start = 0
    while (start <= value.length) {
      let end = value.indexOf(',', start)
      if (end === -1) end = value.length
      const eq = value.indexOf('=', start)
      // Every item is `key=value` with a non-empty key.
      if (eq <= start || eq >= end) return null
      if (eq === start + 1 && value.charCodeAt(start) === 0x74 /* t */) {
        if (parts.timestamp !== undefined) return null
        parts.timestamp = value.slice(eq + 1, end)
      } else if (eq === start + 2 && value.startsWith('v1', start)) {
        const hex = value.slice(eq + 1, end)
        if (!HEX64.test(hex)) return null
        parts.hmac.push(hex.toLowerCase())
      }
      start = end + 1
    }
    return parts.timestamp === undefined ? null : parts
  },
  around: (_id, timestamp) => [`${timestamp}.`, ''],
  write: (s, _id, timestamp) => ({
    'Stripe-Signature': [`t=${timestamp}`, ...s.hmac.map((v) => `v1=${v}`)].join(','),
  }),
}

const github: Scheme = {
  preset: 'github',
  signatureHeader: 'x-hub-signature-256',
  timestampHeader: undefined,
  idHeader: 'x-github-delivery',
  idRequired: false,
  timestamped: false,
  hash: 'SHA-256',
  encoding: 'hex',
  parse(value) {
    const hex = hexAfter(value, 'sha256=')
    return hex === null ? null : { hmac: [hex], ed25519: [] }
  },
  around: () => ['', ''],
  write: (s, id) => ({
    'X-Hub-Signature-256': `sha256=${s.hmac[0]}`,
    ...(id === undefined ? {} : { 'X-GitHub-Delivery': id }),
  }),
}

const slack: Scheme = {
  preset: 'slack',
  signatureHeader: 'x-slack-signature',
  timestampHeader: 'x-slack-request-timestamp',
  idHeader: undefined,
  idRequired: false,
  timestamped: true,
  hash: 'SHA-256',
  encoding: 'hex',
  parse(value) {
    const hex = hexAfter(value, 'v0=')
    return hex === null ? null : { hmac: [hex], ed25519: [] }
  },
  around: (_id, timestamp) => [`v0:${timestamp}:`, ''],
  write: (s, _id, timestamp) => ({
    'X-Slack-Signature': `v0=${s.hmac[0]}`,
    'X-Slack-Request-Timestamp': timestamp as string,
  }),
}

/** The built-in presets by name. */
export const PRESETS: Readonly<Record<WebhookPresetName, Scheme>> = {
  standardWebhooks,
  stripe,
  github,
  slack,
}

const ENCODED = {
  hex: /^[0-9a-fA-F]+$/,
  base64: /^[A-Za-z0-9+/]+={0,2}$/,
  base64url: /^[A-Za-z0-9_-]+$/,
} as const

/** A custom preset's scheme; its options were checked by the caller (config.ts). */
export function customScheme(
  p: Required<Omit<CustomWebhookPreset, 'timestampHeader' | 'idHeader'>> &
    Pick<CustomWebhookPreset, 'timestampHeader' | 'idHeader'>,
): Scheme {
  const at = p.signed.indexOf('{body}')
  const before = p.signed.slice(0, at)
  const after = p.signed.slice(at + '{body}'.length)
  const fill = (text: string, id: string | undefined, timestamp: string | undefined) =>
    text.replaceAll('{id}', id ?? '').replaceAll('{timestamp}', timestamp ?? '')
  const pattern = ENCODED[p.encoding]
  return {
    preset: p.name,
    signatureHeader: p.signatureHeader.toLowerCase(),
    timestampHeader: p.timestampHeader?.toLowerCase(),
    idHeader: p.idHeader?.toLowerCase(),
    idRequired: p.signed.includes('{id}'),
    timestamped: p.timestampHeader !== undefined,
    hash: p.hash,
    encoding: p.encoding,
    parse(value) {
      // One signature per space-separated item, each after the prefix.
      const hmac: string[] = []
      for (const item of value.split(' ')) {
        if (item === '') continue
        if (!item.startsWith(p.prefix)) return null
        const signature = item.slice(p.prefix.length)
        if (!pattern.test(signature)) return null
        hmac.push(p.encoding === 'hex' ? signature.toLowerCase() : signature)
      }
      return hmac.length === 0 ? null : { hmac, ed25519: [] }
    },
    around: (id, timestamp) => [fill(before, id, timestamp), fill(after, id, timestamp)],
    write(s, id, timestamp) {
      const headers: Record<string, string> = {
        [p.signatureHeader]: s.hmac.map((v) => `${p.prefix}${v}`).join(' '),
      }
      if (p.timestampHeader !== undefined) headers[p.timestampHeader] = timestamp as string
      if (p.idHeader !== undefined && id !== undefined) headers[p.idHeader] = id
      return headers
    },
  }
}
