import type { Context } from 'hono'
import {
  checkBegin,
  checkComplete,
  checkRelease,
  decodeResponse,
  encodeResponse,
  type IdempotencyBegin,
  type IdempotencyStore,
  type IdempotentResponse,
} from '../idempotency/store'
import { boundKey } from '../internal/stores/bounded-key'
import {
  checkAndSet,
  type DenoKvLike,
  type DenoKvStoreOptions,
  type DenoKvTarget,
  denoKvStoreOptions,
} from './kv'

const NAME = 'DenoKvIdempotencyStore'

/** A KV value is at most 64 KiB; the record's other fields and JSON keep some of it. */
const MAX_RESPONSE_TEXT = 63_000

/** One record: the lock (lease, fingerprint), then the stored response. */
interface KvRecord {
  fingerprint: string
  lease: string | null
  /** The response as `encodeResponse` writes it; null while locked. */
  response: string | null
  expiresAt: number
}

function isRecord(value: unknown): value is KvRecord {
  const r = value as KvRecord | null
  return (
    r !== null &&
    typeof r === 'object' &&
    typeof r.fingerprint === 'string' &&
    typeof r.expiresAt === 'number'
  )
}

/**
 * Options of {@link DenoKvIdempotencyStore}.
 *
 * @example
 * const options: DenoKvIdempotencyStoreOptions = { kv: await Deno.openKv(), prefix: 'shop:ik' }
 */
export interface DenoKvIdempotencyStoreOptions extends DenoKvStoreOptions {
  /** Key prefix (first key part). Default `'palisade:ik'`. */
  prefix?: string
}

/**
 * Idempotency records in Deno KV, for `idempotency` on Deno Deploy and Deno apps with several
 * instances: one entry per record, `[prefix, key]` → the lock (lease, fingerprint) and then the
 * stored response, written with `expireIn` so KV deletes it by itself. Each call reads the entry
 * and commits only if it is unchanged (a check on its versionstamp; otherwise it reads again), so
 * of any number of concurrent begins from any instance exactly one acquires, and `complete` and
 * `release` act only on the lock of their own lease. Expiry is also checked on read (KV deletes
 * expired entries lazily).
 *
 * A KV value is at most 64 KiB: a response whose stored form (base64 body in JSON) passes about
 * 63,000 characters is refused by `complete` (the middleware then releases the key), so keep
 * `maxBodyBytes` at 45,000 or less with this store.
 *
 * @param options.kv - An open Deno KV handle (`await Deno.openKv()`), or a resolver. Required.
 * @param options.prefix - Key prefix. Default `'palisade:ik'`.
 * @example
 * import { DenoKvIdempotencyStore } from '@palisade/middleware/deno-kv'
 *
 * const store = new DenoKvIdempotencyStore({ kv: await Deno.openKv() })
 * app.post('/orders', idempotency({ store, maxBodyBytes: 45_000 }), createOrder)
 */
export class DenoKvIdempotencyStore implements IdempotencyStore {
  readonly #kv: DenoKvLike
  readonly #prefix: string
  readonly #target: DenoKvTarget<DenoKvIdempotencyStore>

  constructor(options: DenoKvIdempotencyStoreOptions) {
    this.#target = denoKvStoreOptions<DenoKvIdempotencyStore>(NAME, options, 'palisade:ik')
    this.#kv = this.#target.kv
    this.#prefix = this.#target.prefix
  }

  /**
   * The store for the request `c`: this one when it was built with a handle; built with a
   * resolver, the store on the handle the resolver returns (made once per handle).
   */
  forContext(c: Context): DenoKvIdempotencyStore {
    return this.#target.forContext(
      c,
      this,
      (kv) => new DenoKvIdempotencyStore({ kv, prefix: this.#prefix }),
    )
  }

  async begin(
    key: string,
    lease: string,
    fingerprint: string,
    lockMs: number,
  ): Promise<IdempotencyBegin> {
    checkBegin(`${NAME}.begin`, key, lease, fingerprint, lockMs)
    const k = [this.#prefix, await boundKey(key)]
    return checkAndSet<IdempotencyBegin>(NAME, async () => {
      const entry = await this.#kv.get<unknown>(k)
      const now = Date.now()
      const record = isRecord(entry.value) && entry.value.expiresAt > now ? entry.value : undefined
      if (record === undefined) {
        const next: KvRecord = { fingerprint, lease, response: null, expiresAt: now + lockMs }
        const { ok } = await this.#kv
          .atomic()
          .check({ key: k, versionstamp: entry.versionstamp })
          .set(k, next, { expireIn: lockMs })
          .commit()
        return ok ? { committed: true, value: { state: 'acquired' } } : undefined
      }
      if (record.fingerprint !== fingerprint)
        return { committed: true, value: { state: 'mismatch' } }
      if (record.response === null) {
        const retryAfterMs = Math.max(1, record.expiresAt - now)
        return { committed: true, value: { state: 'in-flight', retryAfterMs } }
      }
      const response = decodeResponse(record.response)
      if (response === null) throw new Error(`${NAME}: a stored response is corrupt`)
      return { committed: true, value: { state: 'completed', response } }
    })
  }

  async complete(
    key: string,
    lease: string,
    response: IdempotentResponse,
    ttlMs: number,
  ): Promise<boolean> {
    checkComplete(`${NAME}.complete`, key, lease, response, ttlMs)
    const text = encodeResponse(response)
    if (text.length > MAX_RESPONSE_TEXT) {
      throw new RangeError(
        `${NAME}: the response is too large for one Deno KV value (keep maxBodyBytes at 45000 or less)`,
      )
    }
    const k = [this.#prefix, await boundKey(key)]
    return checkAndSet<boolean>(NAME, async () => {
      const entry = await this.#kv.get<unknown>(k)
      const record = entry.value
      if (!isRecord(record) || record.lease !== lease || record.response !== null) {
        return { committed: true, value: false }
      }
      const next: KvRecord = {
        fingerprint: record.fingerprint,
        lease: null,
        response: text,
        expiresAt: Date.now() + ttlMs,
      }
      const { ok } = await this.#kv
        .atomic()
        .check({ key: k, versionstamp: entry.versionstamp })
        .set(k, next, { expireIn: ttlMs })
        .commit()
      return ok ? { committed: true, value: true } : undefined
    })
  }

  async release(key: string, lease: string): Promise<void> {
    checkRelease(`${NAME}.release`, key, lease)
    const k = [this.#prefix, await boundKey(key)]
    await checkAndSet<void>(NAME, async () => {
      const entry = await this.#kv.get<unknown>(k)
      const record = entry.value
      if (!isRecord(record) || record.lease !== lease || record.response !== null) {
        return { committed: true, value: undefined }
      }
      const { ok } = await this.#kv
        .atomic()
        .check({ key: k, versionstamp: entry.versionstamp })
        .delete(k)
        .commit()
      return ok ? { committed: true, value: undefined } : undefined
    })
  }
}
