import { copyStoredJson, isFlatJson } from '../internal/caches/json-copy'
import { unrefInterval } from '../internal/stores/timers'
import type { SessionData, SessionStore, SessionUpdate } from './store'

/**
 * Options of {@link MemorySessionStore}.
 *
 * @example
 * const options: MemorySessionStoreOptions = { sweepIntervalMs: 5 * 60_000 }
 * app.use(
 *   sessions({ secret: process.env.SESSION_SECRET!, store: new MemorySessionStore(options) }),
 * )
 */
export interface MemorySessionStoreOptions {
  /** Clock in milliseconds, for tests. Default `Date.now`. */
  now?: () => number
  /** How often expired sessions are swept. Default `60000`. */
  sweepIntervalMs?: number
}

/**
 * A MemorySessionStore's `get` without a promise, for sessions(): an `await` costs every request
 * a turn of the microtask queue. `undefined` for a subclass that overrides `get`, whose own
 * method must run. Set by the class below, which alone can reach its private state.
 */
export let readNow: (store: MemorySessionStore, id: string) => SessionData | null | undefined

interface Entry {
  /** The data as JSON would give it back (parsed from its JSON text once, when written). */
  data: SessionData
  /** Whether `data` has no object inside (`isFlatJson`): each read copies it by one spread. */
  flat: boolean
  expiresAt: number
}

/**
 * In-memory {@link SessionStore} for development and single-process apps. Data goes through
 * JSON on the way in and every read gets its own copy, so only JSON-serialisable data goes in
 * and what comes out is what a shared store would give back. A session expires `maxAge` seconds after its last `set`: lazily on access, and by an
 * `unref`'d sweep that runs only while the store holds sessions, so memory stays bounded.
 *
 * @example
 * ```ts
 * const store = new MemorySessionStore()
 * app.use(sessions({ secret: process.env.SESSION_SECRET!, store }))
 * // on shutdown, or in afterAll():
 * store.destroy_()
 * ```
 */
export class MemorySessionStore implements SessionStore {
  readonly #entries = new Map<string, Entry>()
  readonly #now: () => number
  readonly #sweepIntervalMs: number
  #stopSweep: (() => void) | undefined

  constructor(options: MemorySessionStoreOptions = {}) {
    this.#now = options.now ?? (() => Date.now())
    const interval = options.sweepIntervalMs ?? 60_000
    if (!(Number.isInteger(interval) && interval > 0)) {
      throw new TypeError('MemorySessionStore: "sweepIntervalMs" must be a positive integer')
    }
    this.#sweepIntervalMs = interval
  }

  /** Number of sessions currently held (expired ones count until swept or read). */
  get size(): number {
    return this.#entries.size
  }

  /** The session's data (a fresh copy), or `null` when unknown or expired. */
  async get(id: string): Promise<SessionData | null> {
    return this.#read(id)
  }

  static {
    readNow = (store, id) =>
      store.get === MemorySessionStore.prototype.get ? store.#read(id) : undefined
  }

  #read(id: string): SessionData | null {
    const entry = this.#entries.get(id)
    if (entry === undefined) return null
    if (entry.expiresAt <= this.#now()) {
      this.#entries.delete(id)
      return null
    }
    return copyStoredJson(entry.data, entry.flat)
  }

  /** Stores `data` under `id` for `maxAge` seconds (from now). */
  async set(id: string, data: SessionData, maxAge: number): Promise<void> {
    this.#write('set', id, data, maxAge)
  }

  #write(method: string, id: string, data: SessionData, maxAge: number): void {
    if (!(Number.isFinite(maxAge) && maxAge > 0)) {
      throw new TypeError(
        `MemorySessionStore.${method}: maxAge must be a positive number of seconds`,
      )
    }
    const json = JSON.stringify(data)
    if (json === undefined || json[0] !== '{') {
      throw new TypeError(`MemorySessionStore.${method}: data must be a plain object`)
    }
    const stored = JSON.parse(json) as SessionData
    this.#entries.set(id, {
      data: stored,
      flat: isFlatJson(stored),
      expiresAt: this.#now() + maxAge * 1000,
    })
    if (this.#stopSweep === undefined) {
      this.#stopSweep = unrefInterval(() => this.#sweep(), this.#sweepIntervalMs)
    }
  }

  /**
   * Applies `apply` to the stored data and writes the result, with no `await` in between, so no
   * other request on this process can interleave: concurrent updates of one session never lose
   * each other's keys. `null` from `apply` leaves the entry untouched; `{}` deletes it.
   */
  async update(id: string, apply: SessionUpdate, maxAge: number): Promise<SessionData | null> {
    const next = apply(this.#read(id))
    if (next === null) return null
    if (Object.keys(next).length === 0) this.#entries.delete(id)
    else this.#write('update', id, next, maxAge)
    return next
  }

  /** Deletes the session; unknown ids are ignored. */
  async destroy(id: string): Promise<void> {
    this.#entries.delete(id)
  }

  /** Stops the sweep timer and forgets every session. The store stays usable. */
  destroy_(): void {
    this.#stopSweep?.()
    this.#stopSweep = undefined
    this.#entries.clear()
  }

  #sweep(): void {
    const now = this.#now()
    for (const [id, entry] of this.#entries) {
      if (entry.expiresAt <= now) this.#entries.delete(id)
    }
    if (this.#entries.size === 0) {
      this.#stopSweep?.()
      this.#stopSweep = undefined
    }
  }
}
