import type { Context } from 'hono'
import { BoundedCache, tailKey } from '../internal/caches/bounded-cache'
import { copyJson, copyStoredJson, isFlatJson } from '../internal/caches/json-copy'
import { JwksUnavailableError } from '../internal/keys/jwks'
import { failureReporter } from '../internal/stores/failure-report'
import type { JwtAuthConfig } from './config'
import {
  type CompactJws,
  jsonObject,
  normalizeTyp,
  parseCompact,
  signatureValid,
  utf8,
} from './jws'
import { isJoseError, type KeySource } from './keys'
import { type JWTPayload, type TimeClaims, timeClaims } from './payload'

/** Tokens longer than this are rejected before any parsing (bytes of the compact form). */
export const MAX_TOKEN_LENGTH = 8192

/** How many verified tokens each `jwtAuth` middleware remembers. */
export const VERIFIED_TOKEN_CACHE_SIZE = 1000

/** Keys tried for a token that several JWKS keys fit (no `kid`, or a `kid` shared by keys). */
export const MAX_CANDIDATE_KEYS = 5

/** A validly signed token without `exp`, refused under `requireExp` (the default). */
export const NO_EXP = Symbol('no exp')

/** What a token comes to: its payload, `null` (refused) or {@link NO_EXP}. */
export type Verdict = JWTPayload | null | typeof NO_EXP

/** A token that passed: its payload (copied for each request) and its times. */
interface VerifiedToken {
  /** The whole compact token: the cache is keyed by its signature's end alone (`signatureOf`). */
  token: string
  /** The payload as parsed when it passed; never handed out itself (see `copyJson`). */
  payload: JWTPayload
  /** Whether `payload` has no object inside (`isFlatJson`): copied by one spread. */
  flat: boolean
  times: TimeClaims
  /** The key source's generation it was verified under (a JWKS refresh invalidates it). */
  generation: number
}

/**
 * The key of the verified-token cache: the token's last characters, the end of its signature
 * (`tailKey`: a Map hashes every character of a fresh key, and an RS256 signature alone is 342
 * of them). Two tokens that both verify share it only by chance, and a hit is still compared in
 * full, so a shared key only ever costs a lookup.
 */
function signatureOf(token: string): string {
  return tailKey(token)
}

/**
 * The time checks of fresh and remembered tokens alike: exp, nbf, maxTokenAge and an `iat` in
 * the future (jose checks that one only with maxTokenAge).
 */
export function timesValid(config: JwtAuthConfig, t: TimeClaims): boolean {
  const { tolerance, maxTokenAge } = config
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
export function registeredClaimsValid(
  config: JwtAuthConfig,
  jws: CompactJws,
  p: JWTPayload,
  t: TimeClaims,
): boolean {
  const { typ, issuers, audiences, tolerance, maxTokenAge } = config
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

/** `azp` and the `claims` rules. */
export function claimsValid(config: JwtAuthConfig, p: JWTPayload): boolean {
  const { azp } = config
  return (
    (azp === undefined || (typeof p.azp === 'string' && azp.includes(p.azp))) &&
    config.claimChecks.every(([name, values]) => {
      const value = p[name]
      return typeof value === 'string' && values.includes(value)
    })
  )
}

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
 * The verifying side of one `jwtAuth`: the key source, the claim checks, and two caches.
 *
 * Returning tokens skip the WebCrypto verify (a thread-pool job on Node). Only tokens that passed
 * are stored, under their exact compact form; issuer, audience, algorithms and claim rules are
 * the config's constants, so only the time claims and the key set can change their verdict:
 * times are checked again on every hit, and an entry counts only while the key set it was
 * verified with is current. Keyed by the end of the signature segment (`signatureOf`), which is
 * shorter to hash than the whole token; a hit counts only when its whole token is this one.
 */
export class TokenVerifier {
  readonly #config: JwtAuthConfig
  readonly #source: KeySource
  readonly #verified = new BoundedCache<string, VerifiedToken>(VERIFIED_TOKEN_CACHE_SIZE)
  // Tokens whose signature failed, by the key set's generation they failed under: a client
  // resending a tampered token costs a lookup, not a verify each time. Kept apart from
  // `verified`, so a flood of bad tokens evicts only other bad tokens.
  readonly #refused = new BoundedCache<string, number>(VERIFIED_TOKEN_CACHE_SIZE)
  /** Hands a failed fetch of a remote key set to `onKeySetError`, or warns once per outage. */
  readonly keySetFailed: (error: unknown, c: Context) => void
  readonly #keySetRecovered: () => void

  constructor(config: JwtAuthConfig) {
    this.#config = config
    this.#source = config.keys.source
    const { maxStaleMs } = config.cacheSettings
    const [failed, recovered] = failureReporter(
      (reason) =>
        `jwtAuth: cannot fetch the key set (${reason}); keys already fetched keep verifying up to ${maxStaleMs / 1000} s past their max age, after that requests get 503 jwks_unavailable. Told once until a fetch succeeds.`,
      config.onKeySetError as ((error: unknown, c: Context) => void) | undefined,
    )
    this.keySetFailed = failed
    this.#keySetRecovered = recovered
  }

  /**
   * What is known of `token` without a verify, and without a turn of the microtask queue:
   * - the payload of a token verified before under the current key set and still valid;
   * - `null` for one verified before whose times ran out: time only moves on, so an expired
   *   token (or one past `maxTokenAge`) is refused from memory, however often a client resends it;
   * - `null` for one whose signature failed under the current key set (a tampered token resent);
   * - `undefined` otherwise: `verifyAnew` checks it in full.
   */
  remembered(token: string): JWTPayload | null | undefined {
    const generation = this.#source.generation()
    const hit = this.#verified.get(signatureOf(token))
    if (hit !== undefined && hit.token === token && hit.generation === generation) {
      if (!timesValid(this.#config, hit.times)) return null
      // A copy per request: a handler that mutates its payload cannot change what the next
      // request with this token sees.
      return copyStoredJson(hit.payload, hit.flat)
    }
    if (this.#refused.get(token) === generation) return null
    return undefined
  }

  /**
   * The verified payload of `token`, or `null`: from memory when it is known (`remembered`).
   * `NO_EXP` for a validly signed token without the `exp` that `requireExp` asks for.
   */
  async verify(token: string, c: Context): Promise<Verdict> {
    // Cap before parsing: base64 decoding and JSON parsing of a huge token is wasted work.
    if (token.length > MAX_TOKEN_LENGTH) return null
    const known = this.remembered(token)
    return known !== undefined ? known : this.verifyAnew(token, c)
  }

  /**
   * `verify` for a token not remembered (or whose time or key set ran out): checked in full. A
   * key-set fetch failure this request gets past is reported with its context `c`; one it cannot
   * get past is thrown (a `JwksUnavailableError`, the 503).
   */
  async verifyAnew(token: string, c: Context): Promise<Verdict> {
    const config = this.#config
    const source = this.#source
    // This token's own entry only: another token that ends in the same signature (a forgery
    // built on a valid one) must not evict it.
    const signature = signatureOf(token)
    if (this.#verified.get(signature)?.token === token) this.#verified.delete(signature)
    // One parse: form, header, allowed alg and crit, before any key is looked up.
    const jws = parseCompact(token, config.allowed)
    if (jws === null) return null
    let generation = -1
    let valid: boolean
    let failed = false
    const onFailure = config.keys.remote
      ? (error: Error) => {
          failed = true
          this.keySetFailed(error, c)
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
      if (!failed && source.failure?.() === undefined) this.#keySetRecovered()
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
      if (generation >= 0) this.#refused.set(token, generation)
      return null
    }
    return this.#accept(token, jws, generation)
  }

  /** The claims of a validly signed token: its payload if they pass, remembered when it may be. */
  #accept(token: string, jws: CompactJws, generation: number): Verdict {
    const config = this.#config
    const payload = jsonObject(utf8(jws.payload)) as JWTPayload | null
    if (payload === null) return null
    const times = timeClaims(payload)
    if (times === null || !registeredClaimsValid(config, jws, payload, times)) return null
    if (!timesValid(config, times) || !claimsValid(config, payload)) return null
    if (config.requireExp && times.exp === undefined) return NO_EXP
    // Verified with stale keys (an outage): not remembered, so every request asks the cache.
    if (generation >= 0) {
      this.#verified.set(signatureOf(token), {
        token,
        payload: copyJson(payload),
        flat: isFlatJson(payload),
        times,
        generation,
      })
    }
    return payload
  }
}
