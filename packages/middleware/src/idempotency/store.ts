import type { Context } from 'hono'
import { base64url, fromBase64url } from '../internal/crypto'

/**
 * A response kept for replay: its status, the headers named by `replayHeaders` (lower-case name
 * and value, in the order they were sent) and its body bytes.
 *
 * @example
 * const saved: IdempotentResponse = { status: 201, headers: [['content-type', 'application/json']], body: new TextEncoder().encode('{"id":1}') }
 */
export interface IdempotentResponse {
  status: number
  headers: [name: string, value: string][]
  body: Uint8Array
}

/**
 * What {@link IdempotencyStore.begin} found:
 * - `acquired`: no live record (or an expired one): this request holds the lock now;
 * - `in-flight`: another request with this key and fingerprint holds the lock, for `retryAfterMs`
 *   more at most;
 * - `mismatch`: the key is held or was used by a request with another fingerprint;
 * - `completed`: the response of the request that used the key, to replay.
 */
export type IdempotencyBegin =
  | { state: 'acquired' }
  | { state: 'in-flight'; retryAfterMs: number }
  | { state: 'mismatch' }
  | { state: 'completed'; response: IdempotentResponse }

/**
 * Where `idempotency` keeps its records: one record per key (the client's scope and its
 * `Idempotency-Key`), first a lock (a lease id, the request's fingerprint and an expiry), then the
 * stored response until `ttlMs` has passed. Designed for round trips: a replay costs one call
 * (`begin`), a first request two (`begin`, then `complete` or `release`).
 *
 * Every method must be atomic: of any number of concurrent `begin` calls for one key, exactly one
 * gets `acquired` while its lock lives. `complete` and `release` act only while the record still
 * carries the caller's lease, so a request whose lock expired (and was taken over) never
 * overwrites or frees the next one's.
 *
 * @example
 * const store: IdempotencyStore = new MemoryIdempotencyStore()
 * const lease = crypto.randomUUID()
 * const found = await store.begin('client-1\n8e03978e', lease, 'POST /orders sha256:…', 60_000)
 * if (found.state === 'acquired') {
 *   const response = await run()
 *   await store.complete('client-1\n8e03978e', lease, response, 86_400_000)
 * }
 */
export interface IdempotencyStore {
  /**
   * Looks the key up and, when there is no live record, locks it for `lockMs` under `lease` with
   * `fingerprint`, in one atomic step. A mismatching fingerprint wins over `in-flight`.
   */
  begin(key: string, lease: string, fingerprint: string, lockMs: number): Promise<IdempotencyBegin>
  /**
   * Replaces the lock held under `lease` by `response`, kept for `ttlMs`. True when stored; false
   * when the record no longer carries this lease (it expired and was taken over, or is gone).
   */
  complete(
    key: string,
    lease: string,
    response: IdempotentResponse,
    ttlMs: number,
  ): Promise<boolean>
  /** Deletes the lock held under `lease`, so a retry runs again; anything else is a no-op. */
  release(key: string, lease: string): Promise<void>
  /**
   * For a store whose handle arrives with the request (a Workers binding on `c.env`): the store
   * to use for the request `c`, called once per request before any other method. Optional.
   */
  forContext?(c: Context): IdempotencyStore
}

/** A lease id, as the middleware draws them: 1–128 characters. */
function checkLease(where: string, lease: unknown): void {
  if (typeof lease !== 'string' || lease.length === 0 || lease.length > 128) {
    throw new TypeError(`${where}: lease must be a string of 1 to 128 characters`)
  }
}

function checkMs(where: string, name: string, ms: unknown): void {
  if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms <= 0) {
    throw new TypeError(`${where}: ${name} must be a positive integer, got ${String(ms)}`)
  }
}

function checkKey(where: string, key: unknown): void {
  if (typeof key !== 'string') throw new TypeError(`${where}: key must be a string`)
}

/** The longest fingerprint a store accepts (the middleware's are 71 characters). */
export const MAX_FINGERPRINT = 512

/** The arguments of `begin`, checked once for every store. */
export function checkBegin(
  where: string,
  key: unknown,
  lease: unknown,
  fingerprint: unknown,
  lockMs: unknown,
): void {
  checkKey(where, key)
  checkLease(where, lease)
  if (
    typeof fingerprint !== 'string' ||
    fingerprint.length === 0 ||
    fingerprint.length > MAX_FINGERPRINT
  ) {
    throw new TypeError(
      `${where}: fingerprint must be a string of 1 to ${MAX_FINGERPRINT} characters`,
    )
  }
  checkMs(where, 'lockMs', lockMs)
}

/** The arguments of `complete`, checked once for every store. */
export function checkComplete(
  where: string,
  key: unknown,
  lease: unknown,
  response: unknown,
  ttlMs: unknown,
): void {
  checkKey(where, key)
  checkLease(where, lease)
  checkMs(where, 'ttlMs', ttlMs)
  const r = response as Partial<IdempotentResponse> | null
  if (
    r === null ||
    typeof r !== 'object' ||
    !Number.isInteger(r.status) ||
    (r.status as number) < 100 ||
    (r.status as number) > 599 ||
    !(r.body instanceof Uint8Array) ||
    !Array.isArray(r.headers) ||
    !r.headers.every(
      (h) => Array.isArray(h) && typeof h[0] === 'string' && typeof h[1] === 'string',
    )
  ) {
    throw new TypeError(
      `${where}: response must be { status, headers: [name, value][], body: Uint8Array }`,
    )
  }
}

/** The arguments of `release`, checked once for every store. */
export function checkRelease(where: string, key: unknown, lease: unknown): void {
  checkKey(where, key)
  checkLease(where, lease)
}

/**
 * A response as the shared stores keep it: JSON text with the body in base64url, so every
 * backend holds it as one string value.
 */
export function encodeResponse(response: IdempotentResponse): string {
  return JSON.stringify({ s: response.status, h: response.headers, b: base64url(response.body) })
}

/** The response {@link encodeResponse} wrote, or `null` for anything else (a corrupt value). */
export function decodeResponse(text: unknown): IdempotentResponse | null {
  if (typeof text !== 'string') return null
  let parsed: { s?: unknown; h?: unknown; b?: unknown }
  try {
    parsed = JSON.parse(text)
  } catch {
    return null
  }
  if (parsed === null || typeof parsed !== 'object') return null
  const { s, h, b } = parsed
  if (typeof s !== 'number' || !Number.isInteger(s) || typeof b !== 'string' || !Array.isArray(h)) {
    return null
  }
  if (
    !h.every((p) => Array.isArray(p) && p.length === 2 && p.every((v) => typeof v === 'string'))
  ) {
    return null
  }
  const body = fromBase64url(b)
  if (body === null) return null
  return { status: s, headers: h as [string, string][], body }
}
