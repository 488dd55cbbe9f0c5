import type { Context } from 'hono'
import {
  type ConcurrencyStore,
  checkAcquire,
  checkKey,
  checkLease,
  checkLeaseMs,
} from '../concurrency-limit/store'
import { boundKey } from '../internal/stores/bounded-key'
import {
  checkAndSet,
  type DenoKvKey,
  type DenoKvLike,
  type DenoKvListLike,
  type DenoKvStoreOptions,
  type DenoKvTarget,
  denoKvStoreOptions,
} from './kv'

const NAME = 'DenoKvConcurrencyStore'

/** Expired leases an acquire deletes along the way (KV's own expiry deletes the rest). */
const DROP_PER_ACQUIRE = 64

/**
 * Options of {@link DenoKvConcurrencyStore}.
 *
 * @example
 * const options: DenoKvConcurrencyStoreOptions = { kv: await Deno.openKv(), prefix: 'shop:cc' }
 */
export interface DenoKvConcurrencyStoreOptions extends DenoKvStoreOptions {
  /** Key prefix (first key part). Default `'palisade:cc'`. */
  prefix?: string
}

/**
 * Concurrency leases in Deno KV, for `concurrencyLimit` on Deno Deploy and Deno apps with several
 * instances. Each lease is its own entry, `[prefix, key, lease]` → its expiry (epoch ms), written
 * with `expireIn` so KV deletes it by itself; beside them, `[prefix, key]` is a guard whose
 * versionstamp every acquire and renew checks and changes in the same atomic commit. An acquire
 * reads the guard, lists the key's leases, counts the unexpired ones, and commits its lease only
 * if the guard is unchanged (otherwise it reads again, as the other Deno KV stores do), so of any
 * number of concurrent acquires from any instance exactly `max` get a slot. A renew commits only
 * if the guard and the lease are unchanged, so it never revives a lease that an acquire saw
 * expired or that was released meanwhile. A release deletes its entry (one write).
 *
 * One entry per lease rather than one value holding them all: a KV value is at most 64 KiB,
 * which would cap `max` at about a thousand leases per key; entries have no such cap, and the
 * leases of a crashed instance are deleted by KV's expiry even if the key is never used again.
 * The cost is a `list` of the key's leases on each acquire.
 *
 * @param options.kv - An open Deno KV handle (`await Deno.openKv()`, with `list`), or a resolver
 *   returning it (or the promise of it) for a request. Required.
 * @param options.prefix - Key prefix. Default `'palisade:cc'`.
 * @example
 * import { DenoKvConcurrencyStore } from '@palisade/middleware/deno-kv'
 *
 * const store = new DenoKvConcurrencyStore({ kv: await Deno.openKv() })
 * // app.use('/llm/*', concurrencyLimit({ max: 2, store }))
 * const { acquired } = await store.acquire('user-42', crypto.randomUUID(), 2, 60_000)
 */
export class DenoKvConcurrencyStore implements ConcurrencyStore {
  readonly #kv: DenoKvLike & DenoKvListLike
  readonly #prefix: string
  readonly #target: DenoKvTarget<DenoKvConcurrencyStore>

  constructor(options: DenoKvConcurrencyStoreOptions) {
    this.#target = denoKvStoreOptions<DenoKvConcurrencyStore>(NAME, options, 'palisade:cc', [
      'get',
      'atomic',
      'list',
    ])
    this.#kv = this.#target.kv as DenoKvLike & DenoKvListLike
    this.#prefix = this.#target.prefix
  }

  /**
   * The store for the request `c`: this one when it was built with a handle; built with a
   * resolver, the store on the handle the resolver returns (made once per handle).
   * `concurrencyLimit` calls it once per request; call it yourself before using the store in a
   * handler.
   */
  forContext(c: Context): DenoKvConcurrencyStore {
    return this.#target.forContext(
      c,
      this,
      (kv) => new DenoKvConcurrencyStore({ kv, prefix: this.#prefix }),
    )
  }

  /**
   * Takes a slot for `key` under `lease` if fewer than `max` unexpired leases are held (a lease
   * already held is renewed and keeps its slot). A refusal is judged on what was read, so while
   * leases come and go it can be cautious; a slot is never granted beyond `max`.
   */
  async acquire(
    key: string,
    lease: string,
    max: number,
    leaseMs: number,
  ): Promise<{ acquired: boolean; inFlight: number }> {
    checkAcquire(`${NAME}.acquire`, key, lease, max, leaseMs)
    const guard = [this.#prefix, await boundKey(key)]
    return checkAndSet<{ acquired: boolean; inFlight: number }>(NAME, async () => {
      const read = await this.#kv.get(guard)
      const now = Date.now()
      let live = 0
      let held = false
      const expired: DenoKvKey[] = []
      for await (const entry of this.#kv.list<unknown>({ prefix: guard })) {
        if (typeof entry.value === 'number' && entry.value > now) {
          live++
          if (entry.key[2] === lease) held = true
        } else if (expired.length < DROP_PER_ACQUIRE) expired.push(entry.key)
      }
      if (!held && live >= max) {
        return { committed: true, value: { acquired: false, inFlight: live } }
      }
      const op = this.#kv
        .atomic()
        .check({ key: guard, versionstamp: read.versionstamp })
        .set([...guard, lease], now + leaseMs, { expireIn: leaseMs })
        .set(guard, now, { expireIn: leaseMs })
      for (const k of expired) op.delete(k)
      const { ok } = await op.commit()
      return ok
        ? { committed: true, value: { acquired: true, inFlight: held ? live : live + 1 } }
        : undefined
    })
  }

  /** Pushes the lease's expiry to now + `leaseMs`; `false` when it expired or was released. */
  async renew(key: string, lease: string, leaseMs: number): Promise<boolean> {
    checkKey(`${NAME}.renew`, key)
    checkLease(`${NAME}.renew`, lease)
    checkLeaseMs(`${NAME}.renew`, leaseMs)
    const guard = [this.#prefix, await boundKey(key)]
    const leaseKey = [...guard, lease]
    return checkAndSet(NAME, async () => {
      const read = await this.#kv.get(guard)
      const entry = await this.#kv.get<unknown>(leaseKey)
      const now = Date.now()
      if (typeof entry.value !== 'number' || entry.value <= now) {
        return { committed: true, value: false }
      }
      const { ok } = await this.#kv
        .atomic()
        .check(
          { key: guard, versionstamp: read.versionstamp },
          { key: leaseKey, versionstamp: entry.versionstamp },
        )
        .set(leaseKey, now + leaseMs, { expireIn: leaseMs })
        .set(guard, now, { expireIn: leaseMs })
        .commit()
      return ok ? { committed: true, value: true } : undefined
    })
  }

  /** Frees the lease's slot; an unknown or already released lease is a no-op. */
  async release(key: string, lease: string): Promise<void> {
    checkKey(`${NAME}.release`, key)
    checkLease(`${NAME}.release`, lease)
    await this.#kv.delete([this.#prefix, await boundKey(key), lease])
  }
}
