import type { Context, MiddlewareHandler } from 'hono'
import { keyOption } from '../internal/network/client-ip-key'
import {
  assertBoolean,
  assertFunction,
  assertKnownKeys,
  assertNonEmptyString,
  assertOneOf,
  assertPositiveInteger,
  optionError,
} from '../internal/options'
import { begin, clock, decide, storeTime } from '../internal/outcomes/decisions'
import { described } from '../internal/outcomes/described'
import { storeFor } from '../internal/stores/store-binding'
import { storeFailures } from '../internal/stores/store-failure'
import { unrefInterval } from '../internal/stores/timers'
import { type ConcurrencyLimitRejects, reject, rejectOrRecord } from './answers'
import { concurrencyLimitDescription } from './description'
import { MemoryConcurrencyStore } from './memory-store'
import type { ConcurrencyStore } from './store'

/**
 * Options of {@link concurrencyLimit}.
 *
 * @example
 * const options: ConcurrencyLimitOptions = { max: 2, leaseMs: 30_000 }
 * app.post('/chat', concurrencyLimit(options), chat)
 */
export interface ConcurrencyLimitOptions {
  /** Requests in flight at once per key. Required: a positive integer. */
  max: number
  /** Derives the slot key. Default: the client IP, as rateLimit's default key (`clientIpKey`). */
  key?: (c: Context) => string | Promise<string>
  /**
   * Prefix length by which the default key groups IPv6 clients (32–128), or `false` for the full
   * address. Default `56`. Only for the default key.
   */
  ipv6Subnet?: number | false
  /** Where slots are held. Default: a `MemoryConcurrencyStore` per middleware (per process). */
  store?: ConcurrencyStore
  /**
   * How long a slot's lease lasts without renewal, in milliseconds. Requests in flight renew
   * theirs every `leaseMs / 2`, so a long stream keeps its slot; the leases of an instance that
   * crashed expire after at most `leaseMs`. Default `60000`.
   */
  leaseMs?: number
  /** `Retry-After` of the 429, in seconds. Default `1`. */
  retryAfter?: number
  /** Body of the 429 response. Default `'Too many concurrent requests'`. */
  message?: string
  /** Requests for which this returns true take no slot and are never refused. */
  skip?: (c: Context) => boolean | Promise<boolean>
  /** When the store fails: `false` (default) rejects with 503, `true` lets the request through. */
  failOpen?: boolean
  /**
   * Called when the store throws. Default: one `console.warn` per outage (the first failure after
   * a success).
   */
  onStoreError?: (error: unknown, c: Context) => void
  /**
   * Report instead of refuse: a request over the limit passes (without a slot) with a `dry-run`
   * decision (`concurrency_limited`). Default `false`.
   */
  dryRun?: boolean
  /**
   * When the slot comes back while the handler still runs. `'response'` (default): as soon as
   * the client has its answer, also when an enclosing `requestTimeout` answers 408 or the client
   * aborts, so a hung handler never locks its client out. `'handler'`: not before the handler
   * has returned (or thrown), whatever was answered meanwhile, so the work in flight never
   * exceeds `max` even when handlers ignore `timeoutSignal`.
   */
  release?: 'response' | 'handler'
}

const NAME = 'concurrencyLimit'
const KNOWN = [
  'max',
  'key',
  'ipv6Subnet',
  'store',
  'leaseMs',
  'retryAfter',
  'message',
  'skip',
  'failOpen',
  'onStoreError',
  'dryRun',
  'release',
] as const

type Get = (key: string) => unknown

/**
 * Limits the requests in flight at once per key (default: client IP). A request that finds `max`
 * requests of its key in flight gets 429 `concurrency_limited` with `Retry-After`. Its slot is
 * freed exactly once: when the response body has been sent (a streamed body: when the stream
 * ends or is cancelled; for HEAD, when the GET handler's unsent body ends), when the client
 * aborts, when the handler throws, or when an enclosing `requestTimeout` answers 408 (with
 * `release: 'handler'`, not before the handler has returned). On a shared store slots are leases of `leaseMs`, renewed while
 * the request runs, so a crashed instance's slots come back on their own.
 *
 * @param options.max required
 * @param options.key default: the client IP (`clientIpKey`)
 * @param options.store default `new MemoryConcurrencyStore()` (created lazily)
 * @param options.leaseMs default `60000`
 * @param options.retryAfter default `1` (seconds)
 * @param options.message default `'Too many concurrent requests'`
 * @param options.failOpen default `false`
 * @param options.release default `'response'`
 * @example
 * ```ts
 * // Two LLM streams at a time per client; the third waits for one to finish.
 * app.post('/chat', concurrencyLimit({ max: 2 }), (c) => streamSSE(c, chat))
 * // Per user, across instances:
 * app.use('/export/*', concurrencyLimit({ max: 1, store, key: (c) => c.req.header('x-account') ?? '' }))
 * ```
 */
export function concurrencyLimit(
  options: ConcurrencyLimitOptions,
): MiddlewareHandler & ConcurrencyLimitRejects {
  if (options === undefined) throw optionError(NAME, 'options with "max" must be given')
  assertKnownKeys(NAME, options, KNOWN)
  if (options.max === undefined) throw optionError(NAME, '"max" is required')
  const max = assertPositiveInteger(NAME, 'max', options.max)
  if (!Number.isSafeInteger(max)) {
    // No store can count beyond: PostgreSQL's bigint fails, and under failOpen a failing store
    // lets every request through.
    throw optionError(NAME, `"max" must be at most 2^53 − 1, got ${max}`)
  }
  const leaseMs = assertPositiveInteger(NAME, 'leaseMs', options.leaseMs ?? 60_000)
  if (leaseMs < 2 || leaseMs > 2_147_483_647) {
    throw optionError(NAME, `"leaseMs" must be from 2 to 2147483647, got ${leaseMs}`)
  }
  const retryAfter = String(assertPositiveInteger(NAME, 'retryAfter', options.retryAfter ?? 1))
  const message = assertNonEmptyString(
    NAME,
    'message',
    options.message ?? 'Too many concurrent requests',
  )
  const keyOf = keyOption(NAME, 'key', options.key, options.ipv6Subnet)
  const skip =
    options.skip === undefined
      ? undefined
      : assertFunction<(c: Context) => boolean | Promise<boolean>>(NAME, 'skip', options.skip)
  const failOpen = assertBoolean(NAME, 'failOpen', options.failOpen ?? false)
  const dryRun = assertBoolean(NAME, 'dryRun', options.dryRun ?? false)
  const untilHandlerEnds =
    assertOneOf(NAME, 'release', options.release ?? 'response', [
      'response',
      'handler',
    ] as const) === 'handler'
  const onStoreError =
    options.onStoreError === undefined
      ? undefined
      : assertFunction<(error: unknown, c: Context) => void>(
          NAME,
          'onStoreError',
          options.onStoreError,
        )
  let store = options.store
  if (
    store !== undefined &&
    (store === null ||
      typeof store !== 'object' ||
      typeof store.acquire !== 'function' ||
      typeof store.renew !== 'function' ||
      typeof store.release !== 'function')
  ) {
    throw optionError(NAME, '"store" must be a ConcurrencyStore with acquire, renew and release')
  }
  const renewMs = Math.floor(leaseMs / 2)
  const [report, recovered] = storeFailures(NAME, failOpen, onStoreError)

  /** Calls a store method that may throw synchronously or reject; failures are reported. */
  const attempt = async <T>(c: Context, call: () => Promise<T>): Promise<T | undefined> => {
    try {
      const result = await call()
      recovered()
      return result
    } catch (error) {
      report(error, c)
      return undefined
    }
  }

  /**
   * Holds the slot of one admitted request until the first of: `free()` (the chain threw, or the
   * response body ended or was cancelled), and, once `watch()` is called, the client's abort or
   * an enclosing requestTimeout's deadline. Renews the lease every `leaseMs / 2` meanwhile.
   */
  const hold = (c: Context, s: ConcurrencyStore, key: string, lease: string): Slot => {
    const signal = c.req.raw.signal
    // Set by an enclosing requestTimeout (aborted when it answers 408); undefined otherwise.
    const deadline = (c.get as Get)('timeoutSignal') as AbortSignal | undefined
    let renewing = false
    let watching = false
    const slot: Slot = {
      held: true,
      // Ticks since the body was handed on without being read (-1: not waiting for a first read).
      unread: -1,
      free() {
        if (!slot.held) return
        slot.held = false
        stopRenewing()
        signal.removeEventListener('abort', slot.free)
        deadline?.removeEventListener('abort', slot.free)
        slot.stop?.()
        void attempt(c, () => s.release(key, lease))
      },
      watch() {
        if (watching) return
        watching = true
        signal.addEventListener('abort', slot.free)
        deadline?.addEventListener('abort', slot.free)
        if (signal.aborted || deadline?.aborted) slot.free()
      },
    }
    const stopRenewing = unrefInterval(() => {
      // A body nobody started reading within a lease (an outer middleware replaced the
      // response, a server that drops HEAD bodies) will never end: its slot goes back.
      if (slot.unread >= 0 && ++slot.unread >= 2) return slot.free()
      if (renewing || !slot.held) return
      renewing = true
      void attempt(c, () => s.renew(key, lease, leaseMs)).then(() => {
        renewing = false
      })
    }, renewMs)
    if (!untilHandlerEnds) slot.watch()
    return slot
  }

  const sharedStore = store !== undefined && !(store instanceof MemoryConcurrencyStore)
  const description = concurrencyLimitDescription(sharedStore, failOpen)
  return described(description, async function concurrencyLimit(c, next) {
    const d = begin(c, NAME)
    if (skip && (await skip(c))) {
      decide(d, 'skip')
      return next()
    }
    const key = await keyOf(c)
    if (typeof key !== 'string') {
      // A bug in the key function, not a store outage: it fails the request (500).
      throw new TypeError(`concurrencyLimit: key(c) must return a string, got ${typeof key}`)
    }
    store ??= new MemoryConcurrencyStore()
    let s: ConcurrencyStore | undefined
    const lease = crypto.randomUUID()
    let acquired: boolean
    try {
      // A store built with a resolver finds its handle on the request; a failing resolver is a
      // failing store.
      s = storeFor(store, c)
      const t = clock(d)
      const result = await (s as ConcurrencyStore).acquire(key, lease, max, leaseMs)
      if (typeof result?.acquired !== 'boolean') {
        throw new TypeError('store returned an invalid { acquired, inFlight }')
      }
      storeTime(d, 'acquire', t)
      acquired = result.acquired
      recovered()
    } catch (error) {
      report(error, c)
      // The lease may have been taken before the failure (a lost reply): give it back, or let
      // it expire if the store stays down.
      const asked = s
      if (asked) void attempt(c, () => asked.release(key, lease))
      if (failOpen) {
        decide(d, 'skip', 'store_unavailable')
        return next()
      }
      return reject(503, 'Concurrency store unavailable', 'store_unavailable')
    }
    if (!acquired) {
      rejectOrRecord(d, dryRun, 429, message, 'concurrency_limited', { 'Retry-After': retryAfter })
      return next()
    }
    decide(d, 'allow')
    const slot = hold(c, s as ConcurrencyStore, key, lease)
    try {
      await next()
    } catch (error) {
      slot.free()
      throw error
    }
    // With release: 'handler' the handler has now returned: from here on the slot follows the
    // response (a 408 or an abort already sent means nobody will read this body: free now).
    slot.watch()
    releaseWithBody(c, slot)
  })
}

/** One admitted request's slot. */
interface Slot {
  held: boolean
  unread: number
  free(): void
  /** Frees the slot on the client's abort and the requestTimeout deadline from now on. */
  watch(): void
  /** Called once when the slot is freed (stops the reading of a HEAD request's body). */
  stop?: () => void
}

/**
 * Frees the slot now when the handler's work is over with the chain (it threw: the error page is
 * not the handler's work) or the response has no body to send (none, a 1xx upgrade), or else
 * once its body has been read to the end, failed or been cancelled: a streamed body (SSE, an LLM
 * answer) holds its slot until its last chunk is out.
 */
function releaseWithBody(c: Context, slot: Slot): void {
  const res = c.res
  const body = res.body
  if (!slot.held || c.error !== undefined || body === null || body.locked || res.status < 200) {
    slot.free()
    return
  }
  if (c.req.method === 'HEAD') {
    drainHead(body, slot)
    return
  }
  const reader = body.getReader()
  slot.unread = 0
  const wrapped = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        slot.unread = -1
        try {
          const { done, value } = await reader.read()
          if (done) {
            controller.close()
            slot.free()
          } else controller.enqueue(value)
        } catch (error) {
          slot.free()
          controller.error(error)
        }
      },
      cancel(reason) {
        slot.free()
        return reader.cancel(reason)
      },
    },
    // Nothing is read ahead: the first pull is the server's first read.
    { highWaterMark: 0 },
  )
  c.res = new Response(wrapped, res)
}

/**
 * Hono answers HEAD by running the GET handler and dropping its body, neither read nor
 * cancelled, so a streaming handler keeps working (and without this, 5 HEAD requests ran 5
 * streams under `max: 1`). The body is read here, to nobody, and the slot held until it ends, as
 * a GET's would be; a plain body ends at once. If the slot is freed first (client abort,
 * requestTimeout), the reading stops and the body is cancelled, which tells the stream to end.
 */
function drainHead(body: ReadableStream<Uint8Array>, slot: Slot): void {
  const reader = body.getReader()
  slot.stop = () => {
    reader.cancel().catch(() => {})
  }
  void (async () => {
    try {
      while (slot.held && !(await reader.read()).done) {}
    } catch {
      // A failing body ends the work as well.
    } finally {
      slot.free()
    }
  })()
}
