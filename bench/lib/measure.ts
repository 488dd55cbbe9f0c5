/**
 * Thin layer over mitata's `measure()`: every comparison runs its sides in this one process,
 * interleaved in many short slices so that drift in CPU frequency, GC pressure or load from other
 * processes hits every side alike. Ratios are printed, never asserted.
 */
import { measure } from 'mitata'

export interface Timing {
  name: string
  /** Nanoseconds per call: the lower quartile of the slice medians (see measureAll). */
  avg: number
  p50: number
  p99: number
  /** The median of every slice, in round order (round i of one case ran beside round i of the
   * other cases of the same measureAll call). */
  slices: number[]
}

export interface Settings {
  quick: boolean
  /** mitata's minimum CPU time per slice, in milliseconds. */
  minCpuMs: number
  /** Interleaved slices per case. */
  rounds: number
  /** Only comparisons whose title matches run (`--filter=<regex>`). */
  filter: RegExp | undefined
}

export const settings: Settings = { quick: false, minCpuMs: 25, rounds: 16, filter: undefined }

export function configure(quick: boolean): void {
  settings.quick = quick
  settings.minCpuMs = quick ? 15 : 25
  settings.rounds = quick ? 6 : 16
}

type Fn = () => unknown

async function once(fn: Fn): Promise<{ p50: number; p99: number }> {
  // Small batches give many samples per slice; their median shrugs off short bursts of load
  // from other processes, which only ever make a sample slower.
  const stats = await measure(fn, {
    min_cpu_time: settings.minCpuMs * 1e6,
    batch_samples: 64,
    warmup_samples: 1,
  })
  return { p50: stats.p50, p99: stats.p99 }
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number
}

/**
 * Measures every case in `settings.rounds` short slices, rotating through the cases (A B C, then
 * B C A, …) so that a burst of outside load lands on every side alike. A case's time is the lower
 * quartile of its slice medians: outside load only ever adds time, so the low end of the
 * distribution is the best estimate of the code's own cost.
 */
export async function measureAll(cases: Array<[name: string, fn: Fn]>): Promise<Timing[]> {
  const slices = new Map<string, number[]>(cases.map(([name]) => [name, []]))
  const tails = new Map<string, number[]>(cases.map(([name]) => [name, []]))
  for (const [, fn] of cases) await fn() // one warm call each before any slice is timed
  for (let round = 0; round < settings.rounds; round++) {
    for (let k = 0; k < cases.length; k++) {
      const [name, fn] = cases[(k + round) % cases.length] as [string, Fn]
      const t = await once(fn)
      slices.get(name)?.push(t.p50)
      tails.get(name)?.push(t.p99)
    }
  }
  return cases.map(([name]) => {
    const inOrder = slices.get(name) ?? []
    const s = [...inOrder].sort((a, b) => a - b)
    const p = (tails.get(name) ?? []).sort((a, b) => a - b)
    const avg = quantile(s, 0.25)
    return { name, avg, p50: quantile(s, 0.5), p99: quantile(p, 0.5), slices: inOrder }
  })
}

/**
 * Ratio a/b of two cases from the same measureAll call: the median of the per-round ratios. Each
 * round measured both cases within a few tens of milliseconds of each other, so a slow patch of
 * the machine cancels out of the ratio.
 */
export function pairedRatio(a: Timing, b: Timing): number {
  const n = Math.min(a.slices.length, b.slices.length)
  if (n === 0) return a.avg / b.avg
  const ratios: number[] = []
  for (let i = 0; i < n; i++) ratios.push((a.slices[i] as number) / (b.slices[i] as number))
  return median(ratios)
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const n = s.length
  return n % 2 ? (s[n >> 1] as number) : ((s[n / 2 - 1] as number) + (s[n / 2] as number)) / 2
}

export interface CpuBatches {
  /** Case i's CPU time per call (ns) in each round, in round order. */
  perRound: (i: number) => number[]
  /** Case i's CPU time per call (ns): the median over the rounds. */
  cpu: (i: number) => number
  /** The median of the per-round ratios of case i to case j. */
  ratio: (i: number, j: number) => number
  /** Per-round differences of case i minus case j (ns), sorted. */
  diffs: (i: number, j: number) => number[]
}

/**
 * CPU time per call, in rotated batches (A B, then B A, …): unlike wall time it does not grow
 * while the process waits for a core on a loaded machine. Each round times a whole batch of each
 * case with `process.cpuUsage()`; a figure is the median over the rounds. Used where a ratio or
 * a difference must resolve about a microsecond on a request of tens of them.
 */
export async function cpuBatches(
  cases: Array<() => unknown>,
  options: { batch?: number; rounds?: number } = {},
): Promise<CpuBatches> {
  const batch = options.batch ?? (settings.quick ? 500 : 2000)
  const rounds: number[][] = []
  for (let round = 0; round < (options.rounds ?? settings.rounds); round++) {
    const row: number[] = cases.map(() => 0)
    for (let k = 0; k < cases.length; k++) {
      const i = (k + round) % cases.length
      const fn = cases[i] as () => unknown
      const cpu = process.cpuUsage()
      for (let n = 0; n < batch; n++) await fn()
      const used = process.cpuUsage(cpu)
      row[i] = ((used.user + used.system) * 1000) / batch
    }
    rounds.push(row)
  }
  return {
    perRound: (i) => rounds.map((r) => r[i] as number),
    cpu: (i) => median(rounds.map((r) => r[i] as number)),
    ratio: (i, j) => median(rounds.map((r) => (r[i] as number) / (r[j] as number))),
    diffs: (i, j) => rounds.map((r) => (r[i] as number) - (r[j] as number)).sort((a, b) => a - b),
  }
}

/**
 * {@link cpuBatches} as {@link Timing}s, for code written against {@link measureAll}: a case's
 * time is its median round, and its slices are its rounds (so {@link pairedRatio} is the median
 * of the per-round ratios).
 */
export async function cpuTimings(cases: Array<[name: string, fn: Fn]>): Promise<Timing[]> {
  for (const [, fn] of cases) await fn() // one warm call each before any round is timed
  const m = await cpuBatches(cases.map(([, fn]) => fn))
  return cases.map(([name], i) => {
    const slices = m.perRound(i)
    return { name, avg: m.cpu(i), p50: m.cpu(i), p99: Math.max(...slices), slices }
  })
}

/** Formats nanoseconds with a unit that keeps three significant digits. */
export function fmtNs(ns: number): string {
  if (ns < 1e3) return `${ns.toFixed(0)} ns`
  if (ns < 1e6) return `${(ns / 1e3).toFixed(2)} µs`
  if (ns < 1e9) return `${(ns / 1e6).toFixed(2)} ms`
  return `${(ns / 1e9).toFixed(2)} s`
}

export function fmtRatio(r: number): string {
  return `${r.toFixed(2)}x`
}
