/**
 * Runs tasks one after another per key, within this process: a task for key K starts when the
 * previous task for K has settled (resolved or rejected). Tasks for other keys run in parallel.
 * Entries are dropped once a key's queue is empty, so memory follows the keys in flight.
 */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<unknown>>()

  /** Number of keys with a task queued or running. */
  get size(): number {
    return this.#tails.size
  }

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key) ?? Promise.resolve()
    const result = before.then(task)
    // The tail never rejects, so one failed task does not fail the next.
    const tail = result.then(
      () => undefined,
      () => undefined,
    )
    this.#tails.set(key, tail)
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key)
    })
    return result
  }
}
