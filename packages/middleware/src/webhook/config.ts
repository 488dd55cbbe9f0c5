// webhook()'s options, checked once at construction and turned into a frozen config.
import { TOKEN } from '../internal/http/header-syntax'
import {
  assertFunction,
  assertKnownKeys,
  assertNonEmptyString,
  assertOneOf,
  assertPositiveInteger,
  optionError,
} from '../internal/options'
import { MemoryNonceStore, type NonceStore } from '../internal/stores/nonce-store'
import { type ReadSecret, readSecret, type WebhookSecret } from './keys'
import {
  type CustomWebhookPreset,
  customScheme,
  PRESETS,
  type Scheme,
  type WebhookPresetName,
} from './presets'

/**
 * Options of {@link webhook}.
 *
 * @example
 * const options: WebhookOptions = {
 *   preset: 'stripe',
 *   secret: [process.env.STRIPE_WEBHOOK_SECRET ?? '', process.env.STRIPE_WEBHOOK_SECRET_OLD ?? ''],
 * }
 */
export interface WebhookOptions {
  /** How the sender signs: a preset's name, or a custom HMAC form (required). */
  preset: WebhookPresetName | CustomWebhookPreset
  /** One secret, or several while one is rotated out: any of them verifies (required). */
  secret: WebhookSecret | readonly WebhookSecret[]
  /**
   * Largest accepted distance between the signed timestamp and now, in seconds, either way. Also
   * how long a message is remembered for the replay check (for GitHub, which signs no timestamp,
   * only that). Default `300`.
   */
  toleranceSeconds?: number
  /**
   * Where message ids are remembered, to refuse a replay. Default: a `MemoryNonceStore` of this
   * instance; give a shared store (Redis, PostgreSQL, …) when the app runs on several instances.
   * `false` turns the replay check off.
   */
  nonces?: NonceStore | false
  /** Largest body verified, in bytes; a larger one is refused with 413. Default `1_000_000`. */
  maxBodyBytes?: number
  /** Context key for `{ id?, timestamp?, preset }`. Default `'webhook'`. */
  contextKey?: string
  /** Clock in milliseconds, for tests. Default `Date.now`. */
  now?: () => number
}

/** webhook()'s options, checked. */
export interface WebhookConfig {
  readonly scheme: Scheme
  readonly secrets: readonly ReadSecret[]
  readonly toleranceMs: number
  readonly nonces: NonceStore | undefined
  readonly maxBodyBytes: number
  readonly contextKey: string
  readonly now: () => number
}

const KNOWN = [
  'preset',
  'secret',
  'toleranceSeconds',
  'nonces',
  'maxBodyBytes',
  'contextKey',
  'now',
] as const
const CUSTOM_KNOWN = [
  'name',
  'signatureHeader',
  'prefix',
  'encoding',
  'hash',
  'timestampHeader',
  'idHeader',
  'signed',
] as const

function header(factory: string, name: string, value: unknown): string {
  const h = assertNonEmptyString(factory, name, value)
  if (!TOKEN.test(h)) throw optionError(factory, `"${name}" must be a valid header name`)
  return h
}

/** A custom preset's scheme, its options checked. */
function custom(factory: string, p: CustomWebhookPreset): Scheme {
  assertKnownKeys(`${factory} preset`, p, CUSTOM_KNOWN)
  const signed = p.signed ?? '{body}'
  if (typeof signed !== 'string' || signed.split('{body}').length !== 2)
    throw optionError(factory, 'preset.signed must contain "{body}" exactly once')
  const timestampHeader =
    p.timestampHeader === undefined
      ? undefined
      : header(factory, 'preset.timestampHeader', p.timestampHeader)
  const idHeader =
    p.idHeader === undefined ? undefined : header(factory, 'preset.idHeader', p.idHeader)
  if (signed.includes('{timestamp}') && timestampHeader === undefined)
    throw optionError(factory, 'preset.signed uses {timestamp}: set preset.timestampHeader')
  if (signed.includes('{id}') && idHeader === undefined)
    throw optionError(factory, 'preset.signed uses {id}: set preset.idHeader')
  const name = p.name ?? 'custom'
  if (typeof name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(name))
    throw optionError(factory, 'preset.name must be 1 to 64 letters, digits, "_" or "-"')
  return customScheme({
    name,
    signatureHeader: header(factory, 'preset.signatureHeader', p.signatureHeader),
    prefix: typeof p.prefix === 'string' ? p.prefix : '',
    encoding: assertOneOf(factory, 'preset.encoding', p.encoding ?? 'hex', [
      'hex',
      'base64',
      'base64url',
    ]),
    hash: assertOneOf(factory, 'preset.hash', p.hash ?? 'SHA-256', [
      'SHA-256',
      'SHA-384',
      'SHA-512',
    ]),
    timestampHeader,
    idHeader,
    signed,
  })
}

/** The scheme a `preset` option names. */
export function schemeOf(factory: string, preset: unknown): Scheme {
  if (typeof preset === 'string') {
    const names = Object.keys(PRESETS) as WebhookPresetName[]
    return PRESETS[assertOneOf(factory, 'preset', preset, names)]
  }
  if (preset === null || typeof preset !== 'object' || Array.isArray(preset))
    throw optionError(
      factory,
      '"preset" is required: a preset name or a custom { signatureHeader }',
    )
  return custom(factory, preset as CustomWebhookPreset)
}

/** The secrets of `secret`, each read for the scheme. */
export function secretsOf(factory: string, scheme: Scheme, secret: unknown): ReadSecret[] {
  const list = Array.isArray(secret) ? (secret as unknown[]) : [secret]
  if (list.length === 0) throw optionError(factory, '"secret" must name at least one secret')
  return list.map((s, i) =>
    readSecret(`${factory}: secret${Array.isArray(secret) ? `[${i}]` : ''}`, scheme.preset, s),
  )
}

/** Checks `options` and returns webhook()'s config. */
export function webhookConfig(factory: string, options: WebhookOptions): WebhookConfig {
  if (options === undefined) throw optionError(factory, '"preset" and "secret" are required')
  assertKnownKeys(factory, options, KNOWN)
  const scheme = schemeOf(factory, options.preset)
  const secrets = secretsOf(factory, scheme, options.secret)
  if (secrets.some((s) => s.kind === 'ed25519-private'))
    throw optionError(factory, 'a private key signs (signWebhook); verify with the public key')
  const nonces = options.nonces ?? new MemoryNonceStore()
  if (nonces !== false && (typeof nonces !== 'object' || typeof nonces.claim !== 'function'))
    throw optionError(factory, '"nonces" must be a NonceStore (with claim) or false')
  return Object.freeze({
    scheme,
    secrets,
    toleranceMs:
      assertPositiveInteger(factory, 'toleranceSeconds', options.toleranceSeconds ?? 300) * 1000,
    nonces: nonces === false ? undefined : nonces,
    maxBodyBytes: assertPositiveInteger(factory, 'maxBodyBytes', options.maxBodyBytes ?? 1_000_000),
    contextKey: assertNonEmptyString(factory, 'contextKey', options.contextKey ?? 'webhook'),
    now: assertFunction<() => number>(factory, 'now', options.now ?? Date.now),
  })
}
