import type { Context, MiddlewareHandler } from 'hono'
import { CONTENT_LENGTH } from '../internal/http/body'
import { readBodyBytes } from '../internal/http/json-body'
import { unreadBodyHeaders } from '../internal/http/socket-body'
import { begin, clock, decide, type Pending, storeTime } from '../internal/outcomes/decisions'
import { described } from '../internal/outcomes/described'
import { assertNoDryRun } from '../internal/outcomes/reject-or-record'
import { storeFor } from '../internal/stores/store-binding'
import { reject, type WebhookRejects } from './answers'
import { type WebhookConfig, type WebhookOptions, webhookConfig } from './config'
import { webhookDescription } from './description'
import { ID, type Scheme, type SignatureParts } from './presets'
import { signedMessage, verifier } from './verify'

/**
 * What `webhook` puts in the context (default key `'webhook'`) for a verified message.
 *
 * @example
 * app.post('/webhooks/billing', webhook(options), (c) => c.json({ received: c.get('webhook').id }))
 */
export interface WebhookInfo {
  /** The message id (`webhook-id`, `X-GitHub-Delivery`, a custom `idHeader`), when sent. */
  id?: string
  /** The signed Unix timestamp in seconds, for presets that sign one. */
  timestamp?: number
  /** The preset's name (`'standardWebhooks'`, `'stripe'`, …, or a custom preset's `name`). */
  preset: string
}

const NAME = 'webhook'
/** Longest signature header read; real ones are well under 1 KiB, even with rotation. */
const MAX_SIGNATURE_HEADER = 4096
/** A Unix time in seconds: digits only, no sign, no exponent, no fraction. */
const SECONDS = /^[0-9]{1,12}$/
const INVALID = 'Invalid webhook signature'

/** What the headers say, before the body is read. */
interface Claimed {
  parts: SignatureParts
  id: string | undefined
  timestamp: string | undefined
}

/** Refuses as a bad signature, with the reason for the operator only (decision record). */
function refuse(d: Pending | undefined, cause: string): never {
  if (d !== undefined) d.decision.cause = cause
  reject(401, INVALID, 'webhook_signature_invalid')
}

/** Reads the signature, id and timestamp headers; refuses what is missing or malformed. */
function readHeaders(headers: Headers, scheme: Scheme, d: Pending | undefined): Claimed {
  const value = headers.get(scheme.signatureHeader)
  if (value === null || value === '') refuse(d, 'no signature header')
  // No preset writes ", " in its header: it is how a repeated header arrives, joined. Two
  // signature headers are ambiguous (which one did the sender mean?), so neither is taken.
  if (value.length > MAX_SIGNATURE_HEADER || value.includes(', '))
    refuse(d, 'signature header repeated or too long')
  const parts = scheme.parse(value)
  if (parts === null) refuse(d, 'malformed signature header')
  if (parts.hmac.length === 0 && parts.ed25519.length === 0) refuse(d, 'no known signature scheme')
  let id: string | undefined
  if (scheme.idHeader !== undefined) {
    id = headers.get(scheme.idHeader) ?? undefined
    if (id === undefined ? scheme.idRequired : !ID.test(id)) refuse(d, 'missing or malformed id')
  }
  const timestamp =
    parts.timestamp ??
    (scheme.timestampHeader === undefined
      ? undefined
      : (headers.get(scheme.timestampHeader) ?? undefined))
  if (scheme.timestamped && (timestamp === undefined || !SECONDS.test(timestamp))) {
    if (d !== undefined) d.decision.cause = 'missing or malformed timestamp'
    reject(400, 'Invalid webhook timestamp', 'webhook_timestamp_invalid')
  }
  return { parts, id, timestamp }
}

/** Refuses a body whose declared length is over the limit, before reading it. */
function checkDeclaredLength(c: Context, headers: Headers, maxBodyBytes: number): void {
  const declared = headers.get('content-length')
  if (declared !== null && CONTENT_LENGTH.test(declared) && Number(declared) > maxBodyBytes)
    reject(413, 'Content Too Large', 'body_too_large', unreadBodyHeaders(c))
}

/** The body read as received, within the limit; refuses a larger or unreadable one. */
function checkBody(body: Uint8Array<ArrayBuffer> | null, maxBodyBytes: number): Uint8Array {
  if (body === null) reject(400, 'Bad Request', 'body_unreadable')
  if (body.length > maxBodyBytes) reject(413, 'Content Too Large', 'body_too_large')
  return body
}

/** Refuses a replay: the message (by id, or by its signature) claimed once per window. */
async function claim(
  c: Context,
  config: WebhookConfig,
  d: Pending | undefined,
  key: string,
): Promise<void> {
  const nonces = config.nonces
  if (nonces === undefined) return
  let fresh: boolean
  try {
    const t = clock(d)
    // Held for the whole window a timestamp is accepted in, both ways (a clock ahead included).
    const ttl = config.scheme.timestamped ? 2 * config.toleranceMs : config.toleranceMs
    fresh = await storeFor(nonces, c).claim(key, ttl)
    storeTime(d, 'claim', t)
  } catch {
    reject(503, 'Replay store unavailable', 'store_unavailable')
  }
  if (!fresh) refuse(d, 'replayed')
}

/**
 * Verifies an incoming webhook: the provider's signature over the raw body as received (never a
 * re-serialised copy), under one secret or several (rotation), compared in constant time; the
 * signed timestamp within `toleranceSeconds` of now; and the message not seen before (by its id,
 * or its signature where the provider sends no id) through a nonce store. The body stays
 * readable: the handler's `c.req.json()`, `text()` and `arrayBuffer()` read the same bytes.
 *
 * Presets: `standardWebhooks` (`webhook-id`, `webhook-timestamp`, `webhook-signature` with `v1,`
 * HMAC-SHA256 and `v1a,` Ed25519), `stripe` (`Stripe-Signature`), `github`
 * (`X-Hub-Signature-256`; GitHub signs no timestamp, so only the replay window applies), `slack`
 * (`X-Slack-Signature`, `X-Slack-Request-Timestamp`), or a custom HMAC form.
 *
 * A bad, missing, malformed or replayed signature is 401 `webhook_signature_invalid`; a timestamp
 * that is missing, malformed or too far off is 400 `webhook_timestamp_invalid` (checked after the
 * signature, so only a real sender's stale message is told apart); a body over `maxBodyBytes` is
 * 413. `c.get('webhook')` gives `{ id?, timestamp?, preset }`.
 *
 * @param options.toleranceSeconds default `300`
 * @param options.nonces default a `MemoryNonceStore` of this instance; `false` for none
 * @param options.maxBodyBytes default `1_000_000`
 * @param options.contextKey default `'webhook'`
 * @example
 * ```ts
 * app.post(
 *   '/webhooks/billing',
 *   webhook({ preset: 'standardWebhooks', secret: process.env.BILLING_WEBHOOK_SECRET! }),
 *   async (c) => c.json({ received: (await c.req.json()).type }),
 * )
 * ```
 */
export function webhook(options: WebhookOptions): MiddlewareHandler & WebhookRejects {
  assertNoDryRun(NAME, options)
  const config = webhookConfig(NAME, options)
  const { scheme, toleranceMs, maxBodyBytes, contextKey, now } = config
  const verify = verifier(scheme, config.secrets)
  const description = webhookDescription(scheme, toleranceMs / 1000, maxBodyBytes, config.nonces)
  return described(description, async function webhook(c, next) {
    const d = begin(c, NAME)
    // The headers read straight off the request: `c.req.header(name)` is the same lookup behind
    // a wrapper and a second `raw.headers` access, four times per request.
    const headers = c.req.raw.headers
    const { parts, id, timestamp } = readHeaders(headers, scheme, d)
    checkDeclaredLength(c, headers, maxBodyBytes)
    const body = checkBody(await readBodyBytes(c), maxBodyBytes)
    const matched = await verify.match(parts, signedMessage(scheme, id, timestamp, body))
    if (matched === undefined) refuse(d, 'no signature matches')
    if (timestamp !== undefined && scheme.timestamped) {
      if (Math.abs(now() - Number(timestamp) * 1000) > toleranceMs) {
        if (d !== undefined) d.decision.cause = 'timestamp outside the tolerance'
        reject(400, 'Invalid webhook timestamp', 'webhook_timestamp_invalid')
      }
    }
    // Keyed by id and timestamp: a captured message sent again is refused, while the sender's
    // own retry (same id, new timestamp, new signature) passes, as Standard Webhooks expects.
    if (config.nonces !== undefined)
      await claim(c, config, d, `webhook:${scheme.preset}:${id ?? matched}:${timestamp ?? ''}`)
    const info: WebhookInfo = { preset: scheme.preset }
    if (id !== undefined) info.id = id
    if (timestamp !== undefined) info.timestamp = Number(timestamp)
    c.set(contextKey as 'webhook', info)
    decide(d, 'allow')
    await next()
  })
}
