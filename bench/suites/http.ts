/**
 * Over HTTP on loopback: each server runs in its own child process (servers/serve.ts), the load
 * comes from this process with autocannon, same duration and connection count for all. Requests
 * per second and p99 latency are reported as ratios to the Palisade stack.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { JWT_SECRET_TEXT, ORIGIN, SESSION_SECRET } from '../lib/fixtures'
import { settings } from '../lib/measure'
import { addTarget, type HttpResult, heading, results, skip } from '../lib/results'

export interface ServerSpec {
  kind: string
  name: string
  stack: string
  /** Key of the result; defaults to `kind`. */
  id?: string
}

const SERVERS: ServerSpec[] = [
  {
    kind: 'palisade-example',
    name: 'Palisade example app',
    stack:
      'examples/app.ts createApp() on GET /api/me: requestId, logger (to /dev/null), securityHeaders, cors, requestTimeout, bodyLimit, rateLimit, sessions, jwtAuth',
  },
  {
    kind: 'palisade',
    name: 'Palisade, same six',
    stack: 'securityHeaders, cors, rateLimit, sessions, csrf, jwtAuth',
  },
  {
    kind: 'palisade-openapi',
    name: 'Palisade six, openapi wrapper',
    stack: 'the same six, registered through @palisade/openapi (documented route)',
  },
  { kind: 'hono-bare', name: 'bare Hono', stack: 'no middleware (@hono/node-server)' },
  {
    kind: 'hono-headers',
    name: 'bare Hono, the six’s headers by hand',
    stack:
      'no middleware; the handler reads Origin, Authorization and Cookie and sets the 11 response headers the six-middleware stack sets',
  },
  {
    kind: 'fastify',
    name: 'Fastify 5',
    stack:
      '@fastify/helmet, @fastify/cors, @fastify/rate-limit, @fastify/secure-session, @fastify/csrf-protection, @fastify/jwt',
  },
  {
    kind: 'express',
    name: 'Express 5',
    stack: 'helmet, cors, express-rate-limit, express-session, csrf-csrf, express-jwt',
  },
  { kind: 'palisade-full', name: 'Palisade, all fifteen', stack: 'all fifteen middleware' },
]

const SERVE = fileURLToPath(new URL('../servers/serve.ts', import.meta.url))
const EXAMPLE = fileURLToPath(new URL('../../examples/app.ts', import.meta.url))

export interface Started {
  child: ChildProcess
  port: number
  headers: Record<string, string>
  note?: string
  /** Asks the child for its CPU time so far, in microseconds. */
  cpu: () => Promise<number>
  /** Asks the child for its CPU time and its time in GC pauses so far, in microseconds. */
  usage: () => Promise<{ cpu: number; gc: number }>
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/**
 * On Linux with two or more CPUs and `taskset`, the server under load gets the last CPU to itself
 * and this process (autocannon) the first, for the length of the HTTP suite. Unpinned on a 2-CPU
 * machine, the scheduler now and then put both on one CPU, and the same server's CPU per request
 * moved by up to half between runs a minute apart; pinned, the runs agree.
 */
export const PIN: { server: string; client: string; all: string } | undefined = (() => {
  const cpus = os.availableParallelism?.() ?? os.cpus().length
  if (process.platform !== 'linux' || cpus < 2) return undefined
  const found = ['/usr/bin/taskset', '/bin/taskset'].find((p) => existsSync(p))
  if (!found) return undefined
  return { server: String(cpus - 1), client: '0', all: `0-${cpus - 1}` }
})()

/** Pins this process (and its threads) to `cpus`, when pinning is available. */
export function pinSelf(cpus: string): void {
  if (!PIN) return
  spawnSync('taskset', ['-a', '-cp', cpus, String(process.pid)], { stdio: 'ignore' })
}

/**
 * Starts one server of `servers/serve.ts` in its own process (pinned to the server CPU when
 * pinning is available). `env` is added to the child's environment (`http-ab.ts` points
 * `TSX_TSCONFIG_PATH` at another checkout's build with it).
 */
export function start(spec: ServerSpec, env: Record<string, string> = {}): Promise<Started> {
  const { kind } = spec
  return new Promise((resolve, reject) => {
    const example = kind === 'palisade-example'
    const node = [process.execPath, '--import', 'tsx', SERVE, kind]
    const [command, ...args] = PIN ? ['taskset', '-c', PIN.server, ...node] : node
    const child = spawn(command as string, args, {
      // The example imports @palisade/* by name; the bench's tsconfig maps those to the built
      // packages, so it runs on what an app installs, like the rest of the bench.
      cwd: example ? ROOT : fileURLToPath(new URL('..', import.meta.url)),
      env: example
        ? {
            ...process.env,
            TSX_TSCONFIG_PATH: fileURLToPath(new URL('../tsconfig.json', import.meta.url)),
            JWT_SECRET: JWT_SECRET_TEXT,
            SESSION_SECRET,
            CSRF_SECRET: SESSION_SECRET,
            RATE_LIMIT_MAX: '1000000000',
            CORS_ORIGIN: ORIGIN,
            ...env,
          }
        : { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    })
    let stderr = ''
    child.stderr?.on('data', (d) => {
      stderr += d
    })
    const usage = () =>
      new Promise<{ cpu: number; gc: number }>((done) => {
        const onMessage = (m: { cpu?: number; gc?: number }) => {
          if (typeof m?.cpu !== 'number') return
          child.off('message', onMessage)
          done({ cpu: m.cpu, gc: m.gc ?? 0 })
        }
        child.on('message', onMessage)
        child.send('cpu')
      })
    const cpu = async () => (await usage()).cpu
    child.once('message', (message) => {
      resolve({ child, cpu, usage, ...(message as Omit<Started, 'child' | 'cpu' | 'usage'>) })
    })
    child.once('exit', (code) =>
      reject(new Error(`${kind} exited with ${code}: ${stderr.slice(0, 500)}`)),
    )
  })
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

export function load(port: number, headers: Record<string, string>, seconds: number, path: string) {
  return autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    connections: settings.quick ? 50 : 100,
    duration: seconds,
    headers,
  })
}

export async function runHttp(): Promise<void> {
  heading('HTTP on loopback (autocannon)')
  pinSelf(PIN?.client ?? '')
  try {
    await runHttpPinned()
  } finally {
    pinSelf(PIN?.all ?? '')
  }
}

async function runHttpPinned(): Promise<void> {
  results.httpPinned = PIN
    ? `server on CPU ${PIN.server}, autocannon on CPU ${PIN.client}`
    : undefined
  const duration = settings.quick ? 3 : 8
  const warmup = settings.quick ? 1 : 2
  // Three rounds, so every target is judged on three independent measurements of each server.
  const rounds = settings.quick ? 1 : 3
  const connections = settings.quick ? 50 : 100
  const specs = SERVERS.filter((s) => s.kind !== 'palisade-example' || existsSync(EXAMPLE))
  console.log(
    `  ${connections} connections, ${warmup} s warm-up + ${duration} s measured, best of ${rounds} round(s)`,
  )
  const best = new Map<string, HttpResult>()
  /** Every round's result per server, in round order (undefined where a round failed). */
  const perRound = new Map<string, Array<HttpResult | undefined>>()
  for (let round = 0; round < rounds; round++) {
    results.httpLoad.push(os.loadavg()[0] ?? 0)
    const order = round % 2 === 0 ? specs : [...specs].reverse()
    for (const spec of order) {
      let server: Started
      try {
        server = await start(spec)
      } catch (error) {
        if (round === 0) skip(`${spec.name}: ${(error as Error).message}`)
        continue
      }
      try {
        const path = '/api/me'
        const probe = await fetch(`http://127.0.0.1:${server.port}${path}`, {
          headers: server.headers,
        })
        const probeBody = await probe.text()
        if (probe.status !== 200) {
          if (round === 0)
            skip(`${spec.name}: GET ${path} answered ${probe.status} ${probeBody.slice(0, 80)}`)
          continue
        }
        await load(server.port, server.headers, warmup, path)
        const before = await server.usage()
        const r = await load(server.port, server.headers, duration, path)
        const after = await server.usage()
        const served = Math.max(1, r.requests.total)
        const result: HttpResult = {
          name: spec.name,
          stack: spec.stack + (server.note ? ` (${server.note})` : ''),
          rps: r.requests.average,
          p50: r.latency.p50,
          p99: r.latency.p99,
          non2xx: r.non2xx,
          errors: r.errors + r.timeouts,
          cpuPerRequest: (after.cpu - before.cpu) / served,
          gcPerRequest: (after.gc - before.gc) / served,
        }
        console.log(
          `  round ${round + 1} ${spec.name.padEnd(40)} ${result.rps.toFixed(0).padStart(7)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms  CPU ${result.cpuPerRequest.toFixed(1)} µs/req  GC ${result.gcPerRequest?.toFixed(1)} µs/req${result.non2xx ? `  non-2xx ${result.non2xx}` : ''}`,
        )
        const id = spec.id ?? spec.kind
        const all = perRound.get(id) ?? []
        all[round] = result
        perRound.set(id, all)
        const prev = best.get(id)
        if (!prev || result.rps > prev.rps) best.set(id, result)
      } finally {
        await stop(server.child)
      }
    }
  }
  // "Ours" is the example app's stack when it runs, else the six-middleware equivalent.
  const oursKind = best.has('palisade-example') ? 'palisade-example' : 'palisade'
  const ours = best.get(oursKind)
  for (const spec of specs) {
    const r = best.get(spec.id ?? spec.kind)
    if (!r) continue
    if (ours) {
      r.ratioRps = r.rps / ours.rps
      r.ratioP99 = r.p99 / ours.p99
      r.ratioCpu = r.cpuPerRequest / ours.cpuPerRequest
    }
    const all = (perRound.get(spec.id ?? spec.kind) ?? []).filter((x) => x !== undefined)
    r.rpsRange = [Math.min(...all.map((x) => x.rps)), Math.max(...all.map((x) => x.rps))]
    r.cpuRange = [
      Math.min(...all.map((x) => x.cpuPerRequest)),
      Math.max(...all.map((x) => x.cpuPerRequest)),
    ]
    const gcShares = all.map((x) => (x.gcPerRequest ?? 0) / x.cpuPerRequest)
    r.gcShareRange = [Math.min(...gcShares), Math.max(...gcShares)]
    results.http.push(r)
  }
  console.log('')
  for (const r of results.http) {
    console.log(
      `  ${r.name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99).padStart(4)} ms  CPU ${r.cpuPerRequest.toFixed(1).padStart(6)} µs/req  ${r.ratioRps ? `req/s ${r.ratioRps.toFixed(2)}x of ours` : ''}`,
    )
  }
  httpTargets(perRound, rounds, oursKind)
  results.oursHttp = ours?.name
}

/**
 * Round i of one server beside round i of another (the rounds alternate direction, so each pair
 * ran close together): `holds` must be true in every round both served for the target to count.
 */
function everyRound(
  perRound: Map<string, Array<HttpResult | undefined>>,
  rounds: number,
  a: string,
  b: string,
  holds: (x: HttpResult, y: HttpResult) => boolean,
  describe: (x: HttpResult, y: HttpResult) => string,
): { measured: string; met: boolean | null } {
  const xs = perRound.get(a) ?? []
  const ys = perRound.get(b) ?? []
  const pairs: string[] = []
  let met = true
  let any = false
  for (let i = 0; i < rounds; i++) {
    const x = xs[i]
    const y = ys[i]
    if (!x || !y) {
      met = false
      continue
    }
    any = true
    if (!holds(x, y)) met = false
    pairs.push(`round ${i + 1}: ${describe(x, y)}`)
  }
  if (!any) return { measured: 'not measured', met: null }
  return { measured: pairs.join('; '), met }
}

/** Largest share of a Palisade server's CPU per request that GC pauses may take. */
const GC_SHARE = 0.1

function httpTargets(
  perRound: Map<string, Array<HttpResult | undefined>>,
  rounds: number,
  oursKind: string,
): void {
  const ratio = (x: HttpResult, y: HttpResult) =>
    `req/s ${(x.rps / y.rps).toFixed(2)}x, CPU per request ${(x.cpuPerRequest / y.cpuPerRequest).toFixed(2)}x`
  const target = (goal: string, r: { measured: string; met: boolean | null }) =>
    addTarget({ goal, measured: r.measured, met: r.met })
  target(
    'HTTP: our stack at or above 1.0x the Fastify stack, in req/s and in CPU per request, every round',
    everyRound(
      perRound,
      rounds,
      oursKind,
      'fastify',
      (x, y) => x.rps >= y.rps && x.cpuPerRequest <= y.cpuPerRequest,
      ratio,
    ),
  )
  target(
    'HTTP: our stack at least 3x the Express stack in req/s (and a third of its CPU per request), every round',
    everyRound(
      perRound,
      rounds,
      oursKind,
      'express',
      (x, y) => x.rps >= 3 * y.rps && 3 * x.cpuPerRequest <= y.cpuPerRequest,
      ratio,
    ),
  )
  if (oursKind !== 'palisade') {
    target(
      'HTTP, like-for-like six-middleware stack: ahead of Fastify in req/s and CPU per request, every round',
      everyRound(
        perRound,
        rounds,
        'palisade',
        'fastify',
        (x, y) => x.rps > y.rps && x.cpuPerRequest < y.cpuPerRequest,
        ratio,
      ),
    )
  }
  target(
    'HTTP, like-for-like six-middleware stack: at least 0.5x bare Hono (req/s at least half, CPU per request at most twice), every round',
    everyRound(
      perRound,
      rounds,
      'palisade',
      'hono-bare',
      (x, y) => 2 * x.rps >= y.rps && x.cpuPerRequest <= 2 * y.cpuPerRequest,
      ratio,
    ),
  )
  // What the six-middleware stack's header work alone costs a bare Hono app (the headers it reads
  // and writes, by hand), and what the six cost beyond that floor: shown, not a target.
  for (const [kind, other, goal] of [
    [
      'hono-headers',
      'hono-bare',
      'HTTP: bare Hono doing the six’s header work by hand, against bare Hono (shown)',
    ],
    [
      'palisade',
      'hono-headers',
      'HTTP: the six-middleware stack against bare Hono doing its header work by hand (shown)',
    ],
  ] as const) {
    addTarget({ goal, ...everyRound(perRound, rounds, kind, other, () => true, ratio), met: null })
  }
  // Garbage: requests that outlive the young generation cost a loaded server more than its
  // middleware, and a comparison one request at a time in process cannot see it.
  for (const kind of new Set([oursKind, 'palisade', 'palisade-full'])) {
    const rs = perRound.get(kind) ?? []
    const shares = rs.map((x) =>
      x ? `${((100 * (x.gcPerRequest ?? 0)) / x.cpuPerRequest).toFixed(1)}%` : 'not measured',
    )
    const measured = rs.filter((x) => x !== undefined)
    addTarget({
      goal: `HTTP, ${measured[0]?.name ?? kind}: at most ${GC_SHARE * 100}% of the server's CPU per request in GC pauses, every round`,
      measured: shares.map((x, i) => `round ${i + 1}: ${x}`).join('; '),
      met:
        measured.length === 0
          ? null
          : measured.length === rounds &&
            measured.every((x) => (x.gcPerRequest ?? 0) <= GC_SHARE * x.cpuPerRequest),
    })
  }
  // The ≤1 µs target is judged in process (middleware suite), where a microsecond is resolved;
  // over HTTP the difference is shown for each round.
  const wrapped = everyRound(
    perRound,
    rounds,
    'palisade-openapi',
    'palisade',
    () => true,
    (x, y) => `${(x.cpuPerRequest - y.cpuPerRequest).toFixed(1)} µs CPU per request`,
  )
  addTarget({
    goal: 'HTTP: the openapi wrapper over the same six middleware as a plain Hono app (shown, judged in process)',
    measured: wrapped.measured,
    met: null,
  })
}
