import type { Context, MiddlewareHandler } from 'hono'
import { BoundedCache } from '../internal/caches/bounded-cache'
import { copyJson } from '../internal/caches/json-copy'
import { getCookieCopies } from '../internal/cookies/cookie'
import { assertCookieName } from '../internal/cookies/cookie-settings'
import { importHmacKey, lazy } from '../internal/crypto'
import {
  assertBoolean,
  assertFunction,
  assertKnownKeys,
  assertNonEmptyString,
  assertNonNegativeInteger,
  assertPositiveInteger,
  assertStringArray,
  formatValue,
  optionError,
} from '../internal/options'
import { begin, decide } from '../internal/outcomes/decisions'
import { described } from '../internal/outcomes/described'
import { assertNoDryRun } from '../internal/outcomes/reject-or-record'
import { failureReporter } from '../internal/stores/failure-report'
import { type JwtAuthRejects, reject } from './answers'
import { jwtAuthDescription } from './description'
import {
  assertHmacAlgorithm,
  HMAC_HASHES,
  type JwtAlgorithm,
  MIN_SECRET_BYTES,
  secretBytes,
} from './hmac'
import {
  discoveryUrl,
  type JwksCacheOptions,
  type JwksFetch,
  JwksUnavailableError,
  jwksCacheSettings,
  remoteKeySource,
  remoteUrl,
} from './jwks'
import {
  type CompactJws,
  jsonObject,
  normalizeTyp,
  parseCompact,
  signatureValid,
  utf8,
} from './jws'
import {
  ASYMMETRIC_ALGORITHMS,
  type AsymmetricAlgorithm,
  assertAsymmetricAlgorithm,
  isJoseError,
  type KeySource,
  localJwksSource,
  publicKeyAlgorithms,
  publicKeySource,
} from './keys'
import { type JWK, type JWTPayload, type TimeClaims, timeClaims } from './payload'

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
   * HMAC secret key. A string is used as its UTF-8 bytes. At least as long as the hash output of
   * every allowed algorithm (RFC 7518 §3.2): 32 bytes for HS256, 48 for HS384, 64 for HS512.
   * Exactly one of `secret`, `publicKey`, `jwks` or `issuer` with `discovery: true` is given.
   */
  secret?: Uint8Array | string
  /** One public key: a `CryptoKey`, a public JWK or an SPKI PEM (`-----BEGIN PUBLIC KEY-----`). */
  publicKey?: CryptoKey | JWK | string
  /**
   * A JWKS: its URL (`https`, or `http` on loopback), fetched on first use and cached, or the
   * set itself (`{ keys: [...] }`).
   */
  jwks?: string | URL | { keys: JWK[] }
  /** Read the JWKS URL (`jwks_uri`) from `${issuer}/.well-known/openid-configuration`. */
  discovery?: boolean
  /** How a remote JWKS is cached (`jwks` URL or `discovery`). */
  jwksCache?: JwksCacheOptions
  /** The `fetch` used for the JWKS and the discovery document. Default: the platform's. */
  fetch?: JwksFetch
  /**
   * Called for each request that met a failed fetch of a remote key set: answered 503
   * `jwks_unavailable`, verified with stale keys, or an unknown `kid` that could not be refetched.
   * The error's message names the URL and what went wrong (`https://…/jwks.json answered 503; …`,
   * an issuer that differs from the discovery document by a trailing slash, …). Default: one
   * `console.warn` per outage (the first failure after a successful fetch).
   */
  onKeySetError?: (error: Error, c: Context) => void
  /**
   * Accepted algorithms. Default `['HS256']` with `secret`; the key's own algorithm with
   * `publicKey`; every public-key algorithm with a JWKS (each key still has to fit). HMAC and
   * public-key algorithms never mix.
   */
  algorithms?: (JwtAlgorithm | AsymmetricAlgorithm)[]
  /** Also read the token from this cookie when no `Authorization: Bearer` header is sent. */
  cookie?: string
  /** Required `iss` claim (one of, when an array); with `discovery`, the issuer (one string). */
  issuer?: string | string[]
  /** Required `aud` claim (one of, when an array; an `aud` array needs one of them). */
  audience?: string | string[]
  /** Required `typ` header, e.g. `'at+jwt'` (RFC 9068 access tokens). Unset: any. */
  typ?: string
  /** Required `azp` claim (authorized party; one of, when an array). Unset: not checked. */
  azp?: string | string[]
  /**
   * Scopes the token must all carry, read from `scope` (space-separated) and `scp` (an array or
   * a space-separated string). Missing ones answer 403 `insufficient_scope`.
   */
  scopes?: string[]
  /**
   * Other claims that must equal a value (or one of a list), e.g. `{ token_use: 'access' }`
   * for Cognito or `{ role: 'authenticated' }` for Supabase.
   */
  claims?: Record<string, string | string[]>
  /** Seconds of clock skew tolerated on `exp`, `nbf` and `iat` (0–300). Default `0`. */
  clockTolerance?: number
  /**
   * Reject tokens without an `exp` claim: 401 `token_invalid`, with a message and an
   * `error_description` naming the missing claim. Default `true`; `false` accepts tokens that
   * never expire.
   */
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

/** How many verified tokens each `jwtAuth` middleware remembers. */
export const VERIFIED_TOKEN_CACHE_SIZE = 1000

/** Largest accepted `clockTolerance`, in seconds: beyond five minutes skew is a broken clock. */
export const MAX_CLOCK_TOLERANCE = 300

/** A token that passed: its payload (copied for each request) and its times. */
interface VerifiedToken {
  /** The whole compact token: the cache is keyed by its signature alone (see `signatureOf`). */
  token: string
  /** The payload as parsed when it passed; never handed out itself (see `copyJson`). */
  payload: JWTPayload
  times: TimeClaims
  /** The key source's generation it was verified under (a JWKS refresh invalidates it). */
  generation: number
}

const KNOWN = [
  'secret',
  'publicKey',
  'jwks',
  'discovery',
  'jwksCache',
  'fetch',
  'onKeySetError',
  'typ',
  'azp',
  'scopes',
  'claims',
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

/** Keys tried for a token that several JWKS keys fit (no `kid`, or a `kid` shared by keys). */
export const MAX_CANDIDATE_KEYS = 5

/** RFC 6749 §3.3 scope-token: printable ASCII without space, quote or backslash. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/
/** Claims with an option of their own: `claims` would check them a second, weaker way. */
/** A validly signed token without `exp`, refused under `requireExp` (the default). */
const NO_EXP = Symbol('no exp')

/**
 * The signature segment of a compact token (after its last dot): the key of the verified-token
 * cache. Two tokens that both verify never share it (it signs everything before it), and a hit
 * is still compared in full, so a shared key only ever costs a lookup.
 */
function signatureOf(token: string): string {
  return token.slice(token.lastIndexOf('.') + 1)
}

/** An Authorization header with the Bearer scheme and not exactly one token after it. */
export const INVALID_REQUEST = Symbol('invalid_request')

/** Any character `\s` matches (JavaScript whitespace, as `trim()` and `split(/\s+/)` see it). */
const WHITESPACE = /\s/

/**
 * The token of an `Authorization: Bearer <token>` header: the header trimmed and split at runs
 * of whitespace, the first part the scheme (any case). `undefined` for another scheme,
 * {@link INVALID_REQUEST} for Bearer with no token or more than one part after it.
 *
 * The usual header (`Bearer `, one space, then a token with no whitespace) is sliced without
 * building the split's array; anything else takes the split, so both give the same answer
 * (bearer.property.test.ts checks that on generated headers).
 */
export function bearerToken(authorization: string): string | undefined | typeof INVALID_REQUEST {
  // Only ASCII letters lower-case to "bearer", so a match here is one the split would make.
  if (authorization.length > 7 && authorization.slice(0, 7).toLowerCase() === 'bearer ') {
    const token = authorization.slice(7)
    if (!WHITESPACE.test(token)) return token
  }
  const parts = authorization.trim().split(/\s+/)
  if ((parts[0] as string).toLowerCase() !== 'bearer') return undefined
  return parts.length === 2 ? (parts[1] as string) : INVALID_REQUEST
}

// No double quote: it also goes into the challenge's quoted error_description (RFC 6750).
const MISSING_EXP_MESSAGE = 'The token has no exp (expiration time) claim, which is required'

const DEDICATED_CLAIMS = ['iss', 'aud', 'azp', 'exp', 'nbf', 'iat', 'scope', 'scp']

/** The scopes a token grants: `scope` (space-separated) and `scp` (array or space-separated). */
export function tokenScopes(payload: JWTPayload): Set<string> {
  const out = new Set<string>()
  for (const value of [payload.scope, payload.scp]) {
    if (typeof value === 'string') {
      for (const s of value.split(' ')) if (s !== '') out.add(s)
    } else if (Array.isArray(value)) {
      for (const s of value) if (typeof s === 'string') out.add(s)
    }
  }
  return out
}

function claimRules(factory: string, value: unknown): [string, string[]][] {
  if (value === undefined) return []
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw optionError(factory, '"claims" must be an object of claim names to values')
  }
  return Object.entries(value).map(([name, expected]) => {
    if (DEDICATED_CLAIMS.includes(name)) {
      throw optionError(factory, `"claims.${name}": use the option of that claim instead`)
    }
    return [name, [stringOrList(factory, `claims.${name}`, expected)].flat()]
  })
}

/** Which key source the options name: exactly one, or a `TypeError`. */
function keySourceKind(factory: string, options: JwtAuthOptions) {
  if (options.discovery !== undefined) assertBoolean(factory, 'discovery', options.discovery)
  const given = [
    options.secret !== undefined && 'secret',
    options.publicKey !== undefined && 'publicKey',
    options.jwks !== undefined && 'jwks',
    options.discovery === true && 'discovery',
  ].filter((k): k is 'secret' | 'publicKey' | 'jwks' | 'discovery' => k !== false)
  if (given.length === 0 && Object.hasOwn(options, 'secret')) {
    // `secret: process.env.JWT_SECRET` with the variable unset: say so, not "must be a string".
    throw optionError(
      factory,
      '"secret" is undefined (an unset environment variable?): give a Uint8Array or a string, or "publicKey", "jwks" or "issuer" with "discovery: true"',
    )
  }
  if (given.length === 0) {
    throw optionError(
      factory,
      '"secret" must be a Uint8Array or a string, or give "publicKey", "jwks" or "issuer" with "discovery: true"',
    )
  }
  if (given.length > 1) {
    throw optionError(
      factory,
      `give exactly one key source, got ${given.map((k) => `"${k}"`).join(' and ')}: an HMAC secret and public keys never mix`,
    )
  }
  return given[0] as 'secret' | 'publicKey' | 'jwks' | 'discovery'
}

/**
 * Verifies a JWT and puts its payload in the context as `jwtPayload`: one pass over the compact
 * token and one WebCrypto verify (jose imports the keys and picks JWKS members). The key comes
 * from exactly one source: an HMAC `secret`, one `publicKey`, a `jwks` (URL or object), or the
 * `issuer`'s OpenID discovery document (`discovery: true`).
 *
 * The token is read from `Authorization: Bearer <token>` (scheme case-insensitive), else from the
 * `cookie` named in the options. Only `algorithms` are accepted (never `none`, never HMAC with a
 * public key or a public-key algorithm with a secret, and a JWKS key only for its own type,
 * `alg` and `use`); `exp` and `nbf` are enforced, `iat` must not lie in the future, and each of
 * the three, when present, must be a finite number (`1e400` is Infinity, rejected). A secret
 * shorter than the hash output of an allowed algorithm is refused at construction. Every failure
 * is a 401 `Unauthorized` with a `WWW-Authenticate: Bearer realm="…"` challenge, plus
 * `error="invalid_token"` when a token was sent (RFC 6750); a token without `exp` is refused
 * unless `requireExp: false`, with a message that says so; missing `scopes` are a 403
 * `insufficient_scope`; a JWKS that cannot be fetched (and has no stale keys left) is a 503
 * `jwks_unavailable`. Keys are imported (and a JWKS fetched) on first use, never at
 * construction. Up to 1,000 verified tokens are remembered per middleware (exact string),
 * with `exp`/`nbf` re-checked on every hit, so a returning token skips the WebCrypto verify;
 * apart from them, up to 1,000 tokens whose signature failed are refused from memory while the
 * key set is the one they failed under.
 *
 * @param options.secret HMAC secret; or `publicKey`, `jwks`, or `issuer` + `discovery: true`
 * @param options.algorithms default `['HS256']` with a secret, the key's own with `publicKey`,
 *   every public-key algorithm with a JWKS
 * @param options.jwksCache default `{ maxAgeMs: 600000, cooldownMs: 30000, maxStaleMs: 3600000,
 *   timeoutMs: 5000 }`
 * @param options.cookie unset: header only
 * @param options.realm default `'api'`
 * @param options.clockTolerance default `0` seconds, at most `300`
 * @param options.requireExp default `true`
 * @param options.maxTokenAge unset: no age limit
 * @param options.scopes default `[]`
 * @example
 * ```ts
 * app.use('/api/*', jwtAuth({ secret: process.env.JWT_SECRET! }))
 * app.use(
 *   '/v1/*',
 *   jwtAuth({ issuer: 'https://tenant.auth0.com/', discovery: true, audience: 'https://api', scopes: ['read:items'] }),
 * )
 * app.get('/api/me', (c) => c.json({ sub: c.get('jwtPayload').sub }))
 * ```
 */
export function jwtAuth(options: JwtAuthOptions): MiddlewareHandler & JwtAuthRejects {
  const factory = 'jwtAuth'
  if (options === undefined) {
    throw optionError(
      factory,
      '"secret" is required (or "publicKey", "jwks", "issuer" + "discovery")',
    )
  }
  assertNoDryRun(factory, options)
  assertKnownKeys(factory, options, KNOWN)
  const kind = keySourceKind(factory, options)
  const listed =
    options.algorithms === undefined
      ? undefined
      : assertStringArray(factory, 'algorithms', options.algorithms, { allowEmpty: false })

  let algorithms: string[]
  let source: KeySource
  let remote = false
  let openIdConnectUrl: string | undefined
  if (kind === 'secret') {
    const hmac = (listed ?? ['HS256']).map((alg, i) =>
      assertHmacAlgorithm(factory, `algorithms[${i}]`, alg),
    )
    const secret = secretBytes(
      factory,
      options.secret,
      Math.max(...hmac.map((alg) => MIN_SECRET_BYTES[alg])),
    )
    // One CryptoKey per allowed algorithm: WebCrypto binds the hash to the key, so a key imported
    // for SHA-256 can never verify an HS512 signature, whatever the token header claims.
    const keys = new Map(
      hmac.map((alg) => [alg, lazy(() => importHmacKey(secret, HMAC_HASHES[alg]))] as const),
    )
    source = {
      key: (header) => {
        const key = header.alg === undefined ? undefined : keys.get(header.alg as JwtAlgorithm)
        // parseCompact checks `algorithms` first; this is the second lock on the same door.
        return key ? key() : Promise.reject(new Error('algorithm not allowed'))
      },
      generation: () => 0,
    }
    algorithms = hmac
  } else {
    const asymmetric = listed?.map((alg, i) =>
      assertAsymmetricAlgorithm(factory, `algorithms[${i}]`, alg),
    )
    if (kind === 'publicKey') {
      const { fits, defaults } = publicKeyAlgorithms(factory, options.publicKey)
      algorithms = asymmetric ?? defaults
      for (const alg of algorithms) {
        if (!fits.includes(alg as AsymmetricAlgorithm)) {
          throw optionError(
            factory,
            `"algorithms" lists ${alg}, which does not fit the public key (it verifies ${fits.join(', ')})`,
          )
        }
      }
      source = publicKeySource(
        options.publicKey as CryptoKey | JWK | string,
        algorithms as AsymmetricAlgorithm[],
      )
    } else {
      algorithms = asymmetric ?? [...ASYMMETRIC_ALGORITHMS]
      const jwks = options.jwks
      if (kind === 'jwks' && typeof jwks === 'object' && !(jwks instanceof URL)) {
        source = localJwksSource(factory, jwks)
      } else {
        remote = true
        const settings = jwksCacheSettings(factory, options.jwksCache)
        const fetchImpl =
          options.fetch === undefined
            ? undefined
            : assertFunction<JwksFetch>(factory, 'fetch', options.fetch)
        if (kind === 'jwks') {
          const url = remoteUrl(factory, 'jwks', jwks).href
          source = remoteKeySource({ jwksUrl: url }, settings, fetchImpl)
        } else {
          if (typeof options.issuer !== 'string') {
            throw optionError(factory, '"discovery: true" needs "issuer" as one URL string')
          }
          remoteUrl(factory, 'issuer', options.issuer)
          source = remoteKeySource({ issuer: options.issuer }, settings, fetchImpl)
          openIdConnectUrl = discoveryUrl(options.issuer)
        }
      }
    }
  }
  if (
    !remote &&
    (options.jwksCache !== undefined ||
      options.fetch !== undefined ||
      options.onKeySetError !== undefined)
  ) {
    throw optionError(
      factory,
      '"jwksCache", "fetch" and "onKeySetError" apply only to a JWKS URL or discovery',
    )
  }
  const onKeySetError =
    options.onKeySetError === undefined
      ? undefined
      : assertFunction<NonNullable<JwtAuthOptions['onKeySetError']>>(
          factory,
          'onKeySetError',
          options.onKeySetError,
        )

  const cookieName =
    options.cookie === undefined ? undefined : assertCookieName(factory, 'cookie', options.cookie)
  const realm = options.realm ?? 'api'
  if (typeof realm !== 'string' || !/^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/.test(realm)) {
    throw optionError(factory, '"realm" must be printable ASCII without quotes or backslashes')
  }

  const allowed: ReadonlySet<string> = new Set(algorithms)
  const issuers =
    options.issuer === undefined
      ? undefined
      : [stringOrList(factory, 'issuer', options.issuer)].flat()
  const audiences =
    options.audience === undefined
      ? undefined
      : [stringOrList(factory, 'audience', options.audience)].flat()
  const typ =
    options.typ === undefined
      ? undefined
      : normalizeTyp(assertNonEmptyString(factory, 'typ', options.typ))
  const azp =
    options.azp === undefined ? undefined : [stringOrList(factory, 'azp', options.azp)].flat()
  const claimChecks = claimRules(factory, options.claims)
  const scopes =
    options.scopes === undefined ? [] : assertStringArray(factory, 'scopes', options.scopes).slice()
  for (const scope of scopes) {
    if (!SCOPE_TOKEN.test(scope)) {
      throw optionError(
        factory,
        `"scopes" entries must be RFC 6749 scope tokens, got ${formatValue(scope)}`,
      )
    }
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
  // Checked after the signature and every other claim, so only the holder of a validly signed
  // token learns that its missing `exp` is why it was refused.
  const requireExp =
    options.requireExp === undefined
      ? true
      : assertBoolean(factory, 'requireExp', options.requireExp)
  const maxTokenAge =
    options.maxTokenAge === undefined
      ? undefined
      : assertPositiveInteger(factory, 'maxTokenAge', options.maxTokenAge)
  const cacheSettings = jwksCacheSettings(factory, options.jwksCache)
  const retryAfter = String(Math.ceil(cacheSettings.cooldownMs / 1000))
  // A remote key set that cannot be fetched, told once per outage (or to onKeySetError).
  const [keySetFailed, keySetRecovered] = failureReporter(
    (reason) =>
      `${factory}: cannot fetch the key set (${reason}); keys already fetched keep verifying up to ${cacheSettings.maxStaleMs / 1000} s past their max age, after that requests get 503 jwks_unavailable. Told once until a fetch succeeds.`,
    onKeySetError as ((error: unknown, c: Context) => void) | undefined,
  )

  // Returning tokens skip the WebCrypto verify (a thread-pool job on Node). Only tokens that
  // passed are stored, under their exact compact form; issuer, audience, algorithms and claim
  // rules are this factory's constants, so only the time claims and the key set can change their
  // verdict: times are checked again on every hit, and an entry counts only while the key set it
  // was verified with is current. Keyed by the signature segment (`signatureOf`), which is
  // shorter to hash than the whole token; a hit counts only when its whole token is this one.
  const verified = new BoundedCache<string, VerifiedToken>(VERIFIED_TOKEN_CACHE_SIZE)
  // Tokens whose signature failed, by the key set's generation they failed under: a client
  // resending a tampered token costs a lookup, not a verify each time. Kept apart from `verified`,
  // so a flood of bad tokens evicts only other bad tokens.
  const refused = new BoundedCache<string, number>(VERIFIED_TOKEN_CACHE_SIZE)
  // The time checks of fresh and remembered tokens alike: exp, nbf, maxTokenAge and an `iat` in
  // the future (jose checks that one only with maxTokenAge).
  const timesValid = (t: TimeClaims): boolean => {
    // The real time, not floored as jose floors it: a fractional exp that passed 90 ms ago has
    // passed (jose's floored checks run first on a fresh token, see registeredClaimsValid).
    const now = Date.now() / 1000
    return (
      (t.nbf === undefined || t.nbf <= now + tolerance) &&
      (t.exp === undefined || t.exp > now - tolerance) &&
      (t.iat === undefined || t.iat <= now + tolerance) &&
      (maxTokenAge === undefined || (t.iat !== undefined && now - t.iat - tolerance <= maxTokenAge))
    )
  }
  /**
   * jose's `jwtVerify` claim checks, with the same answers: `typ` (`at+jwt` equals
   * `application/at+jwt`), `iss` one of the issuers, `aud` (or one member of an `aud` array) one
   * of the audiences, and nbf / exp / maxTokenAge against the time floored to the second.
   */
  const registeredClaimsValid = (jws: CompactJws, p: JWTPayload, t: TimeClaims): boolean => {
    const headerTyp = jws.header.typ
    if (typ !== undefined && (typeof headerTyp !== 'string' || normalizeTyp(headerTyp) !== typ)) {
      return false
    }
    if (issuers !== undefined && !issuers.includes(p.iss as string)) return false
    const aud = p.aud
    if (
      audiences !== undefined &&
      !(typeof aud === 'string'
        ? audiences.includes(aud)
        : Array.isArray(aud) && audiences.some((a) => aud.includes(a)))
    ) {
      return false
    }
    const now = Math.floor(Date.now() / 1000)
    if (t.nbf !== undefined && t.nbf > now + tolerance) return false
    if (t.exp !== undefined && t.exp <= now - tolerance) return false
    if (maxTokenAge !== undefined) {
      if (t.iat === undefined) return false
      const age = now - t.iat
      if (age - tolerance > maxTokenAge || age < -tolerance) return false
    }
    return true
  }
  const claimsValid = (p: JWTPayload): boolean =>
    (azp === undefined || (typeof p.azp === 'string' && azp.includes(p.azp))) &&
    claimChecks.every(([name, values]) => {
      const value = p[name]
      return typeof value === 'string' && values.includes(value)
    })

  const challenge = `Bearer realm="${realm}"`
  function unauthorized(error?: 'invalid_token' | 'invalid_request'): never {
    reject(401, 'Unauthorized', error ? 'token_invalid' : 'token_missing', {
      'WWW-Authenticate': error ? `${challenge}, error="${error}"` : challenge,
    })
  }
  function expMissing(): never {
    reject(401, MISSING_EXP_MESSAGE, 'token_invalid', {
      'WWW-Authenticate': `${challenge}, error="invalid_token", error_description="${MISSING_EXP_MESSAGE}"`,
    })
  }
  const scopeChallenge = `${challenge}, error="insufficient_scope", scope="${scopes.join(' ')}"`

  /**
   * Whether one of several fitting JWKS keys (the first {@link MAX_CANDIDATE_KEYS}) verifies
   * `jws`. jose imports each key as the loop asks for it, so stopping at the cap also stops the
   * imports: a token without `kid` costs at most that many, however large the set.
   */
  async function validWithAny(jws: CompactJws, keys: AsyncIterable<CryptoKey>): Promise<boolean> {
    let tried = 0
    for await (const key of keys) {
      if (await signatureValid(jws, key)) return true
      if (++tried === MAX_CANDIDATE_KEYS) break
    }
    return false
  }

  /**
   * What is known of `token` without a verify, and without a turn of the microtask queue:
   * - the payload of a token verified before under the current key set and still valid;
   * - `null` for one verified before whose times ran out: time only moves on, so an expired
   *   token (or one past `maxTokenAge`) is refused from memory, however often a client resends it;
   * - `null` for one whose signature failed under the current key set (a tampered token resent);
   * - `undefined` otherwise: `verifyAnew` checks it in full.
   */
  const remembered = (token: string): JWTPayload | null | undefined => {
    const generation = source.generation()
    const hit = verified.get(signatureOf(token))
    if (hit !== undefined && hit.token === token && hit.generation === generation) {
      if (!timesValid(hit.times)) return null
      // A copy per request: a handler that mutates its payload cannot change what the next
      // request with this token sees.
      return copyJson(hit.payload)
    }
    if (refused.get(token) === generation) return null
    return undefined
  }

  /**
   * The verified payload of `token`, or `null`: from memory when it is known (`remembered`).
   * `NO_EXP` for a validly signed token without the `exp` that `requireExp` asks for.
   */
  const verify = async (token: string, c: Context): Promise<JWTPayload | null | typeof NO_EXP> => {
    // Cap before parsing: base64 decoding and JSON parsing of a huge token is wasted work.
    if (token.length > MAX_TOKEN_LENGTH) return null
    const known = remembered(token)
    return known !== undefined ? known : verifyAnew(token, c)
  }

  /**
   * `verify` for a token not remembered (or whose time or key set ran out): checked in full. A
   * key-set fetch failure this request gets past is reported with its context `c`; one it cannot
   * get past is thrown (a `JwksUnavailableError`, the 503).
   */
  const verifyAnew = async (
    token: string,
    c: Context,
  ): Promise<JWTPayload | null | typeof NO_EXP> => {
    // This token's own entry only: another token that ends in the same signature (a forgery
    // built on a valid one) must not evict it.
    const signature = signatureOf(token)
    if (verified.get(signature)?.token === token) verified.delete(signature)
    // One parse: form, header, allowed alg and crit, before any key is looked up.
    const jws = parseCompact(token, allowed)
    if (jws === null) return null
    let generation = -1
    let valid: boolean
    let failed = false
    const onFailure = remote
      ? (error: Error) => {
          failed = true
          keySetFailed(error, c)
        }
      : undefined
    try {
      // The key comes from the key source only: `jku`, `x5u` and `jwk` in the header are never
      // read. A key source answers only for the header's alg (and kid); signatureValid checks
      // again that the key is of that algorithm before it verifies anything.
      const key = await source.key(
        jws.header as { alg: string; kid?: string },
        undefined,
        onFailure,
      )
      // The outage (if any) is over only once a fetch succeeded, not when stale keys served.
      if (!failed && source.failure?.() === undefined) keySetRecovered()
      generation = source.generation()
      valid = await signatureValid(jws, key)
    } catch (err) {
      if (err instanceof JwksUnavailableError) throw err
      // Every other failure (no such key, alg not allowed…) looks the same to the client:
      // details would only help an attacker probe.
      if (!isJoseError(err, 'ERR_JWKS_MULTIPLE_MATCHING_KEYS')) return null
      valid = await validWithAny(jws, err as unknown as AsyncIterable<CryptoKey>)
      generation = source.generation()
    }
    if (!valid) {
      // A key set that changes (a JWKS refresh) gives the token a fresh check.
      if (generation >= 0) refused.set(token, generation)
      return null
    }
    const text = utf8(jws.payload)
    const payload = jsonObject(text) as JWTPayload | null
    if (payload === null) return null
    const times = timeClaims(payload)
    if (times === null || !registeredClaimsValid(jws, payload, times)) return null
    if (!timesValid(times) || !claimsValid(payload)) return null
    if (requireExp && times.exp === undefined) return NO_EXP
    // Verified with stale keys (an outage): not remembered, so every request asks the cache.
    if (generation >= 0) {
      verified.set(signature, { token, payload: copyJson(payload), times, generation })
    }
    return payload
  }

  const description = jwtAuthDescription({ cookieName, scopes, remote, openIdConnectUrl })
  return described(description, async function jwtAuth(c, next) {
    const d = begin(c, factory)
    let token: string | undefined
    const authorization = c.req.header('authorization')
    if (authorization !== undefined) {
      const bearer = bearerToken(authorization)
      if (bearer === INVALID_REQUEST) unauthorized('invalid_request')
      token = bearer
    }
    let copies: string[] = []
    if (token === undefined) {
      const all = cookieName === undefined ? [] : getCookieCopies(c, cookieName)
      // More copies than are examined (padding): ambiguous, none is accepted.
      if (all === null) unauthorized('invalid_token')
      copies = all.filter((v) => v !== '')
      if (copies.length === 0) unauthorized()
    }
    let payload: JWTPayload | null | typeof NO_EXP
    try {
      if (token === undefined) payload = await fromCookies(copies, c)
      else if (token.length > MAX_TOKEN_LENGTH) payload = null
      else {
        const known = remembered(token)
        payload = known !== undefined ? known : await verifyAnew(token, c)
      }
    } catch (err) {
      if (!(err instanceof JwksUnavailableError)) throw err
      // The cause goes to the operator (hook or warning, decision record), never to the client.
      keySetFailed(err, c)
      decide(d, 'reject', 'jwks_unavailable', 503)
      if (d !== undefined) d.decision.cause = err.message
      reject(503, 'Service Unavailable', 'jwks_unavailable', { 'Retry-After': retryAfter })
    }
    if (payload === null) unauthorized('invalid_token')
    if (payload === NO_EXP) expMissing()
    if (scopes.length > 0) {
      const granted = tokenScopes(payload)
      if (!scopes.every((s) => granted.has(s))) {
        reject(403, 'Forbidden', 'insufficient_scope', { 'WWW-Authenticate': scopeChallenge })
      }
    }
    c.set('jwtPayload', payload)
    decide(d, 'allow')
    // Nothing to do after the handler: the chain's promise is this middleware's.
    return next()
  })

  /**
   * Cookie tossing: a sibling subdomain can plant a second cookie of this name that the browser
   * sends first. Every copy (up to 8; more is a 401) is verified: junk in front is skipped, and two different
   * valid tokens (one may be the attacker's own) are ambiguous and accept neither.
   */
  async function fromCookies(
    copies: string[],
    c: Context,
  ): Promise<JWTPayload | null | typeof NO_EXP> {
    let found: { token: string; payload: JWTPayload } | null = null
    let noExp = false
    for (const copy of copies) {
      if (found !== null && copy === found.token) continue
      const payload = await verify(copy, c)
      if (payload === NO_EXP) noExp = true
      if (payload === null || payload === NO_EXP) continue
      if (found !== null) return null
      found = { token: copy, payload }
    }
    if (found === null) return noExp ? NO_EXP : null
    return found.payload
  }
}
