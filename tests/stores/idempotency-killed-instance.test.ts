/**
 * The killed instance, for idempotency: app instance A takes the lock of an Idempotency-Key on a
 * shared store (Redis, then PostgreSQL) and dies while its handler runs: from then on nothing it
 * sends reaches the store, so it neither completes nor releases. Instance B, on the same store,
 * answers the retry 409 while A's lock lives, and runs it once the lock's lease (`lockMs`) has
 * passed, with no release from A. A's late answer never overwrites B's.
 *
 * Timing is judged against what the store was told: A's `begin` was sent at `sent` and answered
 * at `acked`, so its lock ends between `sent + lockMs` and `acked + lockMs`.
 */
import { type IdempotencyStore, idempotency } from '@palisade/middleware/idempotency'
import { PostgresIdempotencyStore } from '@palisade/middleware/postgres'
import { RedisIdempotencyStore } from '@palisade/middleware/redis'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { Lifeline, sharedBackends, sleep } from './harness'

const LOCK_MS = 1_000
const KEY = `"killed-${Date.now()}"`

/** An app instance on `store`: POST /pay runs `work` and answers which instance paid. */
function instance(name: string, store: IdempotencyStore, work: () => Promise<void>) {
  const app = new Hono()
  let runs = 0
  app.post(
    '/pay',
    idempotency({ store, lockMs: LOCK_MS, scope: () => 'client-1', onStoreError: () => {} }),
    async (c) => {
      runs++
      await work()
      return c.json({ paidBy: name })
    },
  )
  const pay = () =>
    app.request('/pay', {
      method: 'POST',
      body: '{"amount":5}',
      headers: { 'idempotency-key': KEY },
    })
  return { pay, runs: () => runs }
}

async function killedInstance(storeA: IdempotencyStore, storeB: IdempotencyStore, line: Lifeline) {
  let entered: () => void = () => {}
  const inHandler = new Promise<void>((r) => {
    entered = r
  })
  let finish: () => void = () => {}
  const gate = new Promise<void>((r) => {
    finish = r
  })
  const a = instance('A', storeA, async () => {
    entered()
    await gate
  })
  const b = instance('B', storeB, async () => {})
  const first = a.pay()
  await inHandler
  line.kill()

  const refused = await b.pay()
  expect(Date.now()).toBeLessThan(line.sent + LOCK_MS)
  expect(refused.status).toBe(409)
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)

  // No release ever comes from A. Past the latest possible end of its lock, B runs the retry.
  await sleep(Math.max(0, line.acked + LOCK_MS + 50 - Date.now()))
  const retried = await b.pay()
  expect(await retried.json()).toEqual({ paidBy: 'B' })
  expect(b.runs()).toBe(1)

  // A's handler finishes long after its death: its answer reaches its client, but not the store.
  finish()
  expect(await (await first).json()).toEqual({ paidBy: 'A' })
  const replay = await b.pay()
  expect(replay.headers.get('idempotent-replayed')).toBe('true')
  expect(await replay.json()).toEqual({ paidBy: 'B' })
  expect(b.runs()).toBe(1)
}

describe('a killed instance: its idempotency lock expires after its lease on a shared store', () => {
  const { send, pool, prefix, table } = sharedBackends('idem-killed')

  it('on Redis', async () => {
    const line = new Lifeline()
    await killedInstance(
      new RedisIdempotencyStore({ sendCommand: line.redis(send), prefix }),
      new RedisIdempotencyStore({ sendCommand: send, prefix }),
      line,
    )
  })

  it('on PostgreSQL', async () => {
    const line = new Lifeline()
    const storeB = new PostgresIdempotencyStore({ client: pool, table })
    await storeB.migrate()
    await killedInstance(
      new PostgresIdempotencyStore({ client: line.postgres(pool), table }),
      storeB,
      line,
    )
  })
})
