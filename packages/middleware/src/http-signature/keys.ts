/**
 * Where httpSignature finds the key of a `keyid`: a lookup function, a JWKS object, or a JWKS
 * URL fetched and cached exactly as jwtAuth's `jwks` (internal/keys/jwks.ts). In every case the
 * key decides the algorithm (algorithms.ts): the signature's `alg` parameter can only agree.
 */
import type { Context } from 'hono'
import type { JSONWebKeySet } from 'jose'
import type { Jwk as JWK } from '../internal/keys/jwk'
import {
  type JwksCacheOptions,
  type JwksFetch,
  jwksCacheSettings,
  type LocalSet,
  remoteKeySource,
  remoteUrl,
} from '../internal/keys/jwks'
import type { KeySource } from '../internal/keys/key-source'
import { assertFunction, formatValue, optionError } from '../internal/options'
import {
  algorithmOfCryptoKey,
  algorithmOfJwk,
  importJwk,
  isCryptoKey,
  type SignatureAlgorithm,
} from './algorithms'

/**
 * A verification key: a WebCrypto `CryptoKey` (imported for one of the five algorithms) or a
 * JWK (public, or `oct` for hmac-sha256).
 *
 * @example
 * const key: SignatureKey = { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs' }
 */
export type SignatureKey = CryptoKey | JWK

/**
 * Finds the key of a `keyid` (e.g. in a database of partners); `undefined` for an unknown one.
 *
 * @example
 * const lookup: SignatureKeyLookup = (keyid) => partners.get(keyid)?.publicKey
 */
export type SignatureKeyLookup = (
  keyid: string,
  // biome-ignore lint/suspicious/noExplicitAny: c.env is typed by the app's Bindings, unknown here
  c: Context<any>,
) => SignatureKey | undefined | Promise<SignatureKey | undefined>

/**
 * The `keys` option: a lookup function, a JWKS object (`{ keys: [...] }`, each key with a `kid`),
 * or the https URL of a JWKS.
 *
 * @example
 * const keys: SignatureKeys = 'https://partner.example/.well-known/http-signature-keys.json'
 */
export type SignatureKeys = SignatureKeyLookup | { keys: JWK[] } | string | URL

/** A key ready to verify, with the algorithm it decides. */
export interface ResolvedKey {
  readonly key: CryptoKey
  readonly alg: SignatureAlgorithm
}

/** How one httpSignature instance resolves keys. */
export interface KeyResolver {
  /** The key of `keyid`, or `undefined` when there is none usable. */
  resolve(
    keyid: string,
    c: Context,
    failed?: (error: Error) => void,
  ): Promise<ResolvedKey | undefined>
  /** The keys come from a URL, which can be unreachable (503 `jwks_unavailable`). */
  readonly remote: boolean
}

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth'] as const

/** A key from a lookup or a JWKS, ready to verify (JWK imports cached per object). */
const imported = new WeakMap<object, Promise<ResolvedKey | undefined>>()

function ready(key: unknown): Promise<ResolvedKey | undefined> {
  if (key === null || typeof key !== 'object') return Promise.resolve(undefined)
  let found = imported.get(key)
  if (found === undefined) {
    found = readyNow(key)
    imported.set(key, found)
  }
  return found
}

async function readyNow(key: object): Promise<ResolvedKey | undefined> {
  if (isCryptoKey(key)) {
    const alg = algorithmOfCryptoKey(key)
    if (alg === undefined || !key.usages.includes('verify')) return undefined
    return { key, alg }
  }
  const jwk = key as JWK
  const alg = algorithmOfJwk(jwk)
  if (alg === undefined) return undefined
  try {
    return { key: await importJwk(jwk, alg, 'verify'), alg }
  } catch {
    return undefined
  }
}

/** A JWKS's keys by `kid`, each checked: a kid, an algorithm it decides, public (or oct). */
function jwksByKid(factory: string, jwks: unknown): Map<string, JWK> {
  const keys = (jwks as { keys?: unknown }).keys
  if (!Array.isArray(keys))
    throw optionError(factory, '"keys" as an object must be a JWKS ({ keys: [...] })')
  const byKid = new Map<string, JWK>()
  for (const [i, jwk] of keys.entries()) {
    if (jwk === null || typeof jwk !== 'object' || typeof jwk.kid !== 'string' || jwk.kid === '') {
      throw optionError(factory, `keys.keys[${i}] needs a "kid" (the keyid signers name)`)
    }
    if (algorithmOfJwk(jwk) === undefined) {
      throw optionError(
        factory,
        `keys.keys[${i}] (kid ${formatValue(jwk.kid)}) decides no algorithm: give it "alg" (EdDSA, ES256, PS512, RS256 or HS256; an RSA key always needs one)`,
      )
    }
    if (jwk.kty !== 'oct' && PRIVATE_MEMBERS.some((m) => jwk[m] !== undefined)) {
      throw optionError(
        factory,
        `keys.keys[${i}] (kid ${formatValue(jwk.kid)}) is a private key: give the public one`,
      )
    }
    if (byKid.has(jwk.kid))
      throw optionError(factory, `keys.keys: kid ${formatValue(jwk.kid)} appears twice`)
    byKid.set(jwk.kid, jwk)
  }
  return byKid
}

/** An error jose's remote set reads as "unknown kid" (refetch once per cooldown). */
function noMatchingKey(): Error {
  return Object.assign(new Error('no key with that keyid'), { code: 'ERR_JWKS_NO_MATCHING_KEY' })
}

/**
 * httpSignature's view of a fetched JWKS: the public key whose `kid` is the keyid, imported for
 * the algorithm it decides (never a secret: an `oct` key from a URL is not used).
 */
function httpSignatureSet(json: JSONWebKeySet): LocalSet {
  const byKid = new Map<string, JWK>()
  for (const jwk of json.keys as JWK[]) {
    if (jwk && typeof jwk.kid === 'string' && jwk.kty !== 'oct' && !byKid.has(jwk.kid))
      byKid.set(jwk.kid, jwk)
  }
  return async (header) => {
    const jwk = header.kid === undefined ? undefined : byKid.get(header.kid)
    if (jwk === undefined) throw noMatchingKey()
    const resolved = await ready(jwk)
    if (resolved === undefined) throw new Error('the key decides no supported algorithm')
    return resolved.key
  }
}

/** The resolver of a remote JWKS (the key set is shared with any instance on the same URL). */
function remoteResolver(source: KeySource): KeyResolver {
  return {
    remote: true,
    async resolve(keyid, _c, failed) {
      let key: CryptoKey
      try {
        key = await source.key({ kid: keyid }, undefined, failed)
      } catch (err) {
        if ((err as Error).name === 'JwksUnavailableError') throw err
        return undefined
      }
      const alg = algorithmOfCryptoKey(key)
      return alg === undefined ? undefined : { key, alg }
    },
  }
}

/** The key resolver of the `keys` option, checked at construction (nothing fetched yet). */
export function keyResolver(
  factory: string,
  keys: unknown,
  jwksCache: unknown,
  fetchOption: unknown,
): KeyResolver {
  const remote = typeof keys === 'string' || keys instanceof URL
  if (!remote && (jwksCache !== undefined || fetchOption !== undefined)) {
    throw optionError(factory, '"jwksCache" and "fetch" apply only when "keys" is a JWKS URL')
  }
  if (typeof keys === 'function') {
    const lookup = keys as SignatureKeyLookup
    return { remote: false, resolve: async (keyid, c) => ready(await lookup(keyid, c)) }
  }
  if (remote) {
    const url = remoteUrl(factory, 'keys', keys).href
    const settings = jwksCacheSettings(factory, jwksCache)
    const fetchImpl =
      fetchOption === undefined
        ? undefined
        : assertFunction<JwksFetch>(factory, 'fetch', fetchOption)
    const source = remoteKeySource({ jwksUrl: url }, settings, fetchImpl, {
      name: 'httpSignature',
      build: httpSignatureSet,
    })
    return remoteResolver(source)
  }
  if (keys !== null && typeof keys === 'object') {
    const byKid = jwksByKid(factory, keys)
    return { remote: false, resolve: async (keyid) => ready(byKid.get(keyid)) }
  }
  throw optionError(
    factory,
    `"keys" must be a lookup (keyid, c) => key, a JWKS object or a JWKS URL, got ${formatValue(keys)}`,
  )
}

export type { JwksCacheOptions, JwksFetch }
