/**
 * Test support (not exported by the package): tells a middleware that hands `next()`'s promise
 * back with one `then` chained on it (`passOn`: no async frame and no promise of its own, the
 * cheap way) from one that awaits it in an async function or wraps it.
 */
export interface SpiedNext<T> {
  /** The promise to hand to the middleware as `next()`'s. */
  promise: Promise<T>
  /** True when `out` is what the first `then` chained on `promise` returned. */
  handedOn(out: unknown): boolean
  /** Forgets the `then` seen so far (for the next call with the same promise). */
  reset(): void
}

export function spyOnNext<T>(promise: Promise<T>): SpiedNext<T> {
  let chained: Promise<unknown> | undefined
  const then = promise.then.bind(promise)
  Object.defineProperty(promise, 'then', {
    configurable: true,
    value: (...args: Parameters<Promise<T>['then']>) => {
      const out = then(...args)
      chained ??= out
      return out
    },
  })
  return {
    promise,
    handedOn: (out) => chained !== undefined && out === chained,
    reset: () => {
      chained = undefined
    },
  }
}
