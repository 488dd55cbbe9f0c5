import type { Context } from 'hono'

/**
 * Where `concurrencyLimit` keeps its slots. A slot is a lease: an id the middleware draws per
 * request (`crypto.randomUUID()`), held under a key until it is released or expires. A shared
 * store (Redis, PostgreSQL, Durable Objects, Deno KV) lets leases expire so that an instance
 * which crashes mid-request cannot hold its slots forever; the middleware renews the leases of
 * requests still in flight at about half of `leaseMs`.
 *
 * Every method must be atomic: two concurrent `acquire` calls for the last free slot give it to
 * exactly one of them.
 *
 * @example
 * const store: ConcurrencyStore = new MemoryConcurrencyStore()
 * const lease = crypto.randomUUID()
 * const { acquired } = await store.acquire('203.0.113.7', lease, 2, 60_000)
 * if (acquired) {
 *   try { await work() } finally { await store.release('203.0.113.7', lease) }
 * }
 */
export interface ConcurrencyStore {
  /**
   * Takes a slot for `key` under the id `lease` if fewer than `max` unexpired leases are held;
   * expired leases do not count (and are dropped). Idempotent for the same lease id.
   * `inFlight` is the number of leases held after the call (including this one when acquired).
   */
  acquire(
    key: string,
    lease: string,
    max: number,
    leaseMs: number,
  ): Promise<{ acquired: boolean; inFlight: number }>
  /**
   * Pushes the lease's expiry to now + leaseMs; false when the lease is gone (expired and
   * dropped, or released).
   */
  renew(key: string, lease: string, leaseMs: number): Promise<boolean>
  /** Frees the slot; an unknown or already released lease is a no-op. */
  release(key: string, lease: string): Promise<void>
  /**
   * For a store whose handle arrives with the request (a Workers binding on `c.env`): the store
   * to use for the request `c`. `concurrencyLimit` calls it once per request, before any other
   * method, so the store and the middleware can be built once at module scope. Optional.
   */
  forContext?(c: Context): ConcurrencyStore
}

/** The answer of {@link ConcurrencyStore.acquire}. */
export type ConcurrencyAcquired = Awaited<ReturnType<ConcurrencyStore['acquire']>>

/** A lease id, as the middleware draws them and the stores accept: 1–128 characters. */
export function checkLease(where: string, lease: unknown): string {
  if (typeof lease !== 'string' || lease.length === 0 || lease.length > 128) {
    throw new TypeError(`${where}: lease must be a string of 1 to 128 characters`)
  }
  return lease
}

/** The arguments of `acquire`, checked once for every store. */
export function checkAcquire(
  where: string,
  key: unknown,
  lease: unknown,
  max: unknown,
  leaseMs: unknown,
): void {
  checkKey(where, key)
  checkLease(where, lease)
  if (typeof max !== 'number' || !Number.isSafeInteger(max) || max <= 0) {
    throw new TypeError(`${where}: max must be a positive integer, got ${String(max)}`)
  }
  checkLeaseMs(where, leaseMs)
}

/** The arguments of `renew`, checked once for every store. */
export function checkRenew(where: string, key: unknown, lease: unknown, leaseMs: unknown): void {
  checkKey(where, key)
  checkLease(where, lease)
  checkLeaseMs(where, leaseMs)
}

/** The arguments of `release`, checked once for every store. */
export function checkRelease(where: string, key: unknown, lease: unknown): void {
  checkKey(where, key)
  checkLease(where, lease)
}

/** `leaseMs`: a positive integer number of milliseconds. */
export function checkLeaseMs(where: string, leaseMs: unknown): number {
  if (typeof leaseMs !== 'number' || !Number.isSafeInteger(leaseMs) || leaseMs <= 0) {
    throw new TypeError(`${where}: leaseMs must be a positive integer, got ${String(leaseMs)}`)
  }
  return leaseMs
}

/** A slot key: any string. */
export function checkKey(where: string, key: unknown): string {
  if (typeof key !== 'string') throw new TypeError(`${where}: key must be a string`)
  return key
}
