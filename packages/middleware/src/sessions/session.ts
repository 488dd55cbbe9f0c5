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
   */
  set(key: string, value: unknown): void
  has(key: string): boolean
  /** Removes a value; returns whether it was there. */
  delete(key: string): boolean
  /** Removes every value. An emptied session is deleted from the store and its cookie cleared. */
  clear(): void
  keys(): string[]
  /** A copy of the data. */
  toJSON(): SessionData
  /**
   * Moves the data to a new session ID when the response is saved, and destroys the old ID. Call
   * it after login, so an ID planted before login (session fixation) is worthless.
   */
  regenerate(): void
  /**
   * Ends the session: data cleared, store entry deleted, cookie cleared. Values set afterwards
   * start a new session under a new ID.
   */
  destroy(): void
}

/** The session object and the state the middleware needs to save it. */
export class SessionState implements Session {
  #data: SessionData
  readonly #snapshot: string
  readonly loadedId: string | null
  regenerated = false
  destroyed = false

  constructor(id: string | null, data: SessionData) {
    this.loadedId = id
    this.#data = data
    this.#snapshot = JSON.stringify(data)
  }

  get id(): string | null {
    return this.loadedId
  }

  get isNew(): boolean {
    return this.loadedId === null
  }

  get<T = unknown>(key: string): T | undefined {
    return Object.hasOwn(this.#data, key) ? (this.#data[key] as T) : undefined
  }

  set(key: string, value: unknown): void {
    assertStorable(key, value)
    // defineProperty, not assignment: a key named "__proto__" must stay plain data.
    Object.defineProperty(this.#data, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }

  has(key: string): boolean {
    return Object.hasOwn(this.#data, key)
  }

  delete(key: string): boolean {
    if (!Object.hasOwn(this.#data, key)) return false
    delete this.#data[key]
    return true
  }

  clear(): void {
    this.#data = {}
  }

  keys(): string[] {
    return Object.keys(this.#data)
  }

  toJSON(): SessionData {
    return JSON.parse(JSON.stringify(this.#data)) as SessionData
  }

  regenerate(): void {
    this.regenerated = true
  }

  destroy(): void {
    this.destroyed = true
    this.regenerated = false
    this.#data = {}
  }

  /** The data as saved; nested changes (`get('cart').push(x)`) count too. */
  serialize(): { json: string; changed: boolean; empty: boolean; data: SessionData } {
    const json = JSON.stringify(this.#data)
    return { json, changed: json !== this.#snapshot, empty: json === '{}', data: this.#data }
  }
}

/**
 * Throws when `value` cannot be saved as JSON, or JSON would silently save something else (`{}` for
 * a Map or Set, nothing for a function or symbol). Checked in `set()`, where the mistake is made,
 * rather than after the handler, where the data could only be dropped.
 */
function assertStorable(key: string, value: unknown): void {
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
    throw new TypeError(
      `session.set(${JSON.stringify(key)}): the value is not JSON-serialisable (${problem})`,
    )
  }
}
