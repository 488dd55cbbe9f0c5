import type { VerifiedSignature } from './request'

export {
  MemoryNonceStore,
  type MemoryNonceStoreOptions,
  type NonceStore,
} from '../internal/stores/nonce-store'
export type { SignatureAlgorithm } from './algorithms'
export type { DigestAlgorithm } from './digest'
export { type HttpSignatureOptions, httpSignature } from './http-signature'
export type {
  JwksCacheOptions,
  JwksFetch,
  SignatureKey,
  SignatureKeyLookup,
  SignatureKeys,
} from './keys'
export { type SignRequestOptions, signRequest } from './sign-request'
export type { VerifiedSignature }

declare module 'hono' {
  interface ContextVariableMap {
    /** The verified HTTP message signature, set by `httpSignature`. */
    signature: VerifiedSignature
  }
}
