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
  /** How many times in a row each paired µs row is measured (`--repeat=<n>`; default 1). */
  repeat: number
  /**
   * The Node this process runs when it is not the bench's own (`--node-label=Node 22`, set by
   * run.ts for the rows it measures again under Node 22 and 24); `undefined` otherwise.
   */
  nodeLabel?: string
}

export const settings: Settings = {
  quick: false,
  minCpuMs: 25,
  rounds: 16,
  filter: undefined,
  repeat: 1,
}

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
 * {@link pairedBatches} as {@link Timing}s: a case's time is its median pair, and its slices are
 * its pairs in order (so {@link pairedRatio} is the median of the per-pair ratios). 100 pairs of
 * 300 requests after the warm-up pairs: about as many requests as the 16 rotated rounds of 2,000
 * these comparisons had before.
 */
export async function pairedTimings(cases: Array<[name: string, fn: Fn]>): Promise<Timing[]> {
  const m = await pairedBatches(
    cases.map(([, fn]) => fn),
    { pairs: settings.quick ? 40 : 100 },
  )
  return cases.map(([name], i) => {
    const slices = m.perPair(i)
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

/** The median and interquartile range of a list of figures (ns), with how many there are. */
export interface Spread {
  median: number
  /** Lower and upper quartile (linear interpolation between the closest ranks). */
  q1: number
  q3: number
  n: number
}

/** The quantile `q` (0–1) of a sorted list, interpolated between the two closest ranks. */
function interpolated(sorted: number[], q: number): number {
  const at = q * (sorted.length - 1)
  const lo = Math.floor(at)
  const hi = Math.min(sorted.length - 1, lo + 1)
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (at - lo)
}

export function spread(xs: number[]): Spread {
  const s = [...xs].sort((a, b) => a - b)
  return { median: median(s), q1: interpolated(s, 0.25), q3: interpolated(s, 0.75), n: s.length }
}

export interface PairedBatches {
  /** Pairs timed (after the warm-up pairs, which are dropped) and requests per batch. */
  pairs: number
  batch: number
  /** Case i's CPU time per call (ns) in each kept pair, in pair order. */
  perPair: (i: number) => number[]
  /** Case i's CPU time per call (ns): the median over the kept pairs. */
  cpu: (i: number) => number
  /** The per-pair differences case i − case j (ns): their median and interquartile range. */
  diff: (i: number, j: number) => Spread
  /** The median of the per-pair ratios of case i to case j. */
  ratio: (i: number, j: number) => number
  /** The per-pair ratios of case i to case j: their median and interquartile range. */
  ratioSpread: (i: number, j: number) => Spread
}

/**
 * A difference of about a microsecond between requests of 10–40 µs, measured so that it holds
 * from run to run on a loaded 2-core host: many short paired batches. Each "pair" times one batch
 * of every case back to back, in CPU time (`process.cpuUsage()`: waiting for a core is not
 * counted), with the order reversed every other pair (A B C, then C B A), so that a drift in the
 * machine's speed lands on every case alike. The first `warmup` pairs are timed and dropped
 * (optimisation, inline caches and the heap settle in them). A difference is the median of the
 * per-pair differences; its interquartile range is the spread printed beside it. Short batches
 * (a few milliseconds) mean a burst of outside load spoils few pairs, and a median over hundreds
 * of pairs shrugs them off.
 *
 * Each batch ends with a young-generation collection inside its own timing (`gc({ type:
 * 'minor' })`, with `--expose-gc`): the garbage a batch made is collected and paid for by that
 * batch, not by whichever batch of the next case a scavenge would otherwise land in. Without it a
 * batch of a few hundred requests got a scavenge or did not, and the per-pair differences of a
 * bare route and one no-op middleware spread over about 5 µs (IQR) instead of about 1 µs, with
 * medians moving by 0.2 µs between runs (see FINDINGS.md, "Measuring a microsecond").
 */
export async function pairedBatches(
  cases: Array<() => unknown>,
  options: { pairs?: number; batch?: number; warmup?: number } = {},
): Promise<PairedBatches> {
  const pairs = options.pairs ?? (settings.quick ? 60 : 200)
  const batch = options.batch ?? (settings.quick ? 200 : 300)
  const warmup = options.warmup ?? (settings.quick ? 5 : 20)
  const gc = (globalThis as { gc?: (o?: { type: 'minor' | 'major' }) => void }).gc
  gc?.()
  const kept: number[][] = []
  for (let pair = 0; pair < warmup + pairs; pair++) {
    const row: number[] = cases.map(() => 0)
    for (let k = 0; k < cases.length; k++) {
      const i = pair % 2 === 0 ? k : cases.length - 1 - k
      const fn = cases[i] as () => unknown
      const cpu = process.cpuUsage()
      for (let n = 0; n < batch; n++) await fn()
      gc?.({ type: 'minor' })
      const used = process.cpuUsage(cpu)
      row[i] = ((used.user + used.system) * 1000) / batch
    }
    if (pair >= warmup) kept.push(row)
  }
  const perPair = (i: number) => kept.map((r) => r[i] as number)
  return {
    pairs,
    batch,
    perPair,
    cpu: (i) => median(perPair(i)),
    diff: (i, j) => spread(kept.map((r) => (r[i] as number) - (r[j] as number))),
    ratio: (i, j) => median(kept.map((r) => (r[i] as number) / (r[j] as number))),
    ratioSpread: (i, j) => spread(kept.map((r) => (r[i] as number) / (r[j] as number))),
  }
}

/** A difference in µs with its sign: `+1.23 µs`, `-0.40 µs`. */
export function fmtUs(ns: number): string {
  return `${ns >= 0 ? '+' : '−'}${(Math.abs(ns) / 1000).toFixed(2)} µs`
}

/** A paired difference as `+1.23 µs (IQR +0.90 to +1.60 µs)`. */
export function fmtSpread(s: Spread): string {
  return `${fmtUs(s.median)} (IQR ${fmtUs(s.q1).slice(0, -3)} to ${fmtUs(s.q3)})`
}
