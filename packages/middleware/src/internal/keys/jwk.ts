/**
 * A JSON Web Key (RFC 7517) as the published declarations spell it. jose's `JWK` and WebCrypto's
 * `JsonWebKey` both fit it. Declared here, not imported from jose, so the CommonJS declarations
 * of a subpath that takes keys do not import the ESM-only `jose` package (TS1479 for a consumer
 * compiling CommonJS under node16 resolution).
 *
 * @example
 * const key: Jwk = { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo', kid: 'k1' }
 */
export interface Jwk {
  kty?: string
  alg?: string
  kid?: string
  use?: string
  key_ops?: string[]
  ext?: boolean
  crv?: string
  x?: string
  y?: string
  d?: string
  n?: string
  e?: string
  p?: string
  q?: string
  dp?: string
  dq?: string
  qi?: string
  k?: string
}

/** A JWK Set (RFC 7517 §5): `{ keys: [...] }`. */
export interface JwkSet {
  keys: Jwk[]
}
