import { optionError } from '../internal/options'
import { schemeOf, secretsOf } from './config'
import { ed25519Key, hmacKey, type WebhookSecret } from './keys'
import { type CustomWebhookPreset, ID, type WebhookPresetName } from './presets'
import { encode, hmacOf, signedMessage } from './verify'

/**
 * Options of {@link signWebhook}.
 *
 * @example
 * const options: SignWebhookOptions = { preset: 'standardWebhooks', secret: 'whsec_…', id: 'msg_1' }
 */
export interface SignWebhookOptions {
  /** How to sign: a preset's name, or a custom HMAC form (required). */
  preset: WebhookPresetName | CustomWebhookPreset
  /**
   * The secret (required); several sign with each (Standard Webhooks and Stripe carry them all,
   * so a receiver rotating its secret accepts either). Standard Webhooks takes `whsec_…` (v1
   * HMAC) and `whsk_…` or an Ed25519 private `CryptoKey` (v1a).
   */
  secret: WebhookSecret | readonly WebhookSecret[]
  /** The message id. Default: `msg_` and a random UUID for Standard Webhooks, none otherwise. */
  id?: string
  /** When it is sent: a `Date` or Unix seconds. Default now. */
  timestamp?: Date | number
}

/** What {@link signWebhook} gives: the headers to send and the exact body they sign. */
export interface SignedWebhook {
  headers: Record<string, string>
  /** The body to send, byte for byte (a payload object is serialised once, here). */
  body: string | Uint8Array<ArrayBuffer>
}

const encoder = new TextEncoder()
const FACTORY = 'signWebhook'

/** Unix seconds of `t` (default now). */
function secondsOf(t: Date | number | undefined): string {
  const ms = t === undefined ? Date.now() : t instanceof Date ? t.getTime() : t * 1000
  if (!Number.isFinite(ms) || ms < 0) throw optionError(FACTORY, '"timestamp" must be a valid time')
  return String(Math.floor(ms / 1000))
}

/**
 * Signs a webhook for sending, as `webhook()` (and the provider's own SDK) verifies it: returns
 * the headers and the body to send. The body must go out exactly as returned; a payload object is
 * serialised with `JSON.stringify` once, here.
 *
 * @param payload - the body: a string, bytes, or a value to send as JSON
 * @param options.id - default `msg_<uuid>` for Standard Webhooks
 * @param options.timestamp - default now
 * @example
 * ```ts
 * const { headers, body } = await signWebhook(
 *   { type: 'invoice.paid', data: { id: 'in_1' } },
 *   { preset: 'standardWebhooks', secret: process.env.BILLING_WEBHOOK_SECRET! },
 * )
 * await fetch(endpoint, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body })
 * ```
 */
export async function signWebhook(
  payload: unknown,
  options: SignWebhookOptions,
): Promise<SignedWebhook> {
  if (options === null || typeof options !== 'object')
    throw optionError(FACTORY, '"preset" and "secret" are required')
  const scheme = schemeOf(FACTORY, options.preset)
  const secrets = secretsOf(FACTORY, scheme, options.secret)
  // Bytes are copied: the caller's array may change (or be a view of a shared buffer).
  const body =
    typeof payload === 'string'
      ? payload
      : payload instanceof Uint8Array
        ? new Uint8Array(payload)
        : JSON.stringify(payload)
  if (body === undefined) throw optionError(FACTORY, 'the payload cannot be sent as JSON')
  let id = options.id
  if (id === undefined && scheme.preset === 'standardWebhooks') id = `msg_${crypto.randomUUID()}`
  if (id !== undefined && !ID.test(id))
    throw optionError(FACTORY, '"id" must be 1 to 256 visible ASCII characters')
  const timestamp = scheme.timestamped ? secondsOf(options.timestamp) : undefined
  const bytes = typeof body === 'string' ? encoder.encode(body) : body
  const message = signedMessage(scheme, id, timestamp, bytes)
  const signatures = { hmac: [] as string[], ed25519: [] as string[] }
  for (const s of secrets) {
    if (s.kind === 'hmac') {
      signatures.hmac.push(
        await hmacOf(await hmacKey(s.raw, scheme.hash), message, scheme.encoding),
      )
    } else if (s.kind === 'ed25519-private') {
      const key = await ed25519Key(s.key, 'sign')
      signatures.ed25519.push(
        encode(
          new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, key, message)),
          'base64',
        ),
      )
    } else {
      throw optionError(FACTORY, 'a public key cannot sign: give the private key (whsk_…)')
    }
  }
  if (signatures.hmac.length > 1 && (scheme.preset === 'github' || scheme.preset === 'slack'))
    throw optionError(FACTORY, `${scheme.preset} carries one signature: give one secret`)
  return { headers: scheme.write(signatures, id, timestamp), body }
}
