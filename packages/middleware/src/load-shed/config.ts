import type { Context } from 'hono'
import {
  assertBoolean,
  assertFunction,
  assertKnownKeys,
  assertNonEmptyString,
  assertPositiveInteger,
  assertStringArray,
  optionError,
} from '../internal/options'

/**
 * Options of {@link loadShed}. Set at least one limit; a limit left out is not checked.
 *
 * @example
 * const options: LoadShedOptions = { maxEventLoopDelayMs: 200, maxInFlight: 500, exempt: ['/health'] }
 * app.use('*', loadShed(options))
 */
export interface LoadShedOptions {
  /**
   * Shed while the longest event-loop stall of the last sample interval passes this many
   * milliseconds (a 10 ms timer, and how late it runs). Node, Deno and Bun; not on Workers, whose
   * isolates run no timer between requests.
   */
  maxEventLoopDelayMs?: number
  /** Shed while the V8 heap in use passes this many bytes. Where the runtime has `process.memoryUsage` (Node, Deno, Bun). */
  maxHeapUsedBytes?: number
  /** Shed while the resident set size passes this many bytes. Runtimes with `process.memoryUsage.rss`. */
  maxRssBytes?: number
  /**
   * Shed a request that finds this many requests of this middleware still in flight (counted from
   * the middleware to the handler's return). Every runtime.
   */
  maxInFlight?: number
  /** How often the process's load is read, in milliseconds. Default `1000`. */
  sampleIntervalMs?: number
  /** `Retry-After` of the 503, in seconds. Default `10`. */
  retryAfter?: number
  /** Body of the 503. Default `'Service overloaded'`. */
  message?: string
  /**
   * Requests never shed (and not counted in flight): exact paths (`'/health'`), or a function.
   * Health checks belong here, or an overloaded instance is taken out of rotation for being busy.
   */
  exempt?: readonly string[] | ((c: Context) => boolean)
  /** Report instead of refuse: the request passes with a `dry-run` decision. Default `false`. */
  dryRun?: boolean
}

/** `loadShed`'s options, checked once, defaults filled in. */
export interface LoadShedConfig {
  readonly maxEventLoopDelayMs: number | undefined
  readonly maxHeapUsedBytes: number | undefined
  readonly maxRssBytes: number | undefined
  readonly maxInFlight: number | undefined
  readonly sampleIntervalMs: number
  readonly retryAfter: string
  readonly message: string
  readonly exempt: ((c: Context) => boolean) | undefined
  readonly dryRun: boolean
}

export const NAME = 'loadShed'
const KNOWN = [
  'maxEventLoopDelayMs',
  'maxHeapUsedBytes',
  'maxRssBytes',
  'maxInFlight',
  'sampleIntervalMs',
  'retryAfter',
  'message',
  'exempt',
  'dryRun',
] as const
const LIMITS = ['maxEventLoopDelayMs', 'maxHeapUsedBytes', 'maxRssBytes', 'maxInFlight'] as const

/** Checks `options` and returns the frozen configuration, or throws the first problem found. */
export function loadShedConfig(options: LoadShedOptions): LoadShedConfig {
  if (options === null || typeof options !== 'object') {
    throw optionError(NAME, `options must be an object with at least one of ${LIMITS.join(', ')}`)
  }
  assertKnownKeys(NAME, options, KNOWN)
  const limit = (name: (typeof LIMITS)[number]) => {
    const value = options[name]
    return value === undefined ? undefined : assertPositiveInteger(NAME, name, value)
  }
  const [maxEventLoopDelayMs, maxHeapUsedBytes, maxRssBytes, maxInFlight] = LIMITS.map(limit)
  if (LIMITS.every((name) => options[name] === undefined)) {
    throw optionError(NAME, `set at least one of ${LIMITS.join(', ')}`)
  }
  const sampleIntervalMs = assertPositiveInteger(
    NAME,
    'sampleIntervalMs',
    options.sampleIntervalMs ?? 1_000,
  )
  if (sampleIntervalMs < 10 || sampleIntervalMs > 2_147_483_647) {
    throw optionError(
      NAME,
      `"sampleIntervalMs" must be from 10 to 2147483647, got ${sampleIntervalMs}`,
    )
  }
  return Object.freeze({
    maxEventLoopDelayMs,
    maxHeapUsedBytes,
    maxRssBytes,
    maxInFlight,
    sampleIntervalMs,
    retryAfter: String(assertPositiveInteger(NAME, 'retryAfter', options.retryAfter ?? 10)),
    message: assertNonEmptyString(NAME, 'message', options.message ?? 'Service overloaded'),
    exempt: exemptOption(options.exempt),
    dryRun: assertBoolean(NAME, 'dryRun', options.dryRun ?? false),
  })
}

function exemptOption(exempt: LoadShedOptions['exempt']): ((c: Context) => boolean) | undefined {
  if (exempt === undefined) return undefined
  if (typeof exempt === 'function') {
    return assertFunction<(c: Context) => boolean>(NAME, 'exempt', exempt)
  }
  const paths = new Set(assertStringArray(NAME, 'exempt', exempt))
  return (c) => paths.has(c.req.path)
}
