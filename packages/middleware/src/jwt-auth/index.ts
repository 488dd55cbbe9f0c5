import type { JWTPayload } from './payload'

export type { JwtAlgorithm } from './hmac'
export { type JwtAuthOptions, jwtAuth } from './jwt-auth'
export { type SignJwtOptions, signJwt } from './sign-jwt'
export type { JWTPayload }

declare module 'hono' {
  interface ContextVariableMap {
    /** Verified claims of the request's JWT, set by `jwtAuth`. */
    jwtPayload: JWTPayload
  }
}
