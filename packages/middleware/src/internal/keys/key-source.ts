/**
 * What jwtAuth and httpSignature share about where keys come from: the key-source contract and
 * how jose's errors are told apart. The remote key set (jwks.ts) implements the contract.
 */

/** A key source: what jose calls for the key of each token, and the generation of its keys. */
export interface KeySource {
  /**
   * The key for a token header. A remote key set calls `failed` when this request met a failed
   * fetch and got past it (stale keys, an unknown `kid` not refetched), and throws a
   * `JwksUnavailableError` when no usable keys are left.
   */
  key: (
    header: { alg?: string; kid?: string },
    token: unknown,
    failed?: (error: Error) => void,
  ) => Promise<CryptoKey>
  /** A remote key set: why its last fetch failed, `undefined` once one succeeds. */
  failure?: () => Error | undefined
  /**
   * The generation of the keys that verify right now, or `-1` when they must be looked at again
   * (a JWKS past its max age). A remembered token counts only while its generation is current.
   */
  generation: () => number
}

/**
 * A jose error by its code (`ERR_JWKS_NO_MATCHING_KEY`, …): lighter than importing jose's whole
 * `errors` namespace for an `instanceof`.
 */
export function isJoseError(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code
}
