/**
 * CPU per request over HTTP of one bench server built from this checkout against the same server
 * built from another checkout, both served at once and loaded in turn:
 *
 *   node --import tsx http-ab.ts --against=/path/to/other/checkout [--kind=palisade] [--rounds=10]
 *     [--seconds=3] [--connections=50]
 *
 * (from bench/; both checkouts installed and built: each side is its checkout's `dist/`, as the
 * rest of the bench measures). `--kind` is any server of `servers/serve.ts` (`palisade`,
 * `palisade-openapi`, `palisade-example`, `palisade-only:rateLimit,jwtAuth`, …); the server code
 * is this checkout's on both sides, and only `@palisade/*` resolve to the other checkout's build
 * there (for `palisade-example`, the example app's own files are the other checkout's too). The
 * two servers share the server CPU and take turns under autocannon (the order alternates every
 * round); each figure is the server's CPU time over its window divided by the
 * requests it served. A whole run is a few rounds of seconds each, so a change of a few percent
 * that one `pnpm bench` run cannot tell from noise shows as the median of the per-round ratios.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import autocannon from 'autocannon'
import { median } from './lib/measure'
import { PIN, pinSelf, type Started, start, stop } from './suites/http'

const args = process.argv.slice(2)
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
const against = flag('against')
if (against === undefined) {
  console.error(
    'usage: node --import tsx http-ab.ts --against=<other checkout> [--kind=palisade] [--rounds=N] [--seconds=S] [--connections=C]',
  )
  process.exit(2)
}
const kind = flag('kind') ?? 'palisade'
const rounds = Number(flag('rounds') ?? 10)
const seconds = Number(flag('seconds') ?? 3)
const connections = Number(flag('connections') ?? 50)
const PATH = '/api/me'

/**
 * A tsconfig that extends the bench's own and maps `@palisade/*` to the other checkout's build:
 * tsx reads it from TSX_TSCONFIG_PATH in the child.
 */
function otherTsconfig(dir: string): string {
  const other = path.resolve(against as string)
  const file = path.join(dir, 'tsconfig.json')
  writeFileSync(
    file,
    JSON.stringify({
      extends: fileURLToPath(new URL('./tsconfig.json', import.meta.url)),
      compilerOptions: {
        baseUrl: other,
        paths: {
          '@palisade/middleware': ['packages/middleware/dist/index'],
          '@palisade/middleware/*': ['packages/middleware/dist/*/index'],
          '@palisade/openapi': ['packages/openapi/dist/index'],
          '@palisade/openapi/*': ['packages/openapi/dist/*/index'],
        },
      },
    }),
  )
  return file
}

/** CPU per request (µs) and requests per second of one window of load, and whether every answer was a 2xx. */
async function window(server: Started): Promise<{ cpu: number; rps: number; ok: boolean }> {
  const before = await server.cpu()
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}${PATH}`,
    connections,
    duration: seconds,
    headers: server.headers,
  })
  const used = (await server.cpu()) - before
  return {
    cpu: used / result.requests.total,
    rps: result.requests.total / seconds,
    ok: result.non2xx === 0 && result.errors === 0,
  }
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'palisade-http-ab-'))
const spec = { kind, name: kind, stack: kind }
pinSelf(PIN?.client ?? '')
const sides: [name: string, server: Started][] = []
try {
  sides.push(['this checkout', await start(spec)])
  const other: Record<string, string> = { TSX_TSCONFIG_PATH: otherTsconfig(dir) }
  // The example's own code is the other checkout's too (its imports of @palisade/* resolve to
  // that checkout's build through the tsconfig above).
  if (kind === 'palisade-example') {
    other.BENCH_EXAMPLE_APP = pathToFileURL(path.resolve(against, 'examples/app.ts')).href
  }
  sides.push([`against ${against}`, await start(spec, other)])
  const perRound: number[][] = sides.map(() => [])
  const rpsPerRound: number[][] = sides.map(() => [])
  const loadAtStart = os.loadavg()[0] as number
  for (const [, server] of sides) await window(server) // warm-up, not counted
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0]
    for (const i of order) {
      const [name, server] = sides[i] as [string, Started]
      const { cpu, rps, ok } = await window(server)
      if (!ok) throw new Error(`${name}: answers other than 2xx on ${PATH}; fix the server first`)
      perRound[i]?.push(cpu)
      rpsPerRound[i]?.push(rps)
    }
  }
  const [ours, theirs] = perRound as [number[], number[]]
  const ratio = median(ours.map((x, i) => x / (theirs[i] as number)))
  const [oursRps, theirsRps] = rpsPerRound as [number[], number[]]
  const rpsRatio = median(oursRps.map((x, i) => x / (theirsRps[i] as number)))
  console.log(
    `${kind}, GET ${PATH}: server CPU per request, ${rounds} rounds of ${seconds} s (load average ${loadAtStart.toFixed(1)} at the start, ${(os.loadavg()[0] as number).toFixed(1)} at the end)`,
  )
  for (const [i, [name]] of sides.entries()) {
    const xs = perRound[i] as number[]
    console.log(
      `  ${name.padEnd(40)} median ${median(xs).toFixed(2)} µs  [${xs.map((x) => x.toFixed(1)).join(' ')}]`,
    )
  }
  console.log(`  this checkout / the other: ${ratio.toFixed(3)} (median of the per-round ratios)`)
  console.log(
    `  req/s: this checkout ${median(oursRps).toFixed(0)}, the other ${median(theirsRps).toFixed(0)}; ratio ${rpsRatio.toFixed(3)} (median of the per-round ratios)`,
  )
} finally {
  for (const [, server] of sides) await stop(server.child)
  pinSelf(PIN?.all ?? '')
  rmSync(dir, { recursive: true, force: true })
}
