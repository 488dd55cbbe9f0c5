import type { SessionBinding } from '../internal/cookies/cookie-signing'
import { randomToken } from '../internal/crypto'
import { define, isEmptyData, META_KEY, type Meta, type SessionChanges } from './session-data'
import type { SessionData } from './store'

/**
 * The session a handler sees as `c.get('session')`. Reads and writes are synchronous; the
 * middleware saves the result after the handler, and only when something changed.
 *
 * @example
 * app.post('/cart', (c) => {
 *   const session: Session = c.get('session')
 *   const cart = session.get<string[]>('cart') ?? []
 *   session.set('cart', [...cart, 'sku-1']) // saved after the handler returns
 *   return c.json({ items: cart.length + 1 })
 * })
 */
export interface Session {
  /** The stored session's id, or `null` for a session that has not been saved yet. */
  readonly id: string | null
  /** True when the request brought no valid session. */
  readonly isNew: boolean
  /** A value, or `undefined`. */
  get<T = unknown>(key: string): T | undefined
  /**
   * Sets a JSON-serialisable value. Throws a `TypeError` for a value JSON cannot store, or would
   * silently store as something else: a BigInt, a cycle, a function, a symbol, a Map or a Set.
   * The key `__palisade` is reserved.
   */
  set(key: string, value: unknown): void
  has(key: string): boolean
  /** Removes a value; returns whether it was there. */
  delete(key: string): boolean
  /** Removes every value. An emptied session is deleted from the store and its cookie cleared. */
  clear(): void
  keys(): string[]
  /** A copy of the data (without pending flash values). */
  toJSON(): SessionData
  /**
   * Moves the data to a new session ID when the response is saved, and destroys the old ID. Call
   * it after login, so an ID planted before login (session fixation) is worthless. The data is
   * kept; with `absoluteTimeout`, the session's age starts again.
   */
  regenerate(): void
  /**
   * Ends the session: data cleared, store entry deleted, cookie cleared. Values set afterwards
   * start a new session under a new ID.
   */
  destroy(): void
  /**
   * Stores a one-time value for a later request (a "saved!" message after a redirect). It is
   * removed when {@link Session.getFlash} reads it.
   */
  flash(key: string, value: unknown): void
  /** Reads a flash value and removes it; `undefined` when there is none. */
  getFlash<T = unknown>(key: string): T | undefined
}

/** The session object and the state the middleware needs to save it. */
export class SessionState implements Session, SessionBinding {
  #data: SessionData
  #meta: Meta
  /**
   * JSON of each key's value as loaded (`undefined`: absent), taken just before the request could
   * first change it: before `set`, `delete`, `clear` or `destroy`, and before `get` hands out an
   * object or array that the handler may change in place. A key not in here still holds the value
   * it was loaded with, so finding what changed never serialises the whole session.
   */
  #loaded: Map<string, string | undefined> | undefined
  /** JSON of the meta key as loaded (`undefined`: absent). */
  readonly #loadedMeta: string | undefined
  readonly loadedId: string | null
  #nextId: string | null = null
  readonly #trackCreated: boolean
  regenerated = false
  destroyed = false
  /** `clear()` or `destroy()` ran: the saved data replaces the stored data instead of merging. */
  cleared = false

  constructor(id: string | null, stored: SessionData, trackCreated = false) {
    this.loadedId = id
    const meta = stored[META_KEY]
    if (meta === undefined) {
      this.#data = stored
      this.#meta = {}
      this.#loadedMeta = undefined
    } else {
      this.#loadedMeta = JSON.stringify(meta)
      const data: SessionData = {}
      for (const key of Object.keys(stored)) if (key !== META_KEY) define(data, key, stored[key])
      this.#data = data
      this.#meta =
        meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? { ...meta } : {}
    }
    this.#trackCreated = trackCreated
  }

  get id(): string | null {
    return this.loadedId
  }

  get isNew(): boolean {
    return this.loadedId === null
  }

  /** When the session was created or regenerated (ms), if known. */
  get created(): number | undefined {
    return typeof this.#meta.created === 'number' ? this.#meta.created : undefined
  }

  /** Records the creation time (new sessions, regenerate, and old sessions that lack it). */
  markCreated(now: number): void {
    if (this.#trackCreated) this.#meta.created = now
  }

  get<T = unknown>(key: string): T | undefined {
    if (!Object.hasOwn(this.#data, key)) return undefined
    const value = this.#data[key]
    // An object or array may be changed in place (`get('cart').push(x)`): remember it as loaded.
    if (value !== null && typeof value === 'object') this.#remember(key)
    return value as T
  }

  set(key: string, value: unknown): void {
    assertKey('set', key)
    assertStorable(`session.set(${JSON.stringify(key)})`, value)
    this.#remember(key)
    define(this.#data, key, value)
  }

  has(key: string): boolean {
    return Object.hasOwn(this.#data, key)
  }

  delete(key: string): boolean {
    if (!Object.hasOwn(this.#data, key)) return false
    this.#remember(key)
    delete this.#data[key]
    return true
  }

  clear(): void {
    this.#rememberAll()
    this.#data = {}
    this.#meta.flash = undefined
    this.cleared = true
  }

  keys(): string[] {
    return Object.keys(this.#data)
  }

  toJSON(): SessionData {
    return JSON.parse(JSON.stringify(this.#data)) as SessionData
  }

  regenerate(): void {
    this.regenerated = true
    this.#nextId = null
    this.markCreated(Date.now())
  }

  destroy(): void {
    this.destroyed = true
    this.regenerated = false
    this.cleared = true
    this.#nextId = null
    this.#rememberAll()
    this.#data = {}
    this.#meta = {}
    this.markCreated(Date.now())
  }

  flash(key: string, value: unknown): void {
    assertStorable(`session.flash(${JSON.stringify(key)})`, value)
    const flash: Record<string, unknown> = { ...this.#meta.flash }
    define(flash, key, value)
    this.#meta.flash = flash
  }

  getFlash<T = unknown>(key: string): T | undefined {
    const flash = this.#meta.flash
    if (flash === undefined || !Object.hasOwn(flash, key)) return undefined
    const value = flash[key] as T
    const rest: Record<string, unknown> = { ...flash }
    delete rest[key]
    this.#meta.flash = Object.keys(rest).length === 0 ? undefined : rest
    return value
  }

  /** True when the ID that will be saved differs from the one loaded (new, regenerated, destroyed). */
  get replacesId(): boolean {
    return this.loadedId === null || this.regenerated || this.destroyed
  }

  /**
   * The ID the session will be stored under after this response, or `null` when it will not be
   * stored (empty). A new ID is drawn once and then kept, so csrf can bind a token to it before
   * the session is saved.
   */
  boundId(): string | null {
    if (isEmptyData(this.record())) return null
    if (!this.replacesId) return this.loadedId
    this.#nextId ??= randomToken(32)
    return this.#nextId
  }

  /** The data as it will be saved: the user's keys plus the middleware's own fields. */
  record(): SessionData {
    const { created, flash } = this.#meta
    const hasMeta = created !== undefined || flash !== undefined
    let copy = hasMeta
    for (const key in this.#data) {
      // JSON drops undefined values; so does the store, so they are no change either.
      if (this.#data[key] === undefined) {
        copy = true
        break
      }
    }
    if (!copy) return this.#data
    const out: SessionData = {}
    for (const key of Object.keys(this.#data)) {
      if (this.#data[key] !== undefined) define(out, key, this.#data[key])
    }
    if (hasMeta) {
      const meta: Meta = {}
      if (created !== undefined) meta.created = created
      if (flash !== undefined) meta.flash = flash
      define(out, META_KEY, meta)
    }
    return out
  }

  /**
   * The data as saved, what changed key by key against what was loaded (nested changes such as
   * `get('cart').push(x)` count too), and whether the session holds nothing worth a cookie.
   * Throws when a value changed in place can no longer be stored as JSON.
   */
  serialize(): { data: SessionData; changes: SessionChanges; changed: boolean; empty: boolean } {
    const data = this.record()
    let changes: SessionChanges | undefined
    // Only keys the request could have changed are compared: the others hold what was loaded.
    if (this.#loaded !== undefined) {
      for (const [key, before] of this.#loaded) {
        const now = jsonOf(data, key)
        if (now === before) continue
        changes ??= { set: {}, delete: [] }
        if (now === undefined) changes.delete.push(key)
        else define(changes.set, key, data[key])
      }
    }
    const meta = jsonOf(data, META_KEY)
    if (meta !== this.#loadedMeta) {
      changes ??= { set: {}, delete: [] }
      if (meta === undefined) changes.delete.push(META_KEY)
      else define(changes.set, META_KEY, data[META_KEY])
    }
    const changed = changes !== undefined
    return { data, changes: changes ?? NO_CHANGES, changed, empty: isEmptyData(data) }
  }

  /** Records a key's JSON as loaded, unless already recorded: call before it can change. */
  #remember(key: string): void {
    this.#loaded ??= new Map()
    if (!this.#loaded.has(key)) this.#loaded.set(key, jsonOf(this.#data, key))
  }

  #rememberAll(): void {
    for (const key of Object.keys(this.#data)) this.#remember(key)
  }

  /** {@link SessionBinding} for csrf: the ID the request brought. */
  get current(): string {
    return this.loadedId ?? ''
  }

  /** {@link SessionBinding} for csrf: the ID after this response's save. */
  next(): string {
    return this.boundId() ?? ''
  }
}

/** What an unchanged session's save merges: nothing (frozen, as it is shared). */
const NO_CHANGES: SessionChanges = Object.freeze({
  set: Object.freeze({}) as SessionData,
  delete: Object.freeze([]) as unknown as string[],
})

/** The JSON of `data[key]`, or `undefined` when absent or undefined (JSON drops it too). */
function jsonOf(data: SessionData, key: string): string | undefined {
  return Object.hasOwn(data, key) ? JSON.stringify(data[key]) : undefined
}

function assertKey(method: string, key: string): void {
  if (key === META_KEY) {
    throw new TypeError(`session.${method}: the key "${META_KEY}" is reserved for the middleware`)
  }
}

/**
 * Throws when `value` cannot be saved as JSON, or JSON would silently save something else (`{}` for
 * a Map or Set, nothing for a function or symbol). Checked in `set()`, where the mistake is made,
 * rather than after the handler, where the data could only be dropped.
 */
function assertStorable(call: string, value: unknown): void {
  if (value === undefined) return
  let problem: string | undefined
  try {
    const json = JSON.stringify(value, (_k, v: unknown) => {
      if (typeof v === 'function' || typeof v === 'symbol') throw new TypeError(`a ${typeof v}`)
      if (v instanceof Map || v instanceof Set) throw new TypeError(`a ${v.constructor.name}`)
      return v
    })
    if (json === undefined) problem = 'no JSON value'
  } catch (err) {
    problem = err instanceof Error ? err.message : String(err)
  }
  if (problem !== undefined) {
    throw new TypeError(`${call}: the value is not JSON-serialisable (${problem})`)
  }
}
