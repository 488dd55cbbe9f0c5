import type { MiddlewareHandler } from 'hono'
import { type JWTPayload, type JWTVerifyOptions, jwtVerify } from 'jose'
import { BoundedCache } from '../internal/bounded-cache'
import { getCookie } from '../internal/cookie'
import { assertCookieName } from '../internal/cookie-settings'
import { type HmacHash, importHmacKey, lazy } from '../internal/crypto'
import { described } from '../internal/described'
import {
  assertKnownKeys,
  assertNonEmptyString,
  assertNonNegativeInteger,
  assertStringArray,
  optionError,
} from '../internal/options'
import { reject } from '../internal/reject'
import { jwtAuthDescription } from './description'

/**
 * The HMAC algorithms `jwtAuth` and `signJwt` accept.
 *
 * @example
 * const algorithms: JwtAlgorithm[] = ['HS256', 'HS512']
 * app.use('/api/*', jwtAuth({ secret: process.env.JWT_SECRET!, algorithms }))
 */
export type JwtAlgorithm = 'HS256' | 'HS384' | 'HS512'

/**
 * Options of {@link jwtAuth}.
 *
 * @example
 * const options: JwtAuthOptions = {
 *   secret: process.env.JWT_SECRET!,
 *   issuer: 'https://auth.example.com',
 * }
 * app.use('/api/*', jwtAuth(options))
 */
export interface JwtAuthOptions {
  /** HMAC secret key (required, non-empty). A string is used as its UTF-8 bytes. */
  secret: Uint8Array | string
  /** Accepted algorithms, all HMAC. Default `['HS256']`. */
  algorithms?: JwtAlgorithm[]
  /** Also read the token from this cookie when no `Authorization: Bearer` header is sent. */
  cookie?: string
  /** Required `iss` claim (one of, when an array). */
  issuer?: string | string[]
  /** Required `aud` claim (one of, when an array). */
  audience?: string | string[]
  /** Seconds of clock skew tolerated on `exp`, `nbf` and `iat`. Default `0`. */
  clockTolerance?: number
  /** `realm` of the `WWW-Authenticate` challenge. Default `'api'`. */
  realm?: string
}

/** Tokens longer than this are rejected before any parsing (bytes of the compact form). */
export const MAX_TOKEN_LENGTH = 8192

/** How many verified tokens each `jwtAuth` middleware remembers. */
export const VERIFIED_TOKEN_CACHE_SIZE = 1000

/** A token that passed jose: its payload as JSON (a fresh object per request) and its times. */
interface VerifiedToken {
  json: string
  exp: number | undefined
  nbf: number | undefined
}

export const HMAC_HASHES: Readonly<Record<JwtAlgorithm, HmacHash>> = {
  HS256: 'SHA-256',
  HS384: 'SHA-384',
  HS512: 'SHA-512',
}

const KNOWN = [
  'secret',
  'algorithms',
  'cookie',
  'issuer',
  'audience',
  'clockTolerance',
  'realm',
] as const
const encoder = new TextEncoder()

/** Validates a secret once; the bytes are copied so later changes by the caller do not count. */
export function secretBytes(factory: string, value: unknown): Uint8Array {
  if (typeof value === 'string') {
    if (value.length === 0) throw optionError(factory, '"secret" must not be empty')
    return encoder.encode(value)
  }
  if (value instanceof Uint8Array) {
    if (value.length === 0) throw optionError(factory, '"secret" must not be empty')
    return value.slice()
  }
  throw optionError(factory, '"secret" must be a Uint8Array or a string')
}

/** Narrows an algorithm name to the HMAC family; asymmetric algorithms and `none` throw. */
export function assertHmacAlgorithm(factory: string, name: string, value: unknown): JwtAlgorithm {
  if (typeof value !== 'string' || !Object.hasOwn(HMAC_HASHES, value)) {
    throw optionError(
      factory,
      `"${name}" must be 'HS256', 'HS384' or 'HS512' (HMAC only), got ${JSON.stringify(String(value)).slice(0, 40)}`,
    )
  }
  return value as JwtAlgorithm
}

function stringOrList(factory: string, name: string, value: unknown): string | string[] {
  if (typeof value === 'string') return assertNonEmptyString(factory, name, value)
  return assertStringArray(factory, name, value, { allowEmpty: false })
}

/**
 * Verifies an HMAC-signed JWT with jose and puts its payload in the context as `jwtPayload`.
 *
 * The token is read from `Authorization: Bearer <token>` (scheme case-insensitive), else from the
 * `cookie` named in the options. Only `algorithms` are accepted (never `none`, never an asymmetric
 * algorithm); `exp` and `nbf` are enforced. Every failure is a 401 `Unauthorized` with a
 * `WWW-Authenticate: Bearer realm="…"` challenge, plus `error="invalid_token"` when a token was
 * sent (RFC 6750). The HMAC key is imported once, on first use. Up to 1,000 verified tokens are
 * remembered per middleware (exact string, successes only), with `exp`/`nbf` re-checked on every
 * hit, so a returning token skips the WebCrypto verify.
 *
 * @param options.secret HMAC secret (required)
 * @param options.algorithms default `['HS256']`
 * @param options.cookie unset: header only
 * @param options.realm default `'api'`
 * @example
 * ```ts
 * app.use('/api/*', jwtAuth({ secret: process.env.JWT_SECRET! }))
 * app.get('/api/me', (c) => c.json({ sub: c.get('jwtPayload').sub }))
 * ```
 */
export function jwtAuth(options: JwtAuthOptions): MiddlewareHandler {
  const factory = 'jwtAuth'
  if (options === undefined) throw optionError(factory, '"secret" is required')
  assertKnownKeys(factory, options, KNOWN)
  const secret = secretBytes(factory, options.secret)
  const algorithms = assertStringArray(factory, 'algorithms', options.algorithms ?? ['HS256'], {
    allowEmpty: false,
  }).map((alg, i) => assertHmacAlgorithm(factory, `algorithms[${i}]`, alg))
  const cookieName =
    options.cookie === undefined ? undefined : assertCookieName(factory, 'cookie', options.cookie)
  const realm = options.realm ?? 'api'
  if (typeof realm !== 'string' || !/^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/.test(realm)) {
    throw optionError(factory, '"realm" must be printable ASCII without quotes or backslashes')
  }

  const verifyOptions: JWTVerifyOptions = { algorithms: [...algorithms] }
  if (options.issuer !== undefined) {
    verifyOptions.issuer = stringOrList(factory, 'issuer', options.issuer)
  }
  if (options.audience !== undefined) {
    verifyOptions.audience = stringOrList(factory, 'audience', options.audience)
  }
  const tolerance =
    options.clockTolerance === undefined
      ? 0
      : assertNonNegativeInteger(factory, 'clockTolerance', options.clockTolerance)
  if (options.clockTolerance !== undefined) verifyOptions.clockTolerance = tolerance

  // One CryptoKey per allowed algorithm: WebCrypto binds the hash to the key, so a key imported
  // for SHA-256 can never verify an HS512 signature, whatever the token header claims.
  const keys = new Map(
    algorithms.map((alg) => [alg, lazy(() => importHmacKey(secret, HMAC_HASHES[alg]))] as const),
  )
  const getKey = (header: { alg?: string }): Promise<CryptoKey> => {
    const key = header.alg === undefined ? undefined : keys.get(header.alg as JwtAlgorithm)
    // jose checks `algorithms` first; this is the second lock on the same door.
    if (!key) return Promise.reject(new Error('algorithm not allowed'))
    return key()
  }

  // Returning tokens skip the WebCrypto verify (a thread-pool job on Node). Only tokens that
  // passed jwtVerify are stored, under their exact compact form; issuer, audience and algorithms
  // are this factory's constants, so only the time claims can change their verdict, and those
  // are checked again on every hit exactly as jose checks them.
  const verified = new BoundedCache<string, VerifiedToken>(VERIFIED_TOKEN_CACHE_SIZE)
  const stillValid = (entry: VerifiedToken): boolean => {
    const now = Math.floor(Date.now() / 1000)
    return (
      (entry.nbf === undefined || entry.nbf <= now + tolerance) &&
      (entry.exp === undefined || entry.exp > now - tolerance)
    )
  }

  const challenge = `Bearer realm="${realm}"`
  function unauthorized(error?: 'invalid_token' | 'invalid_request'): never {
    reject(401, 'Unauthorized', error ? 'token_invalid' : 'token_missing', {
      'WWW-Authenticate': error ? `${challenge}, error="${error}"` : challenge,
    })
  }

  const description = jwtAuthDescription(cookieName)
  return described(description, async function jwtAuth(c, next) {
    let token: string | undefined
    const authorization = c.req.header('authorization')
    if (authorization !== undefined) {
      const parts = authorization.trim().split(/\s+/)
      if ((parts[0] as string).toLowerCase() === 'bearer') {
        if (parts.length !== 2) unauthorized('invalid_request')
        token = parts[1] as string
      }
    }
    if (token === undefined && cookieName !== undefined) {
      token = getCookie(c, cookieName) || undefined
    }
    if (token === undefined) unauthorized()
    // Cap before parsing: base64 decoding and JSON parsing of a huge token is wasted work.
    if (token.length > MAX_TOKEN_LENGTH) unauthorized('invalid_token')

    let payload: JWTPayload
    const hit = verified.get(token)
    if (hit !== undefined && stillValid(hit)) {
      // Parsed again per request, as jose does: a handler that mutates its payload cannot
      // change what the next request with this token sees.
      payload = JSON.parse(hit.json) as JWTPayload
    } else {
      // A remembered token whose time ran out goes back through jose, which rejects it.
      if (hit !== undefined) verified.delete(token)
      try {
        payload = (await jwtVerify(token, getKey, verifyOptions)).payload
      } catch {
        // Every jose error (malformed, bad signature, expired, alg not allowed…) looks the same
        // to the client: details would only help an attacker probe.
        return unauthorized('invalid_token')
      }
      // jose has checked that exp and nbf, when present, are numbers.
      verified.set(token, {
        json: JSON.stringify(payload),
        exp: payload.exp,
        nbf: payload.nbf,
      })
    }
    c.set('jwtPayload', payload)
    await next()
  })
}
