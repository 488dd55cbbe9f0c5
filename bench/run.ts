/**
 * `pnpm bench` entry. Flags: `--quick` (shorter measurements, for a smoke run), `--only=<list>`
 * with any of middleware, components, rate-limit, openapi, shield, http, start, ablation, stores (ablation and stores only
 * run when named; ablation writes ABLATION.md, stores writes its section of RESULTS.md);
 * `--filter=<regex>` to run only the in-process
 * comparisons whose title matches; `--repeat=<n>` to measure each paired µs row (botGuard,
 * loadShed, the openapi wrapper, concurrencyLimit) n times in a row and print every median; `--no-report` to leave RESULTS.md alone (a partial run with
 * `--only` or `--filter` never writes it).
 */
import os from 'node:os'
import { staleBuild } from './lib/built'
import { configure, settings } from './lib/measure'
import { writeReport } from './lib/report'
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

const startedAt = new Date()
const loadBefore = os.loadavg()
console.log(
  `Palisade benchmarks${quick ? ' (quick)' : ''}: ${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}, load ${loadBefore[0]?.toFixed(2)}`,
)
if (wants('middleware')) {
  await runMiddleware()
  await runJwks()
}
if (wants('components')) await runComponents()
if (wants('rate-limit')) await runRateLimit()
if (wants('openapi')) await runOpenAPI()
// Issue 42: shield's rows (about half a minute) belong in the default run, as every guard's do.
if (wants('shield')) await runShield()
if (wants('http')) await runHttp()
if (wants('start')) await runStart()
// Not part of the default run: `--only=ablation`.
if (only?.includes('ablation')) await runAblation()
// Not part of the default run either (needs Redis, starts a cluster, workerd and Deno):
// `--only=stores`.
if (only?.includes('stores')) await runStores(quick)
// Issue 23's rows, only when named: `--only=observability`.
if (only?.includes('observability')) await runObservability()
if (!only && !filter && !args.includes('--no-report')) {
  await writeReport({
    startedAt,
    seconds: (Date.now() - startedAt.getTime()) / 1000,
    loadBefore,
    loadAfter: os.loadavg(),
    args,
  })
}
