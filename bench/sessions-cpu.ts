/**
 * CPU per request of `sessions()` against another checkout's `sessions()`, in one process:
 *
 *   node --import tsx sessions-cpu.ts --against=/path/to/other/checkout [--rounds=40] [--batch=2000]
 *     [--cases=none,read,rolling,write]
 *
 * (from bench/; both checkouts built: each side is its checkout's `dist/`, as the rest of the bench
 * measures). Cases, each through `app.request()` on a plain Hono app with one route:
 * - no cookie: the handler reads a key of the fresh, empty session;
 * - read: a valid cookie, the handler reads one key and changes nothing;
 * - rolling read: the same with `rolling: true` (every request saves to extend the expiry);
 * - write: a valid cookie, the handler changes one key (a save and a Set-Cookie every request).
 *
 * Batches of requests rotate through the two implementations and a bare route (the same handler
 * without the middleware), and each batch's `process.cpuUsage()` is set beside its neighbours':
 * the figures are medians of per-round ratios, which a loaded machine barely moves. "overhead"
 * is the middleware's own share, (ours − bare) / (theirs − bare), per round. `node --cpu-prof` on this script
 * shows both implementations in one profile, told apart by their file paths.
 */
import path from 'node:path'
import { Hono } from 'hono'
import { SESSION_ID, SESSION_SECRET, signSessionId } from './lib/fixtures'

interface SessionsModule {
  sessions: (options: Record<string, unknown>) => Parameters<Hono['use']>[1]
  MemorySessionStore: new () => {
    set(id: string, data: Record<string, unknown>, maxAge: number): Promise<void>
  }
}
interface Session {
  get(key: string): unknown
  set(key: string, value: unknown): void
}

const args = process.argv.slice(2)
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3)
const against = flag('against')
if (against === undefined) {
  console.error('usage: node --import tsx sessions-cpu.ts --against=<other checkout> [--rounds=N]')
  process.exit(2)
}
const rounds = Number(flag('rounds') ?? 40)
const batch = Number(flag('batch') ?? 2000)

const ours = (await import('@palisade/middleware/sessions')) as unknown as SessionsModule
const theirs = (await import(
  path.resolve(against, 'packages/middleware/dist/sessions/index.js')
)) as SessionsModule

const DATA = { user: 'user-1', visits: 1, roles: ['reader', 'editor'], prefs: { theme: 'dark' } }
const cookie = `sid=${await signSessionId(SESSION_ID)}`

type Kind = 'none' | 'read' | 'rolling' | 'write'
async function app(m: SessionsModule | null, kind: Kind): Promise<Hono> {
  const a = new Hono()
  if (m === null) {
    // The floor: the route alone, with a stand-in session object for the handler to read.
    const stub: Session = { get: (k) => (k === 'user' ? 'user-1' : undefined), set: () => {} }
    a.use('*', async (c, next) => {
      ;(c.set as (k: string, v: unknown) => void)('session', stub)
      await next()
    })
  } else {
    const store = new m.MemorySessionStore()
    await store.set(SESSION_ID, { ...DATA }, 86_400)
    a.use('*', m.sessions({ secret: SESSION_SECRET, store, rolling: kind === 'rolling' }))
  }
  let n = 0
  a.get('/', (c) => {
    const session = (c.get as (k: string) => unknown)('session') as Session
    if (kind === 'write') session.set('visits', ++n)
    const user = session.get('user')
    return c.text(kind === 'none' || user === 'user-1' ? 'ok' : 'no session')
  })
  return a
}

async function run(a: Hono, headers: Record<string, string>, n: number): Promise<number> {
  const before = process.cpuUsage()
  for (let i = 0; i < n; i++) {
    const res = await a.request('/', { headers })
    if (res.status !== 200 || (await res.text()) !== 'ok') throw new Error('unexpected answer')
  }
  const used = process.cpuUsage(before)
  return (used.user + used.system) / n
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y)
  return s[Math.floor(s.length / 2)] as number
}

console.log(`sessions CPU per request, ours vs ${against} (${rounds} rounds × ${batch})`)
const kinds = (flag('cases')?.split(',') ?? ['none', 'read', 'rolling', 'write']) as Kind[]
for (const kind of kinds) {
  const headers: Record<string, string> = kind === 'none' ? {} : { cookie }
  const apps = [await app(ours, kind), await app(theirs, kind), await app(null, kind)]
  for (const a of apps) await run(a, headers, batch)
  const ratios: number[] = []
  const overheads: number[] = []
  const us: number[][] = [[], [], []]
  for (let r = 0; r < rounds; r++) {
    const t: number[] = []
    // Rotate the order (A B C, B C A, C A B) so no side always runs first.
    for (let i = 0; i < 3; i++) {
      const k = (r + i) % 3
      t[k] = await run(apps[k] as Hono, headers, batch)
    }
    const [x, y, z] = t as [number, number, number]
    for (let k = 0; k < 3; k++) (us[k] as number[]).push(t[k] as number)
    ratios.push(x / y)
    overheads.push((x - z) / (y - z))
  }
  console.log(
    `${kind.padEnd(8)} ours/theirs ${median(ratios).toFixed(2)}x ${quartiles(ratios)}, overhead ${median(
      overheads,
    ).toFixed(2)}x ${quartiles(overheads)}; median µs ours ${median(us[0] as number[]).toFixed(
      1,
    )}, theirs ${median(us[1] as number[]).toFixed(1)}, bare ${median(us[2] as number[]).toFixed(1)}`,
  )
}

function quartiles(xs: number[]): string {
  const s = [...xs].sort((p, q) => p - q)
  const q = (f: number) => (s[Math.floor(f * s.length)] as number).toFixed(2)
  return `(quartiles ${q(0.25)}–${q(0.75)})`
}
