/**
 * The pending requests of one `requestTimeout()`, each with the moment it times out, behind one
 * timer. Every request of a middleware gets the same delay, so deadlines come in the order
 * requests start: a list ordered by arrival is ordered by deadline, and only its head needs a
 * timer. A request that finishes leaves the list (O(1)); the timer is cleared when the list
 * empties and armed when it gets its first entry, so an idle app holds no timer (and a process
 * exits as it did with one timer per request).
 *
 * Why: a Node `setTimeout` and `clearTimeout` per request (a `Timeout` object, the timer list
 * insert with a read of the loop's clock, the unlink) were about a microsecond of every request
 * over HTTP (bench/FINDINGS.md, "Issue 42"); under load the list here arms one timer per `ms`.
 */
export interface Deadline {
  /** `performance.now()` at which it times out. */
  readonly at: number
  /** Called once, at the deadline, unless the entry left the list before. */
  readonly expire: () => void
  prev: Deadline | undefined
  next: Deadline | undefined
  /** Still in the list. */
  pending: boolean
}

export class Deadlines {
  private head: Deadline | undefined
  private tail: Deadline | undefined
  private timer: ReturnType<typeof setTimeout> | undefined
  private readonly onTimer = () => this.fire()

  constructor(private readonly ms: number) {}

  /** Adds a request that times out `ms` from now; `expire` runs then unless it is removed. */
  add(expire: () => void): Deadline {
    const entry: Deadline = {
      at: performance.now() + this.ms,
      expire,
      prev: this.tail,
      next: undefined,
      pending: true,
    }
    if (this.tail === undefined) {
      this.head = entry
      this.arm(this.ms)
    } else this.tail.next = entry
    this.tail = entry
    return entry
  }

  /** Takes a finished request out of the list (nothing when it already left it). */
  remove(entry: Deadline): void {
    if (!entry.pending) return
    this.unlink(entry)
    // An earlier head's timer stays armed: it fires early and re-arms for the new head.
    if (this.head === undefined) this.disarm()
  }

  private unlink(entry: Deadline): void {
    entry.pending = false
    if (entry.prev === undefined) this.head = entry.next
    else entry.prev.next = entry.next
    if (entry.next === undefined) this.tail = entry.prev
    else entry.next.prev = entry.prev
    entry.prev = undefined
    entry.next = undefined
  }

  private fire(): void {
    this.timer = undefined
    const now = performance.now()
    let entry = this.head
    while (entry !== undefined && entry.at <= now) {
      this.unlink(entry)
      entry.expire()
      entry = this.head
    }
    // A timer fires by the event loop's clock, which can lag performance.now(): never early.
    if (entry !== undefined && this.timer === undefined) this.arm(Math.ceil(entry.at - now))
  }

  private arm(delay: number): void {
    this.timer = setTimeout(this.onTimer, delay)
  }

  private disarm(): void {
    if (this.timer === undefined) return
    clearTimeout(this.timer)
    this.timer = undefined
  }
}
