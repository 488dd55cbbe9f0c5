import { unrefInterval } from '../internal/stores/timers'

// What the process reports about its own load. Event-loop delay is measured here, by a timer
// that ticks every few milliseconds and records how late each tick runs (web-standard, so it
// works on Node, Deno and Bun alike). Node's `monitorEventLoopDelay` was tried first and dropped:
// read and reset once per interval, it missed a 200 ms block in three of four runs on Node 20.
// Memory comes from `process.memoryUsage` where the runtime has it (Node, and Deno and Bun through
// their node: layer), loaded by a variable specifier on first use, never imported statically,
// so the package stays web-standard and bundles for Workers.

/** One reading of the process's load, taken every `sampleIntervalMs`. */
export interface PressureSample {
  /**
   * The longest event-loop stall seen during the last interval, in milliseconds (how late the
   * latest tick of a 10 ms timer ran: a mean would hide one 200 ms block among a hundred ticks).
   * `undefined` until the first sample, and when `maxEventLoopDelayMs` is not set.
   */
  eventLoopDelayMs: number | undefined
  /** V8 heap in use, in bytes (`process.memoryUsage().heapUsed`), when measured. */
  heapUsedBytes: number | undefined
  /** Resident set size, in bytes (`process.memoryUsage.rss()`), when measured. */
  rssBytes: number | undefined
}

/** The longest stall since the last read: a timer every `tickMs`, and how late it ran. */
export interface LagMonitor {
  /** The longest lateness since the last call, in milliseconds; resets it. */
  takeMax(): number
}

/** Starts a {@link LagMonitor} on an unref'd timer (it never holds the process open). */
export function monitorLag(tickMs: number): LagMonitor {
  let last = performance.now()
  let max = 0
  unrefInterval(() => {
    const now = performance.now()
    const late = now - last - tickMs
    if (late > max) max = late
    last = now
  }, tickMs)
  return {
    takeMax() {
      const m = max
      max = 0
      return m
    },
  }
}

interface NodeProcess {
  memoryUsage: (() => { heapUsed: number }) & { rss?: () => number }
}

/** `process.memoryUsage` where the runtime has it; never rejects. */
export async function loadMemoryProbe(): Promise<NodeProcess['memoryUsage'] | undefined> {
  const nodeProcess = 'node:process'
  try {
    const proc = (await import(/* @vite-ignore */ nodeProcess)) as { default?: NodeProcess }
    const usage = proc.default?.memoryUsage
    return typeof usage === 'function' && typeof usage().heapUsed === 'number' ? usage : undefined
  } catch {
    return undefined
  }
}

/** What the probes say about the last interval; a probe not given reads `undefined`. */
export function readProbes(
  lag: LagMonitor | undefined,
  memory: NodeProcess['memoryUsage'] | undefined,
  wantHeap: boolean,
  wantRss: boolean,
): PressureSample {
  const eventLoopDelayMs = lag === undefined ? undefined : Math.round(lag.takeMax() * 10) / 10
  let heapUsedBytes: number | undefined
  let rssBytes: number | undefined
  if (memory) {
    if (wantHeap) heapUsedBytes = memory().heapUsed
    if (wantRss) rssBytes = typeof memory.rss === 'function' ? memory.rss() : undefined
  }
  return { eventLoopDelayMs, heapUsedBytes, rssBytes }
}
