/**
 * What the requests `lazy-request.ts` put in `c.req.raw` answer `true` for, from their get trap
 * and without building anything: the node-server adapter reads no other symbol of them. A symbol
 * rather than a WeakSet of them: adding to a WeakSet cost about 0.3 µs per request (and the
 * collector's ephemeron work after), the trap's answer nothing.
 */
export const LAZY_REQUEST: unique symbol = Symbol('palisade.lazyRequest')

/** Whether `raw` is a request `lazy-request.ts` serves lazily. */
export function isLazyRequest(raw: object): boolean {
  return (raw as Record<symbol, unknown>)[LAZY_REQUEST] === true
}
