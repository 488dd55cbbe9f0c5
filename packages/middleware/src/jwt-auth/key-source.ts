import { createLocalJWKSet } from 'jose/jwks/local'
import { importHmacKey, lazy } from '../internal/crypto'
import {
  discoveryUrl,
  type JwksFetch,
  jwksCacheSettings,
  type LocalSet,
  remoteKeySource,
  remoteUrl,
} from '../internal/keys/jwks'
import { assertBoolean, assertFunction, optionError } from '../internal/options'
import {
  assertHmacAlgorithm,
  HMAC_HASHES,
  type JwtAlgorithm,
  MIN_SECRET_BYTES,
  secretBytes,
} from './hmac'
import {
  ASYMMETRIC_ALGORITHMS,
  type AsymmetricAlgorithm,
  assertAsymmetricAlgorithm,
  type KeySource,
  localJwksSource,
  publicKeyAlgorithms,
  publicKeySource,
} from './keys'
import type { JWK } from './payload'

/**
 * The options that choose and shape the key source: the part of `JwtAuthOptions` read here,
 * not yet checked.
 */
export interface KeySourceOptions {
  secret?: unknown
  publicKey?: unknown
  jwks?: unknown
  discovery?: unknown
  issuer?: unknown
  jwksCache?: unknown
  fetch?: unknown
  onKeySetError?: unknown
}

/** The option that names where the keys come from. */
export type KeySourceKind = 'secret' | 'publicKey' | 'jwks' | 'discovery'

/** Where one `jwtAuth` finds its keys, and the algorithms it accepts. */
export interface JwtKeys {
  readonly source: KeySource
  /** The accepted algorithms, checked against the key source. */
  readonly algorithms: readonly string[]
  /** The keys come from a remote JWKS (`jwks` URL or `discovery`), which can be unreachable. */
  readonly remote: boolean
  /** The discovery document's URL, with `discovery: true`. */
  readonly openIdConnectUrl: string | undefined
}

/** Which key source the options name: exactly one, or a `TypeError`. */
export function keySourceKind(factory: string, options: KeySourceOptions): KeySourceKind {
  if (options.discovery !== undefined) assertBoolean(factory, 'discovery', options.discovery)
  const given = [
    options.secret !== undefined && 'secret',
    options.publicKey !== undefined && 'publicKey',
    options.jwks !== undefined && 'jwks',
    options.discovery === true && 'discovery',
  ].filter((k): k is KeySourceKind => k !== false)
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
  return given[0] as KeySourceKind
}

/**
 * The key source of `kind` and its algorithms (`listed`, or the source's defaults), checked at
 * construction; nothing is imported or fetched before the first token. The options of a remote
 * key set (`jwksCache`, `fetch`, `onKeySetError`) are refused with any other source.
 */
export function jwtKeys(
  factory: string,
  kind: KeySourceKind,
  options: KeySourceOptions,
  listed: string[] | undefined,
): JwtKeys {
  let keys: JwtKeys
  if (kind === 'secret') keys = secretKeys(factory, options.secret, listed)
  else {
    const asymmetric = listed?.map((alg, i) =>
      assertAsymmetricAlgorithm(factory, `algorithms[${i}]`, alg),
    )
    if (kind === 'publicKey') keys = publicKeys(factory, options.publicKey, asymmetric)
    else keys = jwksKeys(factory, kind, options, asymmetric ?? [...ASYMMETRIC_ALGORITHMS])
  }
  if (
    !keys.remote &&
    (options.jwksCache !== undefined ||
      options.fetch !== undefined ||
      options.onKeySetError !== undefined)
  ) {
    throw optionError(
      factory,
      '"jwksCache", "fetch" and "onKeySetError" apply only to a JWKS URL or discovery',
    )
  }
  return keys
}

/** An HMAC secret: one lazily imported `CryptoKey` per allowed algorithm (default `HS256`). */
function secretKeys(factory: string, secret: unknown, listed: string[] | undefined): JwtKeys {
  const hmac = (listed ?? ['HS256']).map((alg, i) =>
    assertHmacAlgorithm(factory, `algorithms[${i}]`, alg),
  )
  const bytes = secretBytes(factory, secret, Math.max(...hmac.map((alg) => MIN_SECRET_BYTES[alg])))
  // One CryptoKey per allowed algorithm: WebCrypto binds the hash to the key, so a key imported
  // for SHA-256 can never verify an HS512 signature, whatever the token header claims.
  const keys = new Map(
    hmac.map((alg) => [alg, lazy(() => importHmacKey(bytes, HMAC_HASHES[alg]))] as const),
  )
  const source: KeySource = {
    key: (header) => {
      const key = header.alg === undefined ? undefined : keys.get(header.alg as JwtAlgorithm)
      // parseCompact checks `algorithms` first; this is the second lock on the same door.
      return key ? key() : Promise.reject(new Error('algorithm not allowed'))
    },
    generation: () => 0,
  }
  return { source, algorithms: hmac, remote: false, openIdConnectUrl: undefined }
}

/** One public key; the algorithms default to the key's own, and each listed one must fit it. */
function publicKeys(
  factory: string,
  publicKey: unknown,
  listed: AsymmetricAlgorithm[] | undefined,
): JwtKeys {
  const { fits, defaults } = publicKeyAlgorithms(factory, publicKey)
  const algorithms = listed ?? defaults
  for (const alg of algorithms) {
    if (!fits.includes(alg as AsymmetricAlgorithm)) {
      throw optionError(
        factory,
        `"algorithms" lists ${alg}, which does not fit the public key (it verifies ${fits.join(', ')})`,
      )
    }
  }
  const source = publicKeySource(
    publicKey as CryptoKey | JWK | string,
    algorithms as AsymmetricAlgorithm[],
  )
  return { source, algorithms, remote: false, openIdConnectUrl: undefined }
}

/** jwtAuth's view of a fetched JWKS: jose's local set (the token's `alg` picks among a key's). */
const JOSE_SET = {
  name: 'jose',
  build: (jwks: Parameters<typeof createLocalJWKSet>[0]) => createLocalJWKSet(jwks) as LocalSet,
}

/** A JWKS given as an object, fetched from a URL, or found through the issuer's discovery. */
function jwksKeys(
  factory: string,
  kind: 'jwks' | 'discovery',
  options: KeySourceOptions,
  algorithms: string[],
): JwtKeys {
  const jwks = options.jwks
  if (kind === 'jwks' && typeof jwks === 'object' && !(jwks instanceof URL)) {
    const source = localJwksSource(factory, jwks)
    return { source, algorithms, remote: false, openIdConnectUrl: undefined }
  }
  const settings = jwksCacheSettings(factory, options.jwksCache)
  const fetchImpl =
    options.fetch === undefined
      ? undefined
      : assertFunction<JwksFetch>(factory, 'fetch', options.fetch)
  if (kind === 'jwks') {
    const url = remoteUrl(factory, 'jwks', jwks).href
    const source = remoteKeySource({ jwksUrl: url }, settings, fetchImpl, JOSE_SET)
    return { source, algorithms, remote: true, openIdConnectUrl: undefined }
  }
  if (typeof options.issuer !== 'string') {
    throw optionError(factory, '"discovery: true" needs "issuer" as one URL string')
  }
  remoteUrl(factory, 'issuer', options.issuer)
  const source = remoteKeySource({ issuer: options.issuer }, settings, fetchImpl, JOSE_SET)
  return { source, algorithms, remote: true, openIdConnectUrl: discoveryUrl(options.issuer) }
}
