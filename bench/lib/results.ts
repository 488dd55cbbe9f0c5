/** Everything a run measured, printed as it comes and written to RESULTS.md at the end. */
import { fmtNs, fmtRatio } from './measure'

export interface Row {
  /** Table the row belongs to. */
  table: string
  name: string
  /** Nanoseconds per request or operation (in-process). */
  ns?: number
  /** Other measured value, already formatted (memory, ops/s, …). */
  value?: string
  /** Ratio and what it is a ratio to. */
  ratio?: number
  vs?: string
  note?: string
}

export interface Target {
  goal: string
  measured: string
  /** `null` when it could not be measured (module missing). */
  met: boolean | null
  note?: string
}

export interface HttpResult {
  name: string
  stack: string
  rps: number
  p50: number
  p99: number
  non2xx: number
  errors: number
  /** Server CPU time (user + system) per request served, in microseconds. */
  cpuPerRequest: number
  /** The server's time in garbage-collection pauses per request served, in microseconds. */
  gcPerRequest?: number
  ratioRps?: number
  ratioP99?: number
  ratioCpu?: number
  /** Lowest and highest of the rounds: req/s and CPU per request. */
  rpsRange?: [number, number]
  cpuRange?: [number, number]
  /** Lowest and highest share of CPU per request spent in GC pauses, over the rounds. */
  gcShareRange?: [number, number]
}

export const results = {
  rows: [] as Row[],
  targets: [] as Target[],
  http: [] as HttpResult[],
  skipped: [] as string[],
  notes: [] as string[],
  /** 1-minute load average at the start of each HTTP round. */
  httpLoad: [] as number[],
  /** How the HTTP suite placed the server and the load generator on CPUs, when it pinned them. */
  httpPinned: undefined as string | undefined,
  /** How each pair of HTTP windows was taken in a round (turns, their lengths). */
  httpTurns: undefined as string | undefined,
  /** Name of the HTTP row the ratios are relative to. */
  oursHttp: undefined as string | undefined,
  /** Whole sections a suite writes itself (markdown), placed after the in-process tables. */
  sections: [] as string[],
}

export function addRow(row: Row): void {
  results.rows.push(row)
  const time = row.ns !== undefined ? fmtNs(row.ns).padStart(10) : ''.padStart(10)
  const value = row.value ? `  ${row.value}` : ''
  const ratio = row.ratio !== undefined ? `  ${fmtRatio(row.ratio)} vs ${row.vs}` : ''
  const note = row.note ? `  (${row.note})` : ''
  console.log(`  ${row.name.padEnd(52)} ${time}${value}${ratio}${note}`)
}

export function addTarget(target: Target): void {
  results.targets.push(target)
  const mark = target.met === null ? 'n/a ' : target.met ? 'MET ' : 'MISS'
  console.log(
    `  [${mark}] ${target.goal}: ${target.measured}${target.note ? ` — ${target.note}` : ''}`,
  )
}

export function skip(what: string): void {
  results.skipped.push(what)
  console.log(`  (skipped: ${what})`)
}

export function heading(title: string): void {
  console.log(`\n== ${title} ==`)
}
