/**
 * The README's start command, on a warm install: the time from spawning the process that
 * `examples/package.json`'s start script runs (`tsx … server.ts`; the `npx pnpm start` wrapper in
 * front of it is the package manager's, not ours) to the first answered HTTP request, polled on
 * loopback with small GETs. Beside it, two floors started and polled the same way, so the row
 * says what is ours: plain Node serving a one-line `node:http` server, and the same one-line
 * server started by the start script's own loader command and flags. Rounds interleave the three.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { createServer } from 'node:net'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { settings } from '../lib/measure'
import { addRow, heading, results, skip } from '../lib/results'

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

/**
 * CPU time (user + system, ms) used so far by every process in the group `pgid` (the start
 * command may be more than one process), from /proc; `undefined` where there is no /proc.
 * Unlike wall time it barely moves when other work shares the machine.
 */
function groupCpuMs(pgid: number): number | undefined {
  let dirs: string[]
  try {
    dirs = readdirSync('/proc').filter((d) => /^\d+$/.test(d))
  } catch {
    return undefined
  }
  let ticks = 0
  for (const d of dirs) {
    let stat: string
    try {
      stat = readFileSync(`/proc/${d}/stat`, 'utf8')
    } catch {
      continue // gone meanwhile
    }
    // Fields after the command name (which may hold spaces): state ppid pgrp … utime stime.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(f[2]) === pgid) ticks += Number(f[11]) + Number(f[12])
  }
  return ticks * 10 // USER_HZ is 100 on Linux
}

interface Timing {
  wall: number
  cpu: number | undefined
}

/** Spawn to the first answered request: wall ms and the group's CPU ms; stopped after. */
async function timeToFirstAnswer(cmd: Command, env: Record<string, string> = {}): Promise<Timing> {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(process.execPath, cmd.args, {
    cwd: EXAMPLES,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', NODE_OPTIONS: '', ...env },
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
        const wall = performance.now() - started
        if (status !== 200) throw new Error(`${cmd.label}: first answer was ${status}`)
        return { wall, cpu: child.pid ? groupCpuMs(child.pid) : undefined }
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

/** Where a loaded module comes from: our packages, the example, or the npm package by name. */
function origin(url: string): string {
  if (url.startsWith('node:')) return 'node'
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (pkg) return pkg[1] as string
  if (/\/packages\/[^/]+\/src\//.test(url)) return 'ours (packages/*/src)'
  if (url.includes('/examples/')) return 'ours (examples/)'
  return 'other'
}

/** One more start of the example with a load hook: which modules it loads, by origin. */
async function modulesLoaded(cmd: Command): Promise<Map<string, number> | undefined> {
  const dir = mkdtempSync(join(os.tmpdir(), 'palisade-start-'))
  const file = join(dir, 'modules.txt')
  try {
    const hook = fileURLToPath(new URL('../lib/start-modules.mjs', import.meta.url))
    await timeToFirstAnswer(
      { ...cmd, args: [...cmd.args.slice(0, -1), '--import', hook, ...cmd.args.slice(-1)] },
      { START_MODULES_FILE: file },
    )
    const counts = new Map<string, number>()
    for (const url of new Set(readFileSync(file, 'utf8').split('\n').filter(Boolean))) {
      const o = origin(url)
      counts.set(o, (counts.get(o) ?? 0) + 1)
    }
    return counts
  } catch {
    return undefined
  } finally {
    rmSync(dir, { recursive: true, force: true })
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
  const cpus: Record<string, number[]> = { node: [], loader: [], example: [] }
  const load: number[] = []
  try {
    // Warm-up: fills the loader's transform cache and the file cache (a warm install).
    for (const c of commands) await timeToFirstAnswer(c)
    for (let r = 0; r < rounds; r++) {
      load.push(os.loadavg()[0] ?? 0)
      // Rotate the order so a burst of outside load does not always land on the same command.
      for (let i = 0; i < commands.length; i++) {
        const c = commands[(r + i) % commands.length] as Command
        const t = await timeToFirstAnswer(c)
        ;(times[c.label] as number[]).push(t.wall)
        if (t.cpu !== undefined) (cpus[c.label] as number[]).push(t.cpu)
      }
    }
  } catch (error) {
    return skip(`start: ${(error as Error).message}`)
  }
  const wall = (k: string) => times[k] as number[]
  const cpu = (k: string) => ((cpus[k] as number[]).length === rounds ? cpus[k] : undefined)
  const minus = (a: number[], b: number[]) => a.map((t, i) => t - (b[i] as number))
  const both = (k: string) => {
    const c = cpu(k)
    return `${summary(wall(k))}; CPU ${c ? summary(c) : 'not measured (no /proc)'}`
  }
  const launcher = [start.script.split(/\s+/)[0], ...start.args.slice(0, -1)].join(' ')
  addRow({
    table: T,
    name: 'plain Node, one-line node:http server',
    value: both('node'),
    note: '`node -e …`: the floor of any Node server',
  })
  addRow({
    table: T,
    name: 'the start command, one-line server',
    value: both('loader'),
    note: `\`${launcher} <one-line server>\`: the loader's floor, ${sec(median(minus(wall('loader'), wall('node'))))} above plain Node (median of per-round differences)`,
  })
  addRow({
    table: T,
    name: 'the start command, example app',
    value: both('example'),
    note: `\`${start.script}\` in examples/, polled on GET /health`,
  })
  const ours = minus(wall('example'), wall('loader'))
  const oursCpu =
    cpu('example') && cpu('loader')
      ? minus(cpu('example') as number[], cpu('loader') as number[])
      : undefined
  addRow({
    table: T,
    name: "the app's own share (example minus loader floor)",
    value: `${summary(ours)}; CPU ${oursCpu ? summary(oursCpu) : 'not measured'}`,
    note: `${(median(ours.map((t, i) => t / (wall('example')[i] as number))) * 100).toFixed(0)}% of the start's wall time (median of per-round shares): resolving, loading and running the example's modules (ours, hono, zod, jose) and createApp()`,
  })
  results.notes.push(
    `Start: the direct command of \`examples/package.json\`'s start script (\`${start.script}\`, spawned as this Node without a shell), with a free PORT, timed to the first answered GET on loopback (polled every 5 ms); CPU = user + system time of the command's process group at that moment (/proc). ${rounds} interleaved rounds after one warm-up of each; load average (1 min) at each round's start: ${load.map((l) => l.toFixed(2)).join(', ')}. The \`npx -y pnpm@10\` in front of \`start\` (npx resolving pnpm, pnpm reading the workspace) is the package manager's time and is not measured.`,
  )
  // Shown, not judged: most of the app's share is loading modules (ours and its dependencies')
  // through the loader, a cost of running from source that a built app does not pay the same
  // way, and no ratio to the floor would say which of them to cut. The count by origin does.
  const modules = await modulesLoaded(commands[2] as Command)
  if (modules) {
    const total = [...modules.values()].reduce((a, b) => a + b, 0)
    addRow({
      table: T,
      name: 'modules the example start loads, by origin',
      value: `${total}: ${[...modules]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
      note: 'counted in one more start with a module.register load hook (not timed)',
    })
  } else skip('start: module count (the load hook run failed)')
}
