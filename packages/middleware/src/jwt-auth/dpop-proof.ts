import { SignJWT } from 'jose/jwt/sign'
import { exportJWK } from 'jose/key/export'
import { randomToken } from '../internal/crypto'
import { optionError } from '../internal/options'
import { accessTokenHash } from './dpop'
import { type AsymmetricAlgorithm, cryptoKeyAlgorithms, isCryptoKey } from './keys'

/**
 * Options of {@link createDpopProof}.
 *
 * @example
 * const keyPair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])
 * const options: CreateDpopProofOptions = { keyPair, accessToken: 'eyJ…' }
 */
export interface CreateDpopProofOptions {
  /** The client's key pair: the private key signs, the public key goes in the proof's `jwk`. */
  keyPair: CryptoKeyPair
  /** The access token the proof is presented with: sets `ath`. Unset: no `ath`. */
  accessToken?: string
  /** The server's nonce (the last `DPoP-Nonce` it sent). Unset: no `nonce`. */
  nonce?: string
  /** Signing algorithm. Default: the one the private key was made for (`ES256` for P-256). */
  alg?: AsymmetricAlgorithm
}

/**
 * A DPoP proof (RFC 9449 §4.2) for one request, as a client sends it in the `DPoP` header: a JWT
 * with `typ: dpop+jwt` and the public key as `jwk`, claiming `htm`, `htu` (the URL without query
 * and fragment), `iat`, a random `jti`, and `ath` / `nonce` when given. Signed by jose.
 *
 * @param method the request method (`htm`)
 * @param url the request URL (`htu`)
 * @example
 * ```ts
 * const proof = await createDpopProof('GET', 'https://api.example.com/mcp', { keyPair, accessToken })
 * await fetch('https://api.example.com/mcp', {
 *   headers: { authorization: `DPoP ${accessToken}`, dpop: proof },
 * })
 * ```
 */
export async function createDpopProof(
  method: string,
  url: string | URL,
  options: CreateDpopProofOptions,
): Promise<string> {
  const { keyPair, accessToken, nonce } = options ?? {}
  if (!isCryptoKey(keyPair?.privateKey) || !isCryptoKey(keyPair?.publicKey)) {
    throw optionError('createDpopProof', '"keyPair" must be a CryptoKeyPair')
  }
  const alg = options.alg ?? cryptoKeyAlgorithms(keyPair.privateKey)[0]
  if (alg === undefined) {
    throw optionError('createDpopProof', '"keyPair" is of an algorithm DPoP cannot use')
  }
  const { kty, crv, x, y, n, e } = await exportJWK(keyPair.publicKey)
  const target = new URL(url)
  return new SignJWT({
    htm: method,
    htu: `${target.origin}${target.pathname}`,
    ...(accessToken === undefined ? {} : { ath: accessTokenHash(accessToken) }),
    ...(nonce === undefined ? {} : { nonce }),
  })
    .setProtectedHeader({ alg, typ: 'dpop+jwt', jwk: { kty, crv, x, y, n, e } as never })
    .setIssuedAt()
    .setJti(randomToken(16))
    .sign(keyPair.privateKey)
}
