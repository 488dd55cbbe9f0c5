import type { JWK, JWTPayload } from './payload'

export type { JwksCacheOptions, JwksFetch } from '../internal/keys/jwks'
export type { JwtAlgorithm } from './hmac'
export { type JwtAuthOptions, jwtAuth } from './jwt-auth'
export type { AsymmetricAlgorithm } from './keys'
export { type SigningKey, type SignJwtOptions, signJwt } from './sign-jwt'
export type { JWK, JWTPayload }

declare module 'hono' {
  interface ContextVariableMap {
    /** Verified claims of the request's JWT, set by `jwtAuth`. */
    jwtPayload: JWTPayload
  }
}
