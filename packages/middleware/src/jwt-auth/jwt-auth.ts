import type { Rejects } from '@palisade/shared/describe'
import type { MiddlewareHandler } from 'hono'
import { type JWTVerifyOptions, jwtVerify } from 'jose'
import { BoundedCache } from '../internal/bounded-cache'
import { getCookieValues } from '../internal/cookie'
import { assertCookieName } from '../internal/cookie-settings'
import { importHmacKey, lazy } from '../internal/crypto'
import { begin, decide } from '../internal/decisions'
import { described } from '../internal/described'
import {
  assertBoolean,
  assertKnownKeys,
  assertNonEmptyString,
  assertNonNegativeInteger,
  assertPositiveInteger,
  assertStringArray,
  optionError,
} from '../internal/options'
import { assertNoDryRun } from '../internal/refuse'
import { reject } from '../internal/reject'
import { jwtAuthDescription } from './description'
import {
  assertHmacAlgorithm,
  HMAC_HASHES,
  type JwtAlgorithm,
  MIN_SECRET_BYTES,
  secretBytes,
} from './hmac'
import { type JWTPayload, type TimeClaims, timeClaims } from './payload'

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
  /**
   * HMAC secret key (required). A string is used as its UTF-8 bytes. At least as long as the
   * hash output of every allowed algorithm (RFC 7518 §3.2): 32 bytes for HS256, 48 for HS384,
   * 64 for HS512.
   */
  secret: Uint8Array | string
  /** Accepted algorithms, all HMAC. Default `['HS256']`. */
  algorithms?: JwtAlgorithm[]
  /** Also read the token from this cookie when no `Authorization: Bearer` header is sent. */
  cookie?: string
  /** Required `iss` claim (one of, when an array). */
  issuer?: string | string[]
  /** Required `aud` claim (one of, when an array). */
  audience?: string | string[]
  /** Seconds of clock skew tolerated on `exp`, `nbf` and `iat` (0–300). Default `0`. */
  clockTolerance?: number
  /** Reject tokens without an `exp` claim. Default `false` (a token without `exp` never expires). */
  requireExp?: boolean
  /**
   * Oldest accepted token, in seconds since its `iat`; tokens without `iat` are then rejected.
   * Unset: no age limit.
   */
  maxTokenAge?: number
  /** `realm` of the `WWW-Authenticate` challenge. Default `'api'`. */
  realm?: string
}

/** Tokens longer than this are rejected before any parsing (bytes of the compact form). */
export const MAX_TOKEN_LENGTH = 8192

/** Copies of the token cookie looked at (cookie tossing). */
const MAX_COOKIE_COPIES = 4

/** How many verified tokens each `jwtAuth` middleware remembers. */
export const VERIFIED_TOKEN_CACHE_SIZE = 1000

/** Largest accepted `clockTolerance`, in seconds: beyond five minutes skew is a broken clock. */
export const MAX_CLOCK_TOLERANCE = 300

/** A token that passed jose: its payload as JSON (a fresh object per request) and its times. */
interface VerifiedToken {
  json: string
  times: TimeClaims
}

const KNOWN = [
  'secret',
  'algorithms',
  'cookie',
  'issuer',
  'audience',
  'clockTolerance',
  'realm',
  'requireExp',
  'maxTokenAge',
] as const

function stringOrList(factory: string, name: string, value: unknown): string | string[] {
  if (typeof value === 'string') return assertNonEmptyString(factory, name, value)
  return assertStringArray(factory, name, value, { allowEmpty: false })
}

/**
 * Verifies an HMAC-signed JWT with jose and puts its payload in the context as `jwtPayload`.
 *
 * The token is read from `Authorization: Bearer <token>` (scheme case-insensitive), else from the
 * `cookie` named in the options. Only `algorithms` are accepted (never `none`, never an asymmetric
 * algorithm); `exp` and `nbf` are enforced, `iat` must not lie in the future, and each of the
 * three, when present, must be a finite number (`1e400` is Infinity, rejected). A secret shorter
 * than the hash output of an allowed algorithm is refused at construction. Every failure is a 401 `Unauthorized` with a
 * `WWW-Authenticate: Bearer realm="…"` challenge, plus `error="invalid_token"` when a token was
 * sent (RFC 6750). The HMAC key is imported once, on first use. Up to 1,000 verified tokens are
 * remembered per middleware (exact string, successes only), with `exp`/`nbf` re-checked on every
 * hit, so a returning token skips the WebCrypto verify.
 *
 * @param options.secret HMAC secret (required)
 * @param options.algorithms default `['HS256']`
 * @param options.cookie unset: header only
 * @param options.realm default `'api'`
 * @param options.clockTolerance default `0` seconds, at most `300`
 * @param options.requireExp default `false`
 * @param options.maxTokenAge unset: no age limit
 * @example
 * ```ts
 * app.use('/api/*', jwtAuth({ secret: process.env.JWT_SECRET! }))
 * app.get('/api/me', (c) => c.json({ sub: c.get('jwtPayload').sub }))
 * ```
 */
export function jwtAuth(
  options: JwtAuthOptions,
): MiddlewareHandler & Rejects<{ 401: 'token_missing' | 'token_invalid' }> {
  const factory = 'jwtAuth'
  if (options === undefined) throw optionError(factory, '"secret" is required')
  assertNoDryRun(factory, options)
  assertKnownKeys(factory, options, KNOWN)
  const algorithms = assertStringArray(factory, 'algorithms', options.algorithms ?? ['HS256'], {
    allowEmpty: false,
  }).map((alg, i) => assertHmacAlgorithm(factory, `algorithms[${i}]`, alg))
  const secret = secretBytes(
    factory,
    options.secret,
    Math.max(...algorithms.map((alg) => MIN_SECRET_BYTES[alg])),
  )
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
  if (tolerance > MAX_CLOCK_TOLERANCE) {
    throw optionError(
      factory,
      `"clockTolerance" must be at most ${MAX_CLOCK_TOLERANCE} seconds, got ${tolerance}`,
    )
  }
  if (options.clockTolerance !== undefined) verifyOptions.clockTolerance = tolerance
  const requireExp =
    options.requireExp === undefined
      ? false
      : assertBoolean(factory, 'requireExp', options.requireExp)
  if (requireExp) verifyOptions.requiredClaims = ['exp']
  const maxTokenAge =
    options.maxTokenAge === undefined
      ? undefined
      : assertPositiveInteger(factory, 'maxTokenAge', options.maxTokenAge)
  if (maxTokenAge !== undefined) verifyOptions.maxTokenAge = maxTokenAge

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
  // Our own time checks, on fresh and remembered tokens alike, on top of jose's: `iat` in the
  // future (jose checks that only with maxTokenAge), and exp / nbf / maxTokenAge as jose does.
  const timesValid = (t: TimeClaims): boolean => {
    const now = Math.floor(Date.now() / 1000)
    return (
      (t.nbf === undefined || t.nbf <= now + tolerance) &&
      (t.exp === undefined || t.exp > now - tolerance) &&
      (t.iat === undefined || t.iat <= now + tolerance) &&
      (maxTokenAge === undefined || (t.iat !== undefined && now - t.iat - tolerance <= maxTokenAge))
    )
  }

  const challenge = `Bearer realm="${realm}"`
  function unauthorized(error?: 'invalid_token' | 'invalid_request'): never {
    reject(401, 'Unauthorized', error ? 'token_invalid' : 'token_missing', {
      'WWW-Authenticate': error ? `${challenge}, error="${error}"` : challenge,
    })
  }

  /** The verified payload of `token`, or `null`: from the cache when it is still valid. */
  const verify = async (token: string): Promise<JWTPayload | null> => {
    // Cap before parsing: base64 decoding and JSON parsing of a huge token is wasted work.
    if (token.length > MAX_TOKEN_LENGTH) return null
    const hit = verified.get(token)
    if (hit !== undefined && timesValid(hit.times)) {
      // Parsed again per request, as jose does: a handler that mutates its payload cannot
      // change what the next request with this token sees.
      return JSON.parse(hit.json) as JWTPayload
    }
    // A remembered token whose time ran out goes back through jose, which rejects it.
    if (hit !== undefined) verified.delete(token)
    let payload: JWTPayload
    try {
      payload = (await jwtVerify(token, getKey, verifyOptions)).payload
    } catch {
      // Every jose error (malformed, bad signature, expired, alg not allowed…) looks the same
      // to the client: details would only help an attacker probe.
      return null
    }
    const times = timeClaims(payload)
    if (times === null || !timesValid(times)) return null
    verified.set(token, { json: JSON.stringify(payload), times })
    return payload
  }

  const description = jwtAuthDescription(cookieName)
  return described(description, async function jwtAuth(c, next) {
    const d = begin(c, factory)
    let token: string | undefined
    const authorization = c.req.header('authorization')
    if (authorization !== undefined) {
      const parts = authorization.trim().split(/\s+/)
      if ((parts[0] as string).toLowerCase() === 'bearer') {
        if (parts.length !== 2) unauthorized('invalid_request')
        token = parts[1] as string
      }
    }
    let payload: JWTPayload | null
    if (token !== undefined) {
      payload = await verify(token)
    } else {
      const copies =
        cookieName === undefined
          ? []
          : getCookieValues(c, cookieName, MAX_COOKIE_COPIES).filter((v) => v !== '')
      if (copies.length === 0) unauthorized()
      payload = await fromCookies(copies)
    }
    if (payload === null) unauthorized('invalid_token')
    c.set('jwtPayload', payload)
    decide(d, 'allow')
    await next()
  })

  /**
   * Cookie tossing: a sibling subdomain can plant a second cookie of this name that the browser
   * sends first. Every copy (up to 4) is verified: junk in front is skipped, and two different
   * valid tokens (one may be the attacker's own) are ambiguous and accept neither.
   */
  async function fromCookies(copies: string[]): Promise<JWTPayload | null> {
    let found: { token: string; payload: JWTPayload } | null = null
    for (const copy of copies) {
      if (found !== null && copy === found.token) continue
      const payload = await verify(copy)
      if (payload === null) continue
      if (found !== null) return null
      found = { token: copy, payload }
    }
    return found === null ? null : found.payload
  }
}
