import type { VerifiedDpop } from './dpop-request'
import type { JWK, JWTPayload } from './payload'

export type { JwksCacheOptions, JwksFetch } from '../internal/keys/jwks'
export {
  MemoryNonceStore,
  type MemoryNonceStoreOptions,
  type NonceStore,
} from '../internal/stores/nonce-store'
export type { DpopOptions } from './dpop-config'
export { type CreateDpopProofOptions, createDpopProof } from './dpop-proof'
export type { JwtAlgorithm } from './hmac'
export { type JwtAuthOptions, jwtAuth } from './jwt-auth'
export type { AsymmetricAlgorithm } from './keys'
export { type SigningKey, type SignJwtOptions, signJwt } from './sign-jwt'
export type { JWK, JWTPayload, VerifiedDpop }

declare module 'hono' {
  interface ContextVariableMap {
    /** Verified claims of the request's JWT, set by `jwtAuth`. */
    jwtPayload: JWTPayload
    /** The DPoP proof key's thumbprint, set by `jwtAuth` with `dpop` on a DPoP request. */
    dpop: VerifiedDpop
  }
}
