/**
 * The README's start command, on a warm install: the time from spawning the process that
 * `examples/package.json`'s start script runs (`tsx … server.ts`; the `npx pnpm start` wrapper in
 * front of it is the package manager's, not ours) to the first answered HTTP request, polled on
 * loopback with small GETs. Beside it, two floors started and polled the same way, so the row
 * says what is ours: plain Node serving a one-line `node:http` server, and the same one-line
 * server started by the start script's own loader command and flags. Rounds interleave the three.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { createServer } from 'node:net'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import { settings } from '../lib/measure'
import { addRow, addTarget, heading, results, skip } from '../lib/results'

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url))
const FLOOR_TS = fileURLToPath(new URL('../lib/start-floor.ts', import.meta.url))
const T = 'start'
/** A one-line server, the same in both floors (plain Node and the loader). */
const FLOOR_JS =
  "require('node:http').createServer((q,s)=>s.end('ok')).listen(Number(process.env.PORT),'127.0.0.1')"

interface Command {
  label: string
  args: string[]
  /** Path polled; the example's is its liveness route. */
  path: string
}

/**
 * The start script's command, as this Node runs it: `node <args>` as it is, `<bin> <args>` as
 * `node <the package's bin file> <args>` (no shell, no shim).
 */
function startScript(): { script: string; bin: string | undefined; args: string[] } {
  const pkg = JSON.parse(readFileSync(`${EXAMPLES}package.json`, 'utf8')) as {
    scripts: { start: string }
  }
  const script = pkg.scripts.start
  const [name, ...args] = script.split(/\s+/)
  if (!name) throw new Error(`examples/package.json: empty start script`)
  // `node …`: spawned as this Node with the same arguments.
  if (name === 'node') return { script, bin: undefined, args }
  const dir = `${EXAMPLES}node_modules/${name}/`
  const meta = JSON.parse(readFileSync(`${dir}package.json`, 'utf8')) as {
    bin: string | Record<string, string>
  }
  const rel = typeof meta.bin === 'string' ? meta.bin : meta.bin[name]
  if (!rel) throw new Error(`${name} has no bin named ${name}`)
  return { script, bin: `${dir}${rel}`, args }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address()
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** One small GET; resolves to the status, or 0 when nothing answered (yet). */
function poke(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', () => resolve(0))
    req.setTimeout(1_000, () => {
      req.destroy()
      resolve(0)
    })
    req.end()
  })
}

/** Milliseconds from spawn to the first answered request; the process group is stopped after. */
async function timeToFirstAnswer(cmd: Command): Promise<number> {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(process.execPath, cmd.args, {
    cwd: EXAMPLES,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NODE_OPTIONS: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  })
  let stderr = ''
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d
  })
  let exited = false
  const gone = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true
      resolve()
    }),
  )
  try {
    for (;;) {
      const status = await poke(port, cmd.path)
      if (status) {
        if (status !== 200) throw new Error(`${cmd.label}: first answer was ${status}`)
        return performance.now() - started
      }
      if (exited) throw new Error(`${cmd.label} exited before answering: ${stderr.slice(-400)}`)
      if (performance.now() - started > 60_000) throw new Error(`${cmd.label}: no answer in 60 s`)
      await new Promise((r) => setTimeout(r, 5))
    }
  } finally {
    if (!exited && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM')
      } catch {}
      await Promise.race([gone, new Promise((r) => setTimeout(r, 5_000))])
      if (!exited) {
        try {
          process.kill(-child.pid, 'SIGKILL')
        } catch {}
        await gone
      }
    }
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2
}
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const summary = (xs: number[]) =>
  `median ${sec(median(xs))} (${sec(Math.min(...xs))}–${sec(Math.max(...xs))}, ${xs.length} runs)`

export async function runStart(): Promise<void> {
  heading('Start: spawn to first answered request (warm install)')
  if (settings.filter && !settings.filter.test('start')) return
  let start: ReturnType<typeof startScript>
  try {
    start = startScript()
  } catch (error) {
    return skip(`start: ${(error as Error).message}`)
  }
  const commands: Command[] = [
    { label: 'node', args: ['-e', FLOOR_JS], path: '/' },
    {
      label: 'loader',
      // The start script's flags with the one-line server in place of server.ts.
      args: [...(start.bin ? [start.bin] : []), ...start.args.slice(0, -1), FLOOR_TS],
      path: '/',
    },
    { label: 'example', args: [...(start.bin ? [start.bin] : []), ...start.args], path: '/health' },
  ]
  const rounds = settings.quick ? 3 : 7
  const times: Record<string, number[]> = { node: [], loader: [], example: [] }
  const load: number[] = []
  try {
    // Warm-up: fills the loader's transform cache and the file cache (a warm install).
    for (const c of commands) await timeToFirstAnswer(c)
    for (let r = 0; r < rounds; r++) {
      load.push(os.loadavg()[0] ?? 0)
      // Rotate the order so a burst of outside load does not always land on the same command.
      for (let i = 0; i < commands.length; i++) {
        const c = commands[(r + i) % commands.length] as Command
        ;(times[c.label] as number[]).push(await timeToFirstAnswer(c))
      }
    }
  } catch (error) {
    return skip(`start: ${(error as Error).message}`)
  }
  const node = times.node as number[]
  const loader = times.loader as number[]
  const example = times.example as number[]
  const loaderOwn = loader.map((t, i) => t - (node[i] as number))
  const ours = example.map((t, i) => t - (loader[i] as number))
  const share = ours.map((t, i) => t / (example[i] as number))
  addRow({
    table: T,
    name: 'plain Node, one-line node:http server',
    value: summary(node),
    note: '`node -e …`: the floor of any Node server',
  })
  addRow({
    table: T,
    name: 'the start command, one-line server',
    value: summary(loader),
    note: `\`${[start.script.split(/\s+/)[0], ...start.args.slice(0, -1)].join(' ')} <one-line server>\`: the loader's floor; ${sec(median(loaderOwn))} above plain Node (median of per-round differences)`,
  })
  addRow({
    table: T,
    name: 'the start command, example app',
    value: summary(example),
    note: `\`${start.script}\` in examples/, polled on GET /health`,
  })
  addRow({
    table: T,
    name: "the app's own share (example minus loader floor)",
    value: summary(ours),
    note: `${(median(share) * 100).toFixed(0)}% of the start (median of per rounds); loading and running the example's modules and createApp()`,
  })
  results.notes.push(
    `Start: the direct command of \`examples/package.json\`'s start script (\`${start.script}\`, run as \`node <tsx's bin> …\`), spawned with a free PORT, timed to the first answered GET on loopback (polled every 5 ms); ${rounds} interleaved rounds after one warm-up of each, load average (1 min) at each round's start: ${load.map((l) => l.toFixed(2)).join(', ')}. The \`npx -y pnpm@10 start\` in front of it (npx resolving pnpm, pnpm reading the workspace) is the package manager's time and is not measured.`,
  )
  // Target: what the example adds on top of its loader's floor, per round.
  const limit = 1.0
  const ratio = ours.map((t, i) => t / (loader[i] as number))
  addTarget({
    goal: `Start to first answered request: the example app's own share at most ${limit.toFixed(1)}x the loader's floor (same command, one-line server)`,
    measured: `${median(ratio).toFixed(2)}x (median of per-round ratios; ${Math.min(...ratio).toFixed(2)}–${Math.max(...ratio).toFixed(2)}x), example ${sec(median(example))}, loader floor ${sec(median(loader))}`,
    met: median(ratio) <= limit,
  })
}
