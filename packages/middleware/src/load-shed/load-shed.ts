import type { MiddlewareHandler } from 'hono'
import { begin, decide } from '../internal/outcomes/decisions'
import { described } from '../internal/outcomes/described'
import { passOn } from '../internal/pass-on'
import { unrefInterval } from '../internal/stores/timers'
import { type LoadShedRejects, rejectOrRecord } from './answers'
import { type LoadShedOptions, loadShedConfig } from './config'
import { loadShedDescription } from './description'
import { loadMemoryProbe, monitorLag, type PressureSample, readProbes } from './pressure'

export type { LoadShedOptions } from './config'
export type { PressureSample } from './pressure'

/** Which limit is passed: what a shed request's decision names (its `cause`). */
export type LoadShedReason = 'event_loop_delay' | 'heap_used' | 'rss' | 'in_flight'

/**
 * What `pressure()` reports: the last sample, the requests in flight and
 * the limit passed, if any. For a health or metrics endpoint.
 */
export interface LoadShedPressure extends PressureSample {
  inFlight: number
  overloaded: LoadShedReason | undefined
}

/** `loadShed()`'s middleware, with a read of the load it sees. */
export type LoadShedMiddleware = MiddlewareHandler &
  LoadShedRejects & {
    /** The last sample, requests in flight, and which limit is passed (if any). */
    pressure(): LoadShedPressure
  }

/** How often the event-loop lag timer ticks, in milliseconds (Node's histogram default). */
const TICK_MS = 10

/**
 * Refuses requests with 503 `overloaded` and `Retry-After` while the process is under pressure:
 * the longest event-loop stall of the last sample interval (a 10 ms timer and how late it runs:
 * Node, Deno, Bun), the heap in use or the resident set size (where the runtime has
 * `process.memoryUsage`: Node, Deno, Bun) past their limits, read every `sampleIntervalMs`; or
 * `maxInFlight` requests of this middleware still running (every runtime: on Workers, the one
 * limit that applies). The load is read on a timer, never
 * per request: a request that is not shed costs a comparison and a counter. `exempt` keeps health
 * checks answering.
 *
 * @param options.maxEventLoopDelayMs shed while a stall of the last interval passed this (ms)
 * @param options.maxHeapUsedBytes shed while the V8 heap in use passes this
 * @param options.maxRssBytes shed while the resident set size passes this
 * @param options.maxInFlight shed a request that finds this many in flight
 * @param options.sampleIntervalMs default `1000`
 * @param options.retryAfter default `10` (seconds)
 * @param options.exempt paths or a function: never shed
 * @param options.dryRun default `false`
 * @example
 * ```ts
 * const shed = loadShed({ maxEventLoopDelayMs: 200, maxHeapUsedBytes: 1.5e9, exempt: ['/health'] })
 * app.use('*', shed)
 * app.get('/health', (c) => c.json(shed.pressure()))
 * ```
 */
export function loadShed(options: LoadShedOptions): LoadShedMiddleware {
  const config = loadShedConfig(options)
  const { maxEventLoopDelayMs, maxHeapUsedBytes, maxRssBytes, maxInFlight } = config
  const { exempt, dryRun, message } = config
  const headers = { 'Retry-After': config.retryAfter }
  const wantHeap = maxHeapUsedBytes !== undefined
  const wantRss = maxRssBytes !== undefined
  const needsProbes = maxEventLoopDelayMs !== undefined || wantHeap || wantRss
  let sample: PressureSample = {
    eventLoopDelayMs: undefined,
    heapUsedBytes: undefined,
    rssBytes: undefined,
  }
  let overloaded: LoadShedReason | undefined
  let started = false
  let inFlight = 0

  const limitPassed = (s: PressureSample): LoadShedReason | undefined => {
    if (maxEventLoopDelayMs !== undefined && (s.eventLoopDelayMs ?? 0) > maxEventLoopDelayMs) {
      return 'event_loop_delay'
    }
    if (wantHeap && (s.heapUsedBytes ?? 0) > maxHeapUsedBytes) return 'heap_used'
    if (wantRss && (s.rssBytes ?? 0) > maxRssBytes) return 'rss'
    return undefined
  }
  // Probes start on the first request, not at construction: building the middleware in a module
  // that never serves (a test, a script printing the document) starts no timer.
  const start = async () => {
    started = true
    const lag = maxEventLoopDelayMs === undefined ? undefined : monitorLag(TICK_MS)
    const memory = wantHeap || wantRss ? await loadMemoryProbe() : undefined
    if (lag === undefined && memory === undefined) return
    unrefInterval(() => {
      sample = readProbes(lag, memory, wantHeap, wantRss)
      overloaded = limitPassed(sample)
    }, config.sampleIntervalMs)
  }

  // `then` with both callbacks rather than `finally`: the same count, without the extra promise
  // and turn `finally` makes for every request.
  const done = () => {
    inFlight--
  }
  const failed = (error: unknown) => {
    inFlight--
    throw error
  }
  // Not an async function: a request that passes costs one promise callback (the count coming
  // down when the handler settles), not an async frame of its own. `then(done, failed)` rather
  // than `finally(done)`: finally chains a second promise to pass the outcome on (about 0.3 µs).
  const handler: MiddlewareHandler = function loadShed(c, next) {
    if (exempt?.(c)) return passOn(next)
    if (!started && needsProbes) void start()
    const d = begin(c, 'loadShed')
    const reason =
      overloaded ??
      (maxInFlight !== undefined && inFlight >= maxInFlight ? ('in_flight' as const) : undefined)
    if (reason === undefined) {
      decide(d, 'allow')
    } else {
      if (d) d.decision.cause = reason
      rejectOrRecord(d, dryRun, 503, message, 'overloaded', headers)
    }
    inFlight++
    return next().then(done, failed)
  }
  const middleware = described(loadShedDescription(), handler) as LoadShedMiddleware
  middleware.pressure = () => ({
    ...sample,
    inFlight,
    overloaded:
      overloaded ??
      (maxInFlight !== undefined && inFlight >= maxInFlight ? 'in_flight' : undefined),
  })
  return middleware
}
