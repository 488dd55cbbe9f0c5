/**
 * The killed instance: app instance A takes concurrency slots on a shared store (Redis, then
 * PostgreSQL) with slow requests, and dies mid-request: from then on nothing it sends reaches the
 * store, so it neither renews nor releases. Instance B, on the same store, is refused while A's
 * leases run and gets every slot back once they expire, with no release from A.
 *
 * Timing is judged against what the store was told, never assumed: A's last successful write was
 * sent at `sent` and answered at `acked`, so its leases expire between `sent +
 * leaseMs` and `acked + leaseMs`.
 */
import { type ConcurrencyStore, concurrencyLimit } from '@palisade/middleware/concurrency-limit'
import { PostgresConcurrencyStore } from '@palisade/middleware/postgres'
import { RedisConcurrencyStore } from '@palisade/middleware/redis'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { Lifeline, sharedBackends, sleep } from './harness'

const LEASE_MS = 1_000

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

/** An app instance on `store`: `/slow` waits for `gate`, `/` answers at once. */
function instance(store: ConcurrencyStore, gate: Promise<void>, onEnter: () => void) {
  const app = new Hono()
  app.use(
    concurrencyLimit({
      max: 2,
      store,
      key: () => 'tenant-1',
      leaseMs: LEASE_MS,
      onStoreError: () => {},
    }),
  )
  app.get('/slow', async (c) => {
    onEnter()
    await gate
    return c.text('slow')
  })
  app.get('/', (c) => c.text('ok'))
  return app
}

/** Runs the scenario: A (on a lifeline) holds both slots and dies, B waits out the leases. */
async function killedInstance(storeA: ConcurrencyStore, storeB: ConcurrencyStore, line: Lifeline) {
  const gate = deferred()
  const bothIn = deferred()
  let entered = 0
  const a = instance(storeA, gate.promise, () => {
    if (++entered === 2) bothIn.resolve()
  })
  const b = instance(storeB, new Promise(() => {}), () => {})
  const held = [a.request('/slow'), a.request('/slow')]
  await bothIn.promise
  // A renews while its requests run (every leaseMs / 2): wait for a renewal to reach the store.
  const firstAck = line.acked
  while (line.acked === firstAck) await sleep(25)

  line.kill()
  const killedAt = Date.now()
  const refused = await b.request('/')
  // Valid only while A's last lease is certainly still running.
  expect(Date.now()).toBeLessThan(line.sent + LEASE_MS)
  expect(refused.status).toBe(429)

  // No release ever comes from A. Past the latest possible expiry, B has both slots.
  await sleep(Math.max(0, line.acked + LEASE_MS + 50 - Date.now()))
  expect(Date.now() - killedAt).toBeLessThan(LEASE_MS + 1_000)
  const bothB = deferred()
  let enteredB = 0
  const gateB = deferred()
  const b2 = instance(storeB, gateB.promise, () => {
    if (++enteredB === 2) bothB.resolve()
  })
  const bRequests = [b2.request('/slow'), b2.request('/slow')]
  await bothB.promise
  expect((await b.request('/')).status).toBe(429)
  gateB.resolve()
  for (const r of await Promise.all(bRequests)) expect(await r.text()).toBe('slow')

  // A's handlers finish long after its death; their releases fail and free nothing of B's.
  gate.resolve()
  for (const r of await Promise.all(held)) await r.text()
  expect((await b.request('/')).status).toBe(200)
}

describe('a killed instance: its leases expire on a shared store', () => {
  const { send, pool, prefix, table } = sharedBackends('killed')

  it('on Redis', async () => {
    const line = new Lifeline()
    const storeA = new RedisConcurrencyStore({ sendCommand: line.redis(send), prefix })
    const storeB = new RedisConcurrencyStore({ sendCommand: send, prefix })
    await killedInstance(storeA, storeB, line)
  })

  it('on PostgreSQL', async () => {
    const line = new Lifeline()
    const storeA = new PostgresConcurrencyStore({ client: line.postgres(pool), table })
    const storeB = new PostgresConcurrencyStore({ client: pool, table })
    await storeB.migrate()
    await killedInstance(storeA, storeB, line)
  })
})
