/**
 * The stable machine codes of Palisade's rejections (snake_case). Codes never change meaning;
 * new ones may be added. Other strings are allowed for rejections of your own.
 *
 * @example
 * if (err instanceof Rejection && err.code === 'rate_limited') retryLater()
 */
export type RejectionCode =
  | 'rate_limited'
  | 'concurrency_limited'
  | 'ip_denied'
  | 'body_too_large'
  | 'body_unreadable'
  | 'content_length_mismatch'
  | 'csrf_token_invalid'
  | 'token_missing'
  | 'token_invalid'
  | 'insufficient_scope'
  | 'jwks_unavailable'
  | 'api_key_invalid'
  | 'unsupported_media_type'
  | 'request_timeout'
  /** `loadShed()`: the process is under pressure (event loop, memory, requests in flight). */
  | 'overloaded'
  /** `quota()`: the key's calls for the day or month are used up. */
  | 'quota_exceeded'
  | 'url_invalid'
  | 'url_forbidden'
  /** No longer answered: malformed JSON is `malformed_body` from every reader. */
  | 'json_malformed'
  | 'store_unavailable'
  | 'validation_failed'
  | 'malformed_body'
  | 'body_too_deep'
  | 'response_invalid'
  /** `webhook()`: a missing, malformed, wrong or replayed webhook signature. */
  | 'webhook_signature_invalid'
  /** `webhook()`: a webhook timestamp missing, malformed or outside the tolerance. */
  | 'webhook_timestamp_invalid'
  /** `problemNotFound()`: no route matches the method and path. */
  | 'not_found'
  /** `shield()`: the request carries an attack, or its client is banned after repeated ones. */
  | 'attack_detected'
  /** `botGuard()`: the request's bot category is denied (a spoofed crawler, by default). */
  | 'bot_denied'
  /** httpSignature: no RFC 9421 signature on the request (or none with the required label/tag). */
  | 'signature_missing'
  /** httpSignature: a signature that is malformed, unverifiable, too old, replayed or too narrow. */
  | 'signature_invalid'
  /** httpSignature: the body does not match its Content-Digest (RFC 9530). */
  | 'digest_mismatch'
  /** jwtAuth with `dpop`: a DPoP proof (RFC 9449) missing, malformed, wrong or replayed. */
  | 'invalid_dpop_proof'
  /** jwtAuth with `dpop.nonce`: the proof lacks the server's current nonce (`DPoP-Nonce`). */
  | 'use_dpop_nonce'
  /** `idempotency()`: the operation requires an `Idempotency-Key` and none was sent. */
  | 'idempotency_key_missing'
  /** `idempotency()`: the key is not one Structured Fields string of 1–255 characters. */
  | 'idempotency_key_invalid'
  /** `idempotency()`: a request with this key is still being processed. */
  | 'idempotency_in_flight'
  /** `idempotency()`: this key was used for a different request. */
  | 'idempotency_key_reused'
  /** `@palisade/openapi`: the operation is past its sunset and the app enforces sunsets (410). */
  | 'gone'
  | (string & {})

/** What a rejection code looks like: snake_case, starting with a letter. */
export const CODE_PATTERN = '^[a-z][a-z0-9_]*$'

/**
 * The codes of request validation failures (`@palisade/openapi` answers them before the handler
 * runs; `problemHandler()` renders them with their field errors).
 */
export const VALIDATION_CODES = [
  'validation_failed',
  'malformed_body',
  'body_too_deep',
  'unsupported_media_type',
] as const satisfies readonly RejectionCode[]
