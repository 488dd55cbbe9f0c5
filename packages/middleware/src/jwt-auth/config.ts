import type { Context } from 'hono'
import { assertCookieName } from '../internal/cookies/cookie-settings'
import { type JwksCacheOptions, type JwksFetch, jwksCacheSettings } from '../internal/keys/jwks'
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
import { assertNoDryRun } from '../internal/outcomes/reject-or-record'
import { type DpopConfig, type DpopOptions, dpopConfig } from './dpop-config'
import type { JwtAlgorithm } from './hmac'
import { normalizeTyp } from './jws'
import { type JwtKeys, jwtKeys, keySourceKind } from './key-source'
import type { AsymmetricAlgorithm } from './keys'
import type { JWK } from './payload'

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
  /**
   * DPoP (RFC 9449): tokens bound to a client key, sent as `Authorization: DPoP <token>` with a
   * `DPoP` proof header. `'required'` accepts nothing else; `'allowed'` also takes Bearer for
   * tokens that are not bound. The object form sets the replay store, the proof age, the proof
   * algorithms and server nonces ({@link DpopOptions}). Unset: Bearer only.
   */
  dpop?: 'required' | 'allowed' | DpopOptions
}

/** Largest accepted `clockTolerance`, in seconds: beyond five minutes skew is a broken clock. */
export const MAX_CLOCK_TOLERANCE = 300

const FACTORY = 'jwtAuth'

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
  'dpop',
] as const

/** RFC 6749 §3.3 scope-token: printable ASCII without space, quote or backslash. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/
/** Claims with an option of their own: `claims` would check them a second, weaker way. */
const DEDICATED_CLAIMS = ['iss', 'aud', 'azp', 'exp', 'nbf', 'iat', 'scope', 'scp']

/**
 * `jwtAuth`'s options, checked once at construction, with their defaults filled in. Frozen: the
 * verifier and the request path read it, never change it.
 */
export interface JwtAuthConfig {
  /** The key source and the accepted algorithms. */
  readonly keys: JwtKeys
  /** `keys.algorithms` as a set, for the header check of each token. */
  readonly allowed: ReadonlySet<string>
  readonly cookieName: string | undefined
  readonly realm: string
  readonly issuers: readonly string[] | undefined
  readonly audiences: readonly string[] | undefined
  /** The required `typ`, normalized (`at+jwt` for `application/at+jwt`). */
  readonly typ: string | undefined
  readonly azp: readonly string[] | undefined
  /** `claims` as `[name, accepted values]` pairs. */
  readonly claimChecks: readonly (readonly [string, readonly string[]])[]
  readonly scopes: readonly string[]
  /** `clockTolerance`, in seconds. */
  readonly tolerance: number
  readonly requireExp: boolean
  readonly maxTokenAge: number | undefined
  readonly cacheSettings: Required<JwksCacheOptions>
  readonly onKeySetError: ((error: Error, c: Context) => void) | undefined
  /** The `dpop` option, checked; `undefined` without it. */
  readonly dpop: DpopConfig | undefined
}

function stringOrList(name: string, value: unknown): string | string[] {
  if (typeof value === 'string') return assertNonEmptyString(FACTORY, name, value)
  return assertStringArray(FACTORY, name, value, { allowEmpty: false })
}

function claimRules(value: unknown): [string, string[]][] {
  if (value === undefined) return []
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw optionError(FACTORY, '"claims" must be an object of claim names to values')
  }
  return Object.entries(value).map(([name, expected]) => {
    if (DEDICATED_CLAIMS.includes(name)) {
      throw optionError(FACTORY, `"claims.${name}": use the option of that claim instead`)
    }
    return [name, [stringOrList(`claims.${name}`, expected)].flat()]
  })
}

/** `stringOrList` as a list, `undefined` when not given. */
function listOption(name: string, value: unknown): string[] | undefined {
  return value === undefined ? undefined : [stringOrList(name, value)].flat()
}

/**
 * Checks `options` in a fixed order (the first problem is the one reported): the key source and
 * its algorithms, then the request options (cookie, realm), the claim rules and the times.
 */
export function jwtAuthConfig(options: JwtAuthOptions): JwtAuthConfig {
  if (options === undefined) {
    throw optionError(
      FACTORY,
      '"secret" is required (or "publicKey", "jwks", "issuer" + "discovery")',
    )
  }
  assertNoDryRun(FACTORY, options)
  assertKnownKeys(FACTORY, options, KNOWN)
  const kind = keySourceKind(FACTORY, options)
  const listed =
    options.algorithms === undefined
      ? undefined
      : assertStringArray(FACTORY, 'algorithms', options.algorithms, { allowEmpty: false })
  const keys = jwtKeys(FACTORY, kind, options, listed)
  const onKeySetError =
    options.onKeySetError === undefined
      ? undefined
      : assertFunction<NonNullable<JwtAuthOptions['onKeySetError']>>(
          FACTORY,
          'onKeySetError',
          options.onKeySetError,
        )
  const cookieName =
    options.cookie === undefined ? undefined : assertCookieName(FACTORY, 'cookie', options.cookie)
  const realm = options.realm ?? 'api'
  if (typeof realm !== 'string' || !/^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/.test(realm)) {
    throw optionError(FACTORY, '"realm" must be printable ASCII without quotes or backslashes')
  }
  const issuers = listOption('issuer', options.issuer)
  const audiences = listOption('audience', options.audience)
  const typ =
    options.typ === undefined
      ? undefined
      : normalizeTyp(assertNonEmptyString(FACTORY, 'typ', options.typ))
  const azp = listOption('azp', options.azp)
  const claimChecks = claimRules(options.claims)
  const scopes = scopeOption(options.scopes)
  return Object.freeze({
    keys,
    allowed: new Set(keys.algorithms),
    cookieName,
    realm,
    issuers,
    audiences,
    typ,
    azp,
    claimChecks,
    scopes,
    ...timeOptions(options),
    cacheSettings: jwksCacheSettings(FACTORY, options.jwksCache),
    onKeySetError,
    dpop: dpopConfig(FACTORY, options.dpop, cookieName),
  })
}

function scopeOption(value: unknown): string[] {
  const scopes = value === undefined ? [] : assertStringArray(FACTORY, 'scopes', value).slice()
  for (const scope of scopes) {
    if (!SCOPE_TOKEN.test(scope)) {
      throw optionError(
        FACTORY,
        `"scopes" entries must be RFC 6749 scope tokens, got ${formatValue(scope)}`,
      )
    }
  }
  return scopes
}

/** `clockTolerance`, `requireExp` and `maxTokenAge`, in that order. */
function timeOptions(options: JwtAuthOptions) {
  const tolerance =
    options.clockTolerance === undefined
      ? 0
      : assertNonNegativeInteger(FACTORY, 'clockTolerance', options.clockTolerance)
  if (tolerance > MAX_CLOCK_TOLERANCE) {
    throw optionError(
      FACTORY,
      `"clockTolerance" must be at most ${MAX_CLOCK_TOLERANCE} seconds, got ${tolerance}`,
    )
  }
  // Checked after the signature and every other claim, so only the holder of a validly signed
  // token learns that its missing `exp` is why it was refused.
  const requireExp =
    options.requireExp === undefined
      ? true
      : assertBoolean(FACTORY, 'requireExp', options.requireExp)
  const maxTokenAge =
    options.maxTokenAge === undefined
      ? undefined
      : assertPositiveInteger(FACTORY, 'maxTokenAge', options.maxTokenAge)
  return { tolerance, requireExp, maxTokenAge }
}
