/**
 * The Durable Object class behind the Cloudflare stores. One object holds the state of one key,
 * named by the store (prefix + key): a session, an API key, a concurrency key's leases, or a
 * rate-limit key's counters, a nonce's replay record (the fixed window, the sliding window, the token bucket and the limits
 * and block of `consume`, each under its own storage key). A Durable Object runs one event at a time and its storage calls are
 * atomic with respect to other events (input gates), so read-modify-write of a record needs no
 * lock and no retry: increments are exact, and a `consume` of several limits is all or nothing.
 */

import { checkAcquire, checkLease, checkLeaseMs } from '../concurrency-limit/store'
import { checkBegin, checkRelease } from '../idempotency/store'
import { checkClaim } from '../internal/stores/nonce-store'
import { checkMax, checkWindowMs } from '../internal/stores/store-args'
import {
  algorithmHit,
  algorithmRefund,
  type ConsumeState,
  consumeEvaluate,
  type StoredBucket,
  type StoredSliding,
} from '../rate-limit/algorithms'
import { checkRateLimitRequest } from '../rate-limit/store'
import { apiKeyOperations } from './api-key-object'

/**
 * The part of `DurableObjectStorage` the object uses (the key-value API, available on both
 * SQLite- and KV-backed objects).
 *
 * @example
 * const storage: DurableObjectStorageLike = state.storage
 */
export interface DurableObjectStorageLike {
  get<T = unknown>(key: string): Promise<T | undefined>
  put<T>(key: string, value: T): Promise<void>
  delete(key: string): Promise<unknown>
  deleteAll(): Promise<unknown>
  setAlarm(scheduledTime: number): Promise<void>
}

/**
 * The part of `DurableObjectState` the object uses.
 *
 * @example
 * const state: DurableObjectStateLike = ctx // the first constructor argument workerd passes
 */
export interface DurableObjectStateLike {
  readonly storage: DurableObjectStorageLike
}

/** What one object stores under {@link RECORD}. `expiresAt` is epoch ms, `null` for never. */
interface StoredRecord {
  expiresAt: number | null
  count?: number
  data?: string
  id?: string
  metadata?: Record<string, unknown>
}

const RECORD = 'record'
/** Where the rate-limit state beyond the fixed window lives, beside {@link RECORD}. */
const SLIDING = 'sliding'
const BUCKET = 'bucket'
const CONSUMED = 'consumed'
/** A concurrency key's leases: lease id → expiry (epoch ms); `expiresAt` is the latest one. */
const LEASES = 'leases'
/** A replay record (a nonce claimed): only its `expiresAt`. */
const NONCE = 'nonce'
/** An idempotency record: the lock (lease, fingerprint) and then the stored response. */
const IDEMPOTENCY = 'idempotency'
const RECORDS = [RECORD, SLIDING, BUCKET, CONSUMED, LEASES, NONCE, IDEMPOTENCY]

interface StoredIdempotency {
  expiresAt: number
  fingerprint: string
  /** The lock's lease while the first request runs; absent once completed. */
  lease?: string
  /** The stored response (JSON text, as `encodeResponse` writes it), once completed. */
  response?: string
}

interface StoredLeases {
  expiresAt: number
  leases: Map<string, number>
}

/** The URL origin stubs are called with; `.invalid` can never resolve to a real host. */
export const OBJECT_ORIGIN = 'https://palisade-store.invalid'

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/**
 * Durable Object class for `DurableObjectRateLimitStore`, `DurableObjectSessionStore`,
 * `DurableObjectApiKeyStore` and `DurableObjectConcurrencyStore`. Export it from your Worker's
 * entry module and bind it; the stores can share one binding (their names never collide: each
 * store has its own prefix).
 * Stubs talk to it with `fetch` (no RPC types needed). Expired counters and sessions delete
 * themselves with an alarm, so storage does not grow with past clients.
 *
 * @example
 * // worker.ts
 * export { PalisadeStoreObject } from '@palisade/middleware/cloudflare'
 * // wrangler.jsonc
 * // "durable_objects": { "bindings": [{ "name": "PALISADE", "class_name": "PalisadeStoreObject" }] },
 * // "migrations": [{ "tag": "v1", "new_sqlite_classes": ["PalisadeStoreObject"] }]
 */
export class PalisadeStoreObject {
  readonly #storage: DurableObjectStorageLike

  /** Called by the runtime with the object's state; `env` is not used. */
  constructor(state: DurableObjectStateLike, _env?: unknown) {
    this.#storage = state.storage
  }

  /** Handles one store operation: `POST <origin>/<operation>` with a JSON body. */
  async fetch(request: Request): Promise<Response> {
    if (request.method !== 'POST') return json({ error: 'method not allowed' }, 405)
    let body: Record<string, unknown>
    try {
      const parsed: unknown = await request.json()
      if (parsed === null || typeof parsed !== 'object') throw new Error('not an object')
      body = parsed as Record<string, unknown>
    } catch {
      return json({ error: 'body must be a JSON object' }, 400)
    }
    const operation = new URL(request.url).pathname.slice(1)
    // Own properties only: `/constructor` or `/__proto__` name no operation.
    const handler = Object.hasOwn(this.#operations, operation)
      ? this.#operations[operation]
      : undefined
    if (!handler) return json({ error: `unknown operation "${operation}"` }, 404)
    const result = await handler(body)
    return typeof result === 'string' ? json({ error: result }, 400) : json(result)
  }

  /**
   * Deletes the object's state once all of it has expired (counters after their window, sessions
   * after maxAge); while some of it lives, waits for the last expiry. API keys never expire.
   */
  async alarm(): Promise<void> {
    let last = 0
    for (const name of RECORDS) {
      const record = await this.#storage.get<{ expiresAt: number | null }>(name)
      if (!record) continue
      if (record.expiresAt === null) return
      last = Math.max(last, record.expiresAt)
    }
    if (last === 0) return
    if (last <= Date.now()) await this.#storage.deleteAll()
    else await this.#storage.setAlarm(last)
  }

  /** The live record under `name`, or undefined when there is none or it has expired. */
  async #read<R extends { expiresAt: number | null } = StoredRecord>(
    name = RECORD,
  ): Promise<R | undefined> {
    const record = await this.#storage.get<R>(name)
    if (record && record.expiresAt !== null && record.expiresAt <= Date.now()) return undefined
    return record
  }

  async #write<R extends { expiresAt: number | null }>(
    record: R,
    previous: R | undefined,
    name = RECORD,
  ): Promise<void> {
    await this.#storage.put(name, record)
    if (record.expiresAt !== null && record.expiresAt !== previous?.expiresAt) {
      await this.#storage.setAlarm(record.expiresAt)
    }
  }

  /** `rate/hit` (sliding window, token bucket) and `rate/refund` (every algorithm). */
  async #rate(
    algorithm: unknown,
    windowMs: unknown,
    max: unknown,
    refund: boolean,
  ): Promise<object | string> {
    const bad = checkHit(algorithm, windowMs, max, refund)
    if (bad !== undefined) return bad
    if (algorithm === 'fixed-window') {
      const current = await this.#read()
      if (current?.count !== undefined && current.count > 0) {
        await this.#write({ ...current, count: current.count - 1 }, current)
      }
      return {}
    }
    const name = algorithm === 'sliding-window' ? SLIDING : BUCKET
    const current = await this.#read<StoredSliding | StoredBucket>(name)
    const args = [algorithm as 'sliding-window', current, Date.now(), windowMs, max] as const
    const { info, next } = refund
      ? { info: {}, next: algorithmRefund(...(args as Parameters<typeof algorithmRefund>)) }
      : algorithmHit(...(args as Parameters<typeof algorithmHit>))
    if (next !== undefined) await this.#write(next, current, name)
    return info
  }

  /**
   * The leases that have not expired (expired ones are dropped here) and the stored record.
   * A Map, so no lease id (`__proto__`) can touch a prototype.
   */
  async #leases(): Promise<{ current: StoredLeases | undefined; live: Map<string, number> }> {
    const current = await this.#storage.get<StoredLeases>(LEASES)
    const now = Date.now()
    const live = new Map<string, number>()
    for (const [id, expiresAt] of current?.leases ?? [])
      if (expiresAt > now) live.set(id, expiresAt)
    return { current, live }
  }

  /** Stores `live` (deletes the record once no lease is left); skipped when nothing changed. */
  async #saveLeases(
    live: Map<string, number>,
    current: StoredLeases | undefined,
    changed: boolean,
  ): Promise<void> {
    if (!changed && live.size === (current?.leases.size ?? 0)) return
    if (live.size === 0) {
      if (current !== undefined) await this.#storage.delete(LEASES)
      return
    }
    let expiresAt = 0
    for (const at of live.values()) expiresAt = Math.max(expiresAt, at)
    await this.#write<StoredLeases>({ expiresAt, leases: live }, current, LEASES)
  }

  // Each operation returns its JSON result, or a string: the reason its input was rejected.
  readonly #operations: Record<
    string,
    (body: Record<string, unknown>) => Promise<object | string>
  > = {
    increment: async ({ windowMs }) => {
      if (typeof windowMs !== 'number' || !Number.isInteger(windowMs) || windowMs <= 0) {
        return 'windowMs must be a positive integer'
      }
      const now = Date.now()
      const current = await this.#read()
      const record: StoredRecord =
        current?.count === undefined
          ? { expiresAt: now + windowMs, count: 1 }
          : { ...current, count: current.count + 1 }
      await this.#write(record, current)
      return { count: record.count, ttl: Math.max((record.expiresAt ?? now) - now, 0) }
    },
    // The sliding window and the token bucket: one request, recorded only when it passes.
    'rate/hit': ({ algorithm, windowMs, max }) => this.#rate(algorithm, windowMs, max, false),
    // decrement: gives one request back (never below zero, a bucket never above max).
    'rate/refund': ({ algorithm, windowMs, max }) => this.#rate(algorithm, windowMs, max, true),
    // consume: every limit checked, all taken or none, a block set on refusal; one event.
    'rate/consume': async (body) => {
      let request: ReturnType<typeof checkRateLimitRequest>
      try {
        request = checkRateLimitRequest('PalisadeStoreObject', body as never)
      } catch (error) {
        return (error as Error).message
      }
      const current = await this.#read<ConsumeState>(CONSUMED)
      const { verdict, next } = consumeEvaluate(current, Date.now(), request)
      if (next !== undefined) await this.#write(next, current, CONSUMED)
      return verdict
    },
    delete: async () => {
      const existed = (await this.#read()) !== undefined
      await this.#storage.deleteAll()
      return { existed }
    },
    'session/get': async () => {
      const record = await this.#read()
      return { data: record?.data ?? null }
    },
    'session/set': async ({ data, ms }) => {
      if (typeof data !== 'string' || typeof ms !== 'number' || !(ms > 0)) {
        return 'session/set needs data (JSON text) and ms > 0'
      }
      const current = await this.#read()
      await this.#write({ expiresAt: Date.now() + ms, data }, current)
      return {}
    },
    // Compare-and-set of a session: written (or deleted, with data null) only if the stored
    // text is still `expect` (null: still missing), so a destroy between a read and this write
    // makes the write fail instead of reviving the session.
    'session/swap': async ({ expect, data, ms }) => {
      if (
        (expect !== null && typeof expect !== 'string') ||
        (data !== null && typeof data !== 'string') ||
        typeof ms !== 'number' ||
        !(ms > 0)
      ) {
        return 'session/swap needs expect and data (JSON text or null) and ms > 0'
      }
      const current = await this.#read()
      if ((current?.data ?? null) !== expect) return { ok: false }
      if (data === null) await this.#storage.deleteAll()
      else await this.#write({ expiresAt: Date.now() + ms, data }, current)
      return { ok: true }
    },
    // Concurrency leases of one key: one event each, so `max` is exact under any concurrency.
    // An acquire of a lease already held renews it (idempotent: a retried acquire takes no
    // second slot).
    'lease/acquire': async ({ lease, max, leaseMs }) => {
      const bad = reason(() => checkAcquire('PalisadeStoreObject', '', lease, max, leaseMs))
      if (bad !== undefined) return bad
      const { current, live } = await this.#leases()
      const id = lease as string
      if (!live.has(id) && live.size >= (max as number)) {
        await this.#saveLeases(live, current, false)
        return { acquired: false, inFlight: live.size }
      }
      live.set(id, Date.now() + (leaseMs as number))
      await this.#saveLeases(live, current, true)
      return { acquired: true, inFlight: live.size }
    },
    'lease/renew': async ({ lease, leaseMs }) => {
      const bad = reason(() => {
        checkLease('PalisadeStoreObject', lease)
        checkLeaseMs('PalisadeStoreObject', leaseMs)
      })
      if (bad !== undefined) return bad
      const { current, live } = await this.#leases()
      const renewed = live.has(lease as string)
      if (renewed) live.set(lease as string, Date.now() + (leaseMs as number))
      await this.#saveLeases(live, current, renewed)
      return { renewed }
    },
    'lease/release': async ({ lease }) => {
      const bad = reason(() => checkLease('PalisadeStoreObject', lease))
      if (bad !== undefined) return bad
      const { current, live } = await this.#leases()
      await this.#saveLeases(live, current, live.delete(lease as string))
      return {}
    },
    // A nonce's replay record: claimed when absent or expired, in one event of its object, so of
    // any number of concurrent claims exactly one gets true.
    'nonce/claim': async ({ ttlMs }) => {
      const bad = reason(() => checkClaim('PalisadeStoreObject', 'nonce', ttlMs))
      if (bad !== undefined) return bad
      const current = await this.#read<{ expiresAt: number }>(NONCE)
      if (current !== undefined) return { claimed: false }
      await this.#write({ expiresAt: Date.now() + (ttlMs as number) }, current, NONCE)
      return { claimed: true }
    },
    // Idempotency records: one event each, so of any number of concurrent begins one acquires.
    'idem/begin': async ({ lease, fingerprint, lockMs }) => {
      const bad = reason(() => checkBegin('PalisadeStoreObject', '', lease, fingerprint, lockMs))
      if (bad !== undefined) return bad
      const current = await this.#read<StoredIdempotency>(IDEMPOTENCY)
      if (current === undefined) {
        const record: StoredIdempotency = {
          expiresAt: Date.now() + (lockMs as number),
          fingerprint: fingerprint as string,
          lease: lease as string,
        }
        await this.#write(record, await this.#storage.get(IDEMPOTENCY), IDEMPOTENCY)
        return { state: 'acquired' }
      }
      if (current.fingerprint !== fingerprint) return { state: 'mismatch' }
      if (current.response === undefined) {
        return { state: 'in-flight', retryAfterMs: Math.max(1, current.expiresAt - Date.now()) }
      }
      return { state: 'completed', response: current.response }
    },
    'idem/complete': async ({ lease, response, ttlMs }) => {
      const bad = reason(() => checkRelease('PalisadeStoreObject', '', lease))
      if (bad !== undefined) return bad
      if (typeof response !== 'string' || typeof ttlMs !== 'number' || !(ttlMs > 0)) {
        return 'idem/complete needs a response (JSON text) and ttlMs > 0'
      }
      const current = await this.#storage.get<StoredIdempotency>(IDEMPOTENCY)
      if (current === undefined || current.lease !== lease || current.response !== undefined) {
        return { stored: false }
      }
      const record: StoredIdempotency = {
        expiresAt: Date.now() + ttlMs,
        fingerprint: current.fingerprint,
        response,
      }
      await this.#write(record, current, IDEMPOTENCY)
      return { stored: true }
    },
    'idem/release': async ({ lease }) => {
      const bad = reason(() => checkRelease('PalisadeStoreObject', '', lease))
      if (bad !== undefined) return bad
      const current = await this.#storage.get<StoredIdempotency>(IDEMPOTENCY)
      if (current !== undefined && current.lease === lease && current.response === undefined) {
        await this.#storage.delete(IDEMPOTENCY)
      }
      return {}
    },
    ...apiKeyOperations(() => this.#storage),
  }
}

/** The message of what `check` throws, or undefined when it passes. */
function reason(check: () => void): string | undefined {
  try {
    check()
  } catch (error) {
    return (error as Error).message
  }
  return undefined
}

/** The arguments of a `rate/hit` (or, with `refund`, `rate/refund`) call, or why they are wrong. */
function checkHit(
  algorithm: unknown,
  windowMs: unknown,
  max: unknown,
  refund = false,
): string | undefined {
  const algorithms: unknown[] = ['sliding-window', 'token-bucket']
  if (refund) algorithms.push('fixed-window')
  if (!algorithms.includes(algorithm)) return `unknown algorithm ${String(algorithm)}`
  try {
    checkMax('PalisadeStoreObject', checkWindowMs('PalisadeStoreObject', windowMs), max)
  } catch (error) {
    return (error as Error).message
  }
  return undefined
}
