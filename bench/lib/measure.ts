/**
 * Thin layer over mitata's `measure()`: every comparison runs its sides in this one process,
 * interleaved over several rounds (A B, then B A, …) so that drift in CPU frequency or GC pressure
 * hits both sides alike. Per side the best round's median is kept; ratios are printed, never
 * asserted.
 */
import { measure } from 'mitata'

export interface Timing {
  name: string
  /** Nanoseconds per call: the median sample of the best round. */
  avg: number
  p50: number
  p99: number
}

export interface Settings {
  quick: boolean
  /** mitata's minimum CPU time per measurement, in milliseconds. */
  minCpuMs: number
  /** Interleaved rounds per comparison. */
  rounds: number
}

export const settings: Settings = { quick: false, minCpuMs: 150, rounds: 4 }

export function configure(quick: boolean): void {
  settings.quick = quick
  settings.minCpuMs = quick ? 80 : 150
  settings.rounds = quick ? 2 : 4
}

type Fn = () => unknown

async function once(fn: Fn): Promise<{ avg: number; p50: number; p99: number }> {
  // Small batches give many samples per round; their median shrugs off bursts of load from
  // other processes, which only ever make a sample slower.
  const stats = await measure(fn, { min_cpu_time: settings.minCpuMs * 1e6, batch_samples: 128 })
  return { avg: stats.p50, p50: stats.p50, p99: stats.p99 }
}

/**
 * Measures every case, interleaving them over `settings.rounds` rounds with alternating order,
 * and returns one timing per case (the round with the lowest mean).
 */
export async function measureAll(cases: Array<[name: string, fn: Fn]>): Promise<Timing[]> {
  const best = new Map<string, Timing>()
  for (let round = 0; round < settings.rounds; round++) {
    const order = round % 2 === 0 ? cases : [...cases].reverse()
    for (const [name, fn] of order) {
      const t = await once(fn)
      const prev = best.get(name)
      if (!prev || t.avg < prev.avg) best.set(name, { name, ...t })
    }
  }
  return cases.map(([name]) => best.get(name) as Timing)
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
