import {
  checkBegin,
  checkComplete,
  checkRelease,
  type IdempotencyBegin,
  type IdempotencyStore,
  type IdempotentResponse,
} from './store'

const NAME = 'MemoryIdempotencyStore'

/**
 * Options of {@link MemoryIdempotencyStore}.
 *
 * @example
 * let now = 0
 * const store = new MemoryIdempotencyStore({ now: () => now }) // a test clock: advance by hand
 */
export interface MemoryIdempotencyStoreOptions {
  /** Clock in milliseconds, for tests. Default `Date.now`. */
  now?: () => number
}

interface MemoryRecord {
  fingerprint: string
  /** The lock's lease id; `undefined` once completed. */
  lease: string | undefined
  response: IdempotentResponse | undefined
  expiresAt: number
}

/**
 * In-memory {@link IdempotencyStore}, the default of `idempotency`: each process keeps its own
 * records, so a retry that reaches another instance runs again (use a shared store there). Stored
 * bodies are copied in. Expired records are dropped when their key is next used and by a sweep of
 * every record at most once a minute, run by `begin` (no timer), so memory follows the keys used
 * within `ttlMs`.
 *
 * @example
 * ```ts
 * const store = new MemoryIdempotencyStore()
 * app.post('/orders', idempotency({ store }), createOrder)
 * ```
 */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly #now: () => number
  readonly #records = new Map<string, MemoryRecord>()
  #nextSweep = 0

  constructor(options: MemoryIdempotencyStoreOptions = {}) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError(`${NAME}: options must be an object`)
    }
    const now = options.now ?? Date.now
    if (typeof now !== 'function') throw new TypeError(`${NAME}: "now" must be a function`)
    this.#now = now
  }

  async begin(
    key: string,
    lease: string,
    fingerprint: string,
    lockMs: number,
  ): Promise<IdempotencyBegin> {
    checkBegin(`${NAME}.begin`, key, lease, fingerprint, lockMs)
    const now = this.#now()
    if (now >= this.#nextSweep) this.#sweep(now)
    const record = this.#records.get(key)
    if (record === undefined || record.expiresAt <= now) {
      this.#records.set(key, { fingerprint, lease, response: undefined, expiresAt: now + lockMs })
      return { state: 'acquired' }
    }
    if (record.fingerprint !== fingerprint) return { state: 'mismatch' }
    if (record.response === undefined) {
      return { state: 'in-flight', retryAfterMs: record.expiresAt - now }
    }
    return { state: 'completed', response: record.response }
  }

  async complete(
    key: string,
    lease: string,
    response: IdempotentResponse,
    ttlMs: number,
  ): Promise<boolean> {
    checkComplete(`${NAME}.complete`, key, lease, response, ttlMs)
    const record = this.#records.get(key)
    if (record === undefined || record.lease !== lease) return false
    record.lease = undefined
    record.response = {
      status: response.status,
      headers: response.headers.map(([name, value]) => [name, value]),
      body: response.body.slice(),
    }
    record.expiresAt = this.#now() + ttlMs
    return true
  }

  async release(key: string, lease: string): Promise<void> {
    checkRelease(`${NAME}.release`, key, lease)
    const record = this.#records.get(key)
    if (record !== undefined && record.lease === lease) this.#records.delete(key)
  }

  /** Records held (expired ones may still count until swept). */
  get size(): number {
    return this.#records.size
  }

  /** Forgets every record. The store stays usable. */
  destroy(): void {
    this.#records.clear()
  }

  #sweep(now: number): void {
    this.#nextSweep = now + 60_000
    for (const [key, record] of this.#records) {
      if (record.expiresAt <= now) this.#records.delete(key)
    }
  }
}
