import type { Context } from 'hono'
import { hmacSign, importHmacKey, lazy, randomToken } from '../internal/crypto'
import {
  assertFunction,
  assertKnownKeys,
  assertOneOf,
  assertPositiveInteger,
  assertStringArray,
  formatValue,
  optionError,
} from '../internal/options'
import { MemoryNonceStore, type NonceStore } from '../internal/stores/nonce-store'
import { type AsymmetricAlgorithm, assertAsymmetricAlgorithm } from './keys'

/**
 * DPoP (RFC 9449) settings of `jwtAuth`: the object form of its `dpop` option.
 *
 * @example
 * app.use(
 *   '/mcp/*',
 *   jwtAuth({
 *     jwks: 'https://auth.example.com/.well-known/jwks.json',
 *     dpop: { mode: 'required', nonceStore: new RedisNonceStore({ sendCommand }) },
 *   }),
 * )
 */
export interface DpopOptions {
  /**
   * `'required'`: only `Authorization: DPoP <token>` with a valid proof, the token bound to the
   * proof's key (`cnf.jkt`). `'allowed'`: that, or `Bearer` for tokens that are not bound (a
   * bound token sent as Bearer is refused: a downgrade).
   */
  mode: 'required' | 'allowed'
  /**
   * Where the proofs' `jti` are remembered, each for as long as its proof could be accepted: a
   * proof seen before is refused. Default: a `MemoryNonceStore` (one process); give a shared
   * store (Redis, PostgreSQL, Durable Objects, Deno KV) when the app runs on several instances.
   */
  nonceStore?: NonceStore
  /** Oldest accepted proof, in seconds since its `iat` (1–3600). Default `300`. */
  maxAgeSeconds?: number
  /**
   * Algorithms accepted for proofs (public-key only: HMAC and `none` are refused at
   * construction). Default `['ES256', 'EdDSA', 'PS256', 'RS256']`, advertised in the challenge's
   * `algs`.
   */
  algorithms?: AsymmetricAlgorithm[]
  /**
   * Server-provided nonces (RFC 9449 §8): a proof without the current nonce is answered 401
   * `use_dpop_nonce` with a `DPoP-Nonce` header. Nonces are an HMAC of the time window under
   * `secret` (default: random per process; give the same secret to every instance), valid for
   * the current and the previous `lifetimeSeconds` (default `300`). Unset: no nonce.
   */
  nonce?: { secret?: string | Uint8Array; lifetimeSeconds?: number }
  /**
   * The request's URL as the client addressed it, which `htu` must match: behind a proxy that
   * rewrites the host or scheme, rebuild it from trusted headers. Default: `c.req.url`.
   */
  url?: (c: Context) => string
}

/** Issues and checks server nonces: an HMAC of the time window, current or previous. */
export interface NonceIssuer {
  /** The nonce of the current window. */
  current(now: number): Promise<string>
  /** Whether `nonce` is the current window's or the previous one's. */
  valid(nonce: string, now: number): Promise<boolean>
}

/** `jwtAuth`'s DPoP options, checked, with their defaults. */
export interface DpopConfig {
  readonly mode: 'required' | 'allowed'
  readonly nonceStore: NonceStore
  /** Whether the store can fail (any but the memory store): 503 `store_unavailable`. */
  readonly storeCanFail: boolean
  readonly maxAgeSeconds: number
  readonly algorithms: readonly AsymmetricAlgorithm[]
  readonly allowed: ReadonlySet<string>
  readonly nonce: NonceIssuer | undefined
  readonly url: ((c: Context) => string) | undefined
}

/** The default proof algorithms: the common ones, ECDSA P-256 first (RFC 9449's examples). */
export const DPOP_DEFAULT_ALGORITHMS: readonly AsymmetricAlgorithm[] = [
  'ES256',
  'EdDSA',
  'PS256',
  'RS256',
]

const KNOWN = ['mode', 'nonceStore', 'maxAgeSeconds', 'algorithms', 'nonce', 'url'] as const
const encoder = new TextEncoder()

/** Checks the `dpop` option (`'required'`, `'allowed'` or {@link DpopOptions}). */
export function dpopConfig(
  factory: string,
  value: unknown,
  cookie: string | undefined,
): DpopConfig | undefined {
  if (value === undefined) return undefined
  const options = (typeof value === 'string' ? { mode: value } : value) as DpopOptions
  if (typeof options !== 'object' || options === null) {
    throw optionError(factory, `"dpop" must be 'required', 'allowed' or an object`)
  }
  assertKnownKeys(`${factory} dpop`, options, KNOWN)
  const mode = assertOneOf(factory, 'dpop.mode', options.mode, ['required', 'allowed'] as const)
  if (mode === 'required' && cookie !== undefined) {
    throw optionError(
      factory,
      '"cookie" cannot carry a DPoP-bound token: with dpop "required" tokens come from Authorization: DPoP only',
    )
  }
  const store = options.nonceStore
  if (store !== undefined && (store === null || typeof store.claim !== 'function')) {
    throw optionError(factory, '"dpop.nonceStore" must be a NonceStore (with claim(nonce, ttlMs))')
  }
  const maxAgeSeconds =
    options.maxAgeSeconds === undefined
      ? 300
      : assertPositiveInteger(factory, 'dpop.maxAgeSeconds', options.maxAgeSeconds)
  if (maxAgeSeconds > 3600) {
    throw optionError(factory, `"dpop.maxAgeSeconds" must be at most 3600, got ${maxAgeSeconds}`)
  }
  const algorithms =
    options.algorithms === undefined
      ? DPOP_DEFAULT_ALGORITHMS
      : assertStringArray(factory, 'dpop.algorithms', options.algorithms, {
          allowEmpty: false,
        }).map((alg) => assertAsymmetricAlgorithm(factory, 'dpop.algorithms', alg))
  const url =
    options.url === undefined
      ? undefined
      : assertFunction<(c: Context) => string>(factory, 'dpop.url', options.url)
  return Object.freeze({
    mode,
    nonceStore: store ?? new MemoryNonceStore(),
    storeCanFail: store !== undefined && !(store instanceof MemoryNonceStore),
    maxAgeSeconds,
    algorithms,
    allowed: new Set<string>(algorithms),
    nonce: options.nonce === undefined ? undefined : nonceIssuer(factory, options.nonce),
    url,
  })
}

/** The server-nonce issuer of `dpop.nonce`: HMAC-SHA-256 of the window number under a secret. */
function nonceIssuer(factory: string, value: unknown): NonceIssuer {
  if (typeof value !== 'object' || value === null) {
    throw optionError(factory, `"dpop.nonce" must be an object, got ${formatValue(value)}`)
  }
  const options = value as NonNullable<DpopOptions['nonce']>
  assertKnownKeys(`${factory} dpop.nonce`, options, ['secret', 'lifetimeSeconds'])
  const lifetime =
    options.lifetimeSeconds === undefined
      ? 300
      : assertPositiveInteger(factory, 'dpop.nonce.lifetimeSeconds', options.lifetimeSeconds)
  const secret = options.secret ?? randomToken()
  const bytes = typeof secret === 'string' ? encoder.encode(secret) : secret
  if (!(bytes instanceof Uint8Array) || bytes.length < 32) {
    throw optionError(factory, '"dpop.nonce.secret" must be at least 32 bytes')
  }
  // A copy of the caller's bytes: the key is imported on first use (see `secretBytes`).
  const copy = new Uint8Array(bytes)
  const key = lazy(() => importHmacKey(copy, 'SHA-256'))
  // The last two windows' nonces: each is computed once, then every request compares strings.
  const memo = new Map<number, Promise<string>>()
  const of = (window: number): Promise<string> => {
    let nonce = memo.get(window)
    if (nonce === undefined) {
      nonce = key().then((k) => hmacSign(k, `dpop:${window}`))
      memo.set(window, nonce)
      for (const w of memo.keys()) if (w < window - 1) memo.delete(w)
    }
    return nonce
  }
  const windowOf = (now: number) => Math.floor(now / 1000 / lifetime)
  return {
    current: (now) => of(windowOf(now)),
    async valid(nonce, now) {
      const window = windowOf(now)
      return nonce === (await of(window)) || nonce === (await of(window - 1))
    },
  }
}
