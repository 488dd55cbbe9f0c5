/**
 * Test support for the rateLimit tests (not exported by the package): requests that arrive from a
 * given socket address, as @hono/node-server passes it in `env`.
 */
import { Hono } from 'hono'
import {
  MemoryRateLimitStore,
  type RateLimitOptions,
  type RateLimitStore,
  rateLimit,
} from '../src/rate-limit/index'

/** `env` as @hono/node-server passes it: the socket's address is the connection address. */
export const fromSocket = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } })

/** An app with one rateLimit per options object (outermost first) in front of `GET /` → `ok`. */
export function limitedApp(...limiters: RateLimitOptions[]): Hono {
  const app = new Hono()
  for (const options of limiters) app.use(rateLimit(options))
  app.get('/', (c) => c.text('ok'))
  return app
}

/** One request from `ip` (default `203.0.113.9`). */
export async function hitFrom(
  app: Hono,
  ip = '203.0.113.9',
  path = '/',
  headers: Record<string, string> = {},
): Promise<Response> {
  return app.request(path, { headers }, fromSocket(ip))
}

/**
 * A draft-8 `RateLimit-Policy` with each partition key written `pk=:<pk>:`: the keys are salted
 * per limiter, so their values differ from run to run (their own tests check them).
 */
export const withPkHidden = (policy: string | null): string | null =>
  policy === null ? null : policy.replace(/pk=:[A-Za-z0-9+/]{16}:/g, 'pk=:<pk>:')

/**
 * A shared-store stand-in: the memory store (`inner`) behind a plain object, so rateLimit turns
 * its deny cache on, with its counting calls (`increment`, `consume`) counted.
 */
export function countingStore(): {
  store: RateLimitStore
  calls: { count: number }
  inner: MemoryRateLimitStore
} {
  const inner = new MemoryRateLimitStore()
  const calls = { count: 0 }
  const store: RateLimitStore = {
    increment: (k, w) => {
      calls.count++
      return inner.increment(k, w)
    },
    decrement: (k, hit) => inner.decrement(k, hit),
    consume: (k, r) => {
      calls.count++
      return inner.consume(k, r)
    },
  }
  return { store, calls, inner }
}
