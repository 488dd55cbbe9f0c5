/**
 * Over HTTP on loopback: each server runs in its own child process (servers/serve.ts), the load
 * comes from this process with autocannon, same duration and connection count for all. Requests
 * per second and p99 latency are reported as ratios to the Palisade stack.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { settings } from '../lib/measure'
import { type HttpResult, heading, results, skip } from '../lib/results'

interface ServerSpec {
  kind: string
  name: string
  stack: string
}

const SERVERS: ServerSpec[] = [
  {
    kind: 'palisade',
    name: 'Palisade (Hono + @hono/node-server)',
    stack: 'securityHeaders, cors, rateLimit, sessions, csrf, jwtAuth',
  },
  { kind: 'hono-bare', name: 'bare Hono (@hono/node-server)', stack: 'none' },
  {
    kind: 'express',
    name: 'Express 5',
    stack: 'helmet, cors, express-rate-limit, express-session, csrf-csrf, express-jwt',
  },
  {
    kind: 'fastify',
    name: 'Fastify 5',
    stack: '@fastify/helmet, cors, rate-limit, secure-session, csrf-protection, jwt',
  },
  { kind: 'palisade-full', name: 'Palisade, all fifteen middleware', stack: 'all fifteen' },
]

const SERVE = fileURLToPath(new URL('../servers/serve.ts', import.meta.url))
const EXAMPLE = fileURLToPath(new URL('../../examples/app.ts', import.meta.url))

interface Started {
  child: ChildProcess
  port: number
  headers: Record<string, string>
  note?: string
  /** Asks the child for its CPU time so far, in microseconds. */
  cpu: () => Promise<number>
}

function start(kind: string): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SERVE, kind], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr?.on('data', (d) => {
      stderr += d
    })
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })
    const cpu = () =>
      new Promise<number>((done) => {
        lines.once('line', (line) => done((JSON.parse(line) as { cpu: number }).cpu))
        child.kill('SIGUSR2')
      })
    lines.once('line', (line) => {
      try {
        resolve({ child, cpu, ...(JSON.parse(line) as Omit<Started, 'child' | 'cpu'>) })
      } catch {
        reject(new Error(`${kind}: unexpected output ${line}`))
      }
    })
    child.once('exit', (code) =>
      reject(new Error(`${kind} exited with ${code}: ${stderr.slice(0, 500)}`)),
    )
  })
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

function load(port: number, headers: Record<string, string>, seconds: number, path: string) {
  return autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    connections: settings.quick ? 50 : 100,
    duration: seconds,
    headers,
  })
}

export async function runHttp(): Promise<void> {
  heading('HTTP on loopback (autocannon)')
  const duration = settings.quick ? 3 : 10
  const warmup = settings.quick ? 1 : 3
  const rounds = settings.quick ? 1 : 2
  const connections = settings.quick ? 50 : 100
  const specs = [...SERVERS]
  if (existsSync(EXAMPLE))
    specs.push({
      kind: 'palisade-example',
      name: 'examples/app.ts createApp()',
      stack: 'the example app',
    })
  console.log(
    `  ${connections} connections, ${warmup} s warm-up + ${duration} s measured, best of ${rounds} round(s)`,
  )
  const best = new Map<string, HttpResult>()
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? specs : [...specs].reverse()
    for (const spec of order) {
      let server: Started
      try {
        server = await start(spec.kind)
      } catch (error) {
        if (round === 0) skip(`${spec.name}: ${(error as Error).message}`)
        continue
      }
      try {
        const path = spec.kind === 'palisade-example' ? '/' : '/api/me'
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
        const cpuBefore = await server.cpu()
        const r = await load(server.port, server.headers, duration, path)
        const cpuAfter = await server.cpu()
        const result: HttpResult = {
          name: spec.name,
          stack: spec.stack + (server.note ? ` (${server.note})` : ''),
          rps: r.requests.average,
          p50: r.latency.p50,
          p99: r.latency.p99,
          non2xx: r.non2xx,
          errors: r.errors + r.timeouts,
          cpuPerRequest: (cpuAfter - cpuBefore) / Math.max(1, r.requests.total),
        }
        console.log(
          `  round ${round + 1} ${spec.name.padEnd(40)} ${result.rps.toFixed(0).padStart(7)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms  CPU ${result.cpuPerRequest.toFixed(1)} µs/req${result.non2xx ? `  non-2xx ${result.non2xx}` : ''}`,
        )
        const prev = best.get(spec.kind)
        if (!prev || result.rps > prev.rps) best.set(spec.kind, result)
      } finally {
        await stop(server.child)
      }
    }
  }
  const ours = best.get('palisade')
  for (const spec of specs) {
    const r = best.get(spec.kind)
    if (!r) continue
    if (ours) {
      r.ratioRps = r.rps / ours.rps
      r.ratioP99 = r.p99 / ours.p99
      r.ratioCpu = r.cpuPerRequest / ours.cpuPerRequest
    }
    results.http.push(r)
  }
  console.log('')
  for (const r of results.http) {
    console.log(
      `  ${r.name.padEnd(40)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99).padStart(4)} ms  CPU ${r.cpuPerRequest.toFixed(1).padStart(6)} µs/req  ${r.ratioRps ? `${r.ratioRps.toFixed(2)}x of Palisade req/s` : ''}`,
    )
  }
}
