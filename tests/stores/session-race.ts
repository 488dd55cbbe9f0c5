/**
 * A logout racing a save, on a real store: bundled into the remote test servers
 * (tests/cloudflare/worker.ts, tests/deno-kv/server.ts) and imported by the Redis tests. Two app
 * instances share one store backend; instance A's store has a gate on its writes, so the test
 * decides exactly where the logout on instance B lands: after A has read the session and before
 * A writes it. No sleeps: the race happens the same way on every run.
 */
import { type SessionStore, sessions } from '@palisade/middleware/sessions'
import { Hono } from 'hono'

const SECRET = 'session-race-secret-0123456789abcdef'

/** A one-shot gate: after `arm()`, the next write that calls `pass()` waits for `release()`. */
export interface WriteGate {
  arm(): { reached: Promise<void>; release(): void }
  pass(): Promise<void>
}

/** A {@link WriteGate}; wrap a store's transport so every write calls `pass()` first. */
export function writeGate(): WriteGate {
  let armed: { reach: () => void; released: Promise<void> } | undefined
  return {
    arm() {
      let reach!: () => void
      let release!: () => void
      const reached = new Promise<void>((r) => {
        reach = r
      })
      const released = new Promise<void>((r) => {
        release = r
      })
      armed = { reach, released }
      return { reached, release }
    },
    async pass() {
      const current = armed
      if (current === undefined) return
      armed = undefined
      current.reach()
      await current.released
    },
  }
}

function sessionApp(store: SessionStore): Hono {
  const app = new Hono()
  app.use(sessions({ secret: SECRET, store }))
  app.post('/set/:k/:v', (c) => {
    c.get('session').set(c.req.param('k'), c.req.param('v'))
    return c.text('ok')
  })
  app.post('/regenerate/:k/:v', (c) => {
    const session = c.get('session')
    session.regenerate()
    session.set(c.req.param('k'), c.req.param('v'))
    return c.text('ok')
  })
  app.post('/clear-set/:k/:v', (c) => {
    const session = c.get('session')
    session.clear()
    session.set(c.req.param('k'), c.req.param('v'))
    return c.text('ok')
  })
  app.post('/logout', (c) => {
    c.get('session').destroy()
    return c.text('bye')
  })
  app.get('/read', (c) => c.json(c.get('session').toJSON()))
  return app
}

const cookieOf = (res: Response) =>
  (res.headers.getSetCookie().find((l) => l.startsWith('sid=')) ?? '').split(';')[0] as string

/** The saves raced against a logout: a merge, a regenerate() and a clear() + set(). */
export const RACED_SAVES = ['/set/cart/apple', '/regenerate/role/admin', '/clear-set/user/mallory']

/** What one race left behind: what the old cookie reads and what A's response set. */
export interface RaceOutcome {
  status: number
  /** The session under the logged-out cookie, read through instance B after the race. */
  after: unknown
  /** The `sid` cookie instance A's response set (`sid=` when it deleted it, '' when none). */
  cookie: string
  /** The session under that new cookie, if A set one with a value. */
  underNewCookie: unknown
}

/**
 * For each of {@link RACED_SAVES}: log in through B, start the save on A, hold A's first write,
 * log out through B, release A. `storeA` must call `gate.pass()` before each write.
 */
export async function raceLogoutAgainstSaves(
  storeA: SessionStore,
  storeB: SessionStore,
  gate: WriteGate,
): Promise<Record<string, RaceOutcome>> {
  const a = sessionApp(storeA)
  const b = sessionApp(storeB)
  const out: Record<string, RaceOutcome> = {}
  for (const path of RACED_SAVES) {
    const cookie = cookieOf(await b.request('/set/user/alice', { method: 'POST' }))
    const held = gate.arm()
    const pending = a.request(path, { method: 'POST', headers: { cookie } })
    let timer: ReturnType<typeof setTimeout> | undefined
    await Promise.race([
      held.reached,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${path}: no write reached the gate`)), 10_000)
      }),
    ])
    clearTimeout(timer)
    await b.request('/logout', { method: 'POST', headers: { cookie } })
    held.release()
    const res = await pending
    const set = cookieOf(res)
    out[path] = {
      status: res.status,
      after: await (await b.request('/read', { headers: { cookie } })).json(),
      cookie: set,
      underNewCookie:
        set.length > 'sid='.length
          ? await (await b.request('/read', { headers: { cookie: set } })).json()
          : null,
    }
  }
  return out
}

/** What {@link raceCreateAgainstUpdate} saw. */
export interface CreateRaceOutcome {
  /** Whether B's create ran between A's read and A's write (the race happened). */
  created: boolean
  /** What A's `apply` was given, call by call. */
  seen: unknown[]
  /** What A's `update` resolved with. */
  written: unknown
  /** The session as B reads it afterwards. */
  stored: unknown
}

/**
 * The outcome of {@link raceCreateAgainstUpdate} on a correct store: A's first write lost (the
 * session exists now), so A read again and applied its change on top of B's session.
 */
export const CREATE_RACE_KEPT: CreateRaceOutcome = {
  created: true,
  seen: [null, { owner: 'b' }],
  written: { owner: 'b', mine: true },
  stored: { owner: 'b', mine: true },
}

/**
 * The "expected missing" branch of a compare-and-set `update`: A reads a session that does not
 * exist, B creates it, then A writes. `makeA(create)` returns A's store, whose transport must
 * await `create()` right after a read that found nothing; only the first call creates. A must
 * not overwrite B's session: its write fails, and it applies its change again on top.
 */
export async function raceCreateAgainstUpdate(
  makeA: (create: () => Promise<void>) => SessionStore,
  storeB: SessionStore,
): Promise<CreateRaceOutcome> {
  let created = false
  const storeA = makeA(async () => {
    if (created) return
    created = true
    await storeB.set('s', { owner: 'b' }, 3600)
  })
  const seen: unknown[] = []
  const update = storeA.update
  if (update === undefined) throw new Error('the store has no update()')
  const written = await update.call(
    storeA,
    's',
    (current) => {
      seen.push(current)
      return { ...current, mine: true }
    },
    3600,
  )
  return { created, seen, written, stored: await storeB.get('s') }
}
