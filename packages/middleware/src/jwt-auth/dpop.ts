/**
 * DPoP proofs (RFC 9449 §4.3): a JWT signed by the client's key, carried in the `DPoP` header,
 * whose header holds that public key (`jwk`) and whose claims bind it to one request (`htm`,
 * `htu`, `iat`, `jti`) and one access token (`ath`). Parsed and verified with jwtAuth's one-pass
 * JWS code (jws.ts); the key is imported and thumbprinted by jose (`importJWK`,
 * `calculateJwkThumbprint`, RFC 7638), once per distinct proof header.
 */
import { calculateJwkThumbprint } from 'jose/jwk/thumbprint'
import { importJWK } from 'jose/key/import'
import { BoundedCache } from '../internal/caches/bounded-cache'
import { base64url, sha256HexSync } from '../internal/crypto'
import type { DpopConfig } from './dpop-config'
import { jsonObject, normalizeTyp, parseCompact, signatureValid, utf8 } from './jws'
import { type AsymmetricAlgorithm, jwkTypeAlgorithms, PRIVATE_MEMBERS } from './keys'
import type { JWK } from './payload'

/** Proofs longer than this are refused unread (an RSA-4096 proof is about 1.5 KB). */
export const MAX_PROOF_LENGTH = 4096
/** Longest accepted `jti` (RFC 9449 asks for at least 96 bits of randomness; 22+ characters). */
export const MAX_JTI_LENGTH = 256
/** Seconds a proof's `iat` may lie ahead of the server's clock, beside `clockTolerance`. */
export const DPOP_FUTURE_LEEWAY = 5
/** Distinct proof headers (one per client key and algorithm) whose imported key is remembered. */
const PROOF_KEY_CACHE_SIZE = 1000

/** A proof that passed: its key's thumbprint and what the replay check needs. */
export interface VerifiedProof {
  /** The RFC 7638 SHA-256 thumbprint of the proof's key (base64url): `cnf.jkt` of a bound token. */
  jkt: string
  jti: string
  iat: number
  /** The proof's `nonce` claim, when it has one. */
  nonce: string | undefined
}

/** The public key of a proof header and its thumbprint, or `null` for an unusable `jwk`. */
interface ProofKey {
  key: CryptoKey
  jkt: string
}

/**
 * The request a proof must match: method, URL (`htu` is compared without query and fragment)
 * and, at a protected resource, the access token (`ath`).
 */
export interface ProofTarget {
  method: string
  url: string
  token: string
  /** The server's clock, in milliseconds. */
  now: number
  /** jwtAuth's `clockTolerance`, in seconds. */
  tolerance: number
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/

/**
 * A URL as RFC 9449 §4.3 compares `htu` to the request: without query and fragment, after
 * RFC 3986 syntax-based and scheme-based normalisation (scheme and host lower case, default port
 * dropped, dot segments removed, percent-encodings upper case and decoded where unreserved, an
 * empty path as `/`: WHATWG URL parsing does all but the last two). `null` for anything that is
 * not an absolute http(s) URL.
 */
export function normalizeHtu(value: string): string | null {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return null
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  const path = url.pathname.replace(/%[0-9A-Fa-f]{2}/g, (m) => {
    const char = String.fromCharCode(Number.parseInt(m.slice(1), 16))
    return UNRESERVED.test(char) ? char : m.toUpperCase()
  })
  return `${url.protocol}//${url.host}${path}`
}

/** `ath`: base64url of the SHA-256 of the access token's ASCII bytes (RFC 9449 §4.2). */
export function accessTokenHash(token: string): string {
  const hex = sha256HexSync(token)
  const bytes = new Uint8Array(32)
  for (let i = 0; i < 32; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return base64url(bytes)
}

/**
 * The proof key of a header's `jwk`: a public signing key of a type that fits `alg` (a private
 * or symmetric key is refused, never imported), imported by jose for `alg`, and its thumbprint.
 */
async function proofKey(jwk: unknown, alg: AsymmetricAlgorithm): Promise<ProofKey | null> {
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) return null
  const k = jwk as JWK
  if (PRIVATE_MEMBERS.some((m) => m in k)) return null
  if (!jwkTypeAlgorithms(k).includes(alg)) return null
  if (k.alg !== undefined && k.alg !== alg) return null
  try {
    const [key, jkt] = await Promise.all([
      importJWK(k, alg) as Promise<CryptoKey>,
      calculateJwkThumbprint(k, 'sha256'),
    ])
    return { key, jkt }
  } catch {
    // A jwk jose cannot import (bad coordinates, a point not on the curve, …): an invalid proof.
    return null
  }
}

/**
 * Verifies DPoP proofs for one `jwtAuth`. The key of each distinct proof header (the base64url
 * segment before the first dot: one per client key and algorithm) is imported once and
 * remembered, so a returning client costs one signature verify and one SHA-256 per request.
 */
export class ProofVerifier {
  readonly #config: DpopConfig
  // Keys that imported only: junk headers cannot evict the keys of real clients.
  readonly #keys = new BoundedCache<string, ProofKey>(PROOF_KEY_CACHE_SIZE)
  // The request URL normalised last: a client calls the same URL again and again, and each
  // normalisation parses a URL (a few µs). Compared as a whole string, so another URL is parsed.
  #lastUrl: string | undefined
  #lastWanted: string | null = null

  constructor(config: DpopConfig) {
    this.#config = config
  }

  /**
   * The proof's key thumbprint and claims when everything RFC 9449 §4.3 asks holds for `target`
   * (but the server nonce and the replay check, which the request path does), else `null`.
   */
  async verify(proof: string, target: ProofTarget): Promise<VerifiedProof | null> {
    if (proof.length > MAX_PROOF_LENGTH) return null
    const jws = parseCompact(proof, this.#config.allowed)
    if (jws === null) return null
    const { typ, jwk } = jws.header
    if (typeof typ !== 'string' || normalizeTyp(typ) !== 'application/dpop+jwt') return null
    const segment = proof.slice(0, proof.indexOf('.'))
    let key = this.#keys.get(segment) ?? null
    if (key === null) {
      key = await proofKey(jwk, jws.alg as AsymmetricAlgorithm)
      if (key === null) return null
      this.#keys.set(segment, key)
    }
    if (!(await signatureValid(jws, key.key))) return null
    const claims = jsonObject(utf8(jws.payload))
    if (claims === null) return null
    const { jti, htm, htu, iat, ath, nonce } = claims
    if (typeof jti !== 'string' || jti === '' || jti.length > MAX_JTI_LENGTH) return null
    if (htm !== target.method || typeof htu !== 'string') return null
    if (typeof iat !== 'number' || !Number.isFinite(iat)) return null
    const now = target.now / 1000
    const ahead = target.tolerance + DPOP_FUTURE_LEEWAY
    if (iat > now + ahead || iat < now - this.#config.maxAgeSeconds - target.tolerance) return null
    if (ath !== accessTokenHash(target.token)) return null
    if (nonce !== undefined && typeof nonce !== 'string') return null
    if (target.url !== this.#lastUrl) {
      this.#lastWanted = normalizeHtu(target.url)
      this.#lastUrl = target.url
    }
    const wanted = this.#lastWanted
    // An `htu` spelled exactly as the request URL normalises to the same value: parsed once.
    if (wanted === null || (htu !== target.url && normalizeHtu(htu) !== wanted)) return null
    return { jkt: key.jkt, jti, iat, nonce }
  }

  /**
   * How long the proof's `jti` is held (ms): until the proof would be too old anyway, plus a
   * second, so a replay at the very edge of the window still meets the record.
   */
  replayWindowMs(proof: VerifiedProof, now: number, tolerance: number): number {
    const until = (proof.iat + this.#config.maxAgeSeconds + tolerance) * 1000
    return Math.max(1, Math.ceil(until - now)) + 1_000
  }
}
