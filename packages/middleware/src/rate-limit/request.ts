import type { RateLimitRequest } from './store'

const ALGORITHMS = new Set(['fixed-window', 'sliding-window', 'token-bucket'])

/** Most limits one `consume` call may check (each is a row, a hash field set or a map entry). */
export const MAX_LIMITS = 8

/**
 * Validates a {@link RateLimitRequest} as every store's `consume` receives it, so all stores
 * refuse the same malformed calls with the store's name in the message. Returns it with
 * `blockMs` defaulted to 0.
 */
export function checkRateLimitRequest(
  store: string,
  request: RateLimitRequest,
): Required<RateLimitRequest> {
  const fail = (what: string) => new TypeError(`${store}.consume: ${what}`)
  if (request === null || typeof request !== 'object') throw fail('request must be an object')
  const { algorithm, limits, cost, blockMs = 0 } = request
  if (!ALGORITHMS.has(algorithm)) throw fail(`unknown algorithm ${String(algorithm)}`)
  if (!Array.isArray(limits) || limits.length === 0 || limits.length > MAX_LIMITS) {
    throw fail(`limits must be an array of 1 to ${MAX_LIMITS} { max, windowMs }`)
  }
  const windows = new Set<number>()
  for (const limit of limits) {
    const { max, windowMs } = limit ?? {}
    if (!Number.isInteger(windowMs) || windowMs <= 0) {
      throw fail('each windowMs must be a positive integer')
    }
    if (!Number.isInteger(max) || max <= 0 || !Number.isSafeInteger(max * windowMs)) {
      throw fail('each max must be a positive integer with max × windowMs a safe integer')
    }
    if (windows.has(windowMs)) throw fail(`two limits share windowMs ${windowMs}`)
    windows.add(windowMs)
  }
  if (!Number.isInteger(cost) || cost < 0) throw fail('cost must be a non-negative integer')
  if (!Number.isInteger(blockMs) || blockMs < 0) {
    throw fail('blockMs must be a non-negative integer')
  }
  return { algorithm, limits, cost, blockMs }
}
