/**
 * IdempotencyStore conformance: the behaviour every store behind `idempotency` must show, whatever
 * it is backed by (memory, Redis, PostgreSQL, Durable Objects, Deno KV). Call it from a test file
 * with a factory that returns a fresh, empty store:
 *
 *   idempotencyStoreConformance('MemoryIdempotencyStore', () => new MemoryIdempotencyStore())
 *
 * Expiry is checked with real time (locks of a few hundred milliseconds), never fake timers, so
 * stores that keep time outside the process are held to the same contract. Races are started
 * together and judged by their results.
 */
import {
  type IdempotencyStore,
  type IdempotentResponse,
  idempotency,
} from '@palisade/middleware/idempotency'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { type Factory, freshKey, sleep, useStore } from './harness'

export interface IdempotencyConformanceOptions<S> {
  /** Called after each test with the store the factory returned (delete keys, drop tables). */
  release?: (store: S) => unknown
  /** Lock length of the expiry checks, in milliseconds. Default `500`. */
  lockMs?: number
}

const ALL_BYTES = Uint8Array.from({ length: 256 }, (_, i) => i)
const RESPONSE: IdempotentResponse = {
  status: 201,
  headers: [
    ['content-type', 'application/octet-stream'],
    ['location', '/orders/1'],
  ],
  body: ALL_BYTES,
}

/** Counts the calls made to a store's methods: each is one round trip on the shared stores. */
export function countingStore(store: IdempotencyStore): IdempotencyStore & { calls: string[] } {
  const calls: string[] = []
  return {
    calls,
    begin: (...args) => {
      calls.push('begin')
      return store.begin(...args)
    },
    complete: (...args) => {
      calls.push('complete')
      return store.complete(...args)
    },
    release: (...args) => {
      calls.push('release')
      return store.release(...args)
    },
  }
}

/**
 * Registers one vitest `describe` block of IdempotencyStore checks: acquire, in flight, mismatch,
 * complete and replay (byte for byte), lease checks on complete and release, lock and record
 * expiry, an atomic begin under a race of 50, argument checks, and then the store behind
 * `idempotency`: 50 concurrent requests run the handler once, and the round trips of a first
 * request (at most 2) and of a replay (1).
 */
export function idempotencyStoreConformance<S extends IdempotencyStore>(
  name: string,
  makeStore: Factory<S>,
  options?: IdempotencyConformanceOptions<S>,
): void {
  const lockMs = options?.lockMs ?? 500
  describe(`IdempotencyStore conformance: ${name}`, () => {
    const store = useStore(makeStore, options)

    it('locks a new key, then answers in-flight for the same fingerprint and mismatch for another', async () => {
      const key = freshKey('lock')
      expect(await store().begin(key, 'a', 'fp1', 60_000)).toEqual({ state: 'acquired' })
      const busy = await store().begin(key, 'b', 'fp1', 60_000)
      expect(busy.state).toBe('in-flight')
      if (busy.state === 'in-flight') {
        expect(busy.retryAfterMs).toBeGreaterThan(0)
        expect(busy.retryAfterMs).toBeLessThanOrEqual(60_000)
      }
      expect(await store().begin(key, 'c', 'fp2', 60_000)).toEqual({ state: 'mismatch' })
    })

    it('keeps a completed response and gives it back byte for byte, headers in order', async () => {
      const key = freshKey('complete')
      await store().begin(key, 'a', 'fp', 60_000)
      expect(await store().complete(key, 'a', RESPONSE, 60_000)).toBe(true)
      const found = await store().begin(key, 'b', 'fp', 60_000)
      expect(found.state).toBe('completed')
      if (found.state !== 'completed') return
      expect(found.response.status).toBe(201)
      expect(found.response.headers).toEqual(RESPONSE.headers)
      expect(Array.from(found.response.body)).toEqual(Array.from(ALL_BYTES))
      expect(await store().begin(key, 'c', 'other', 60_000)).toEqual({ state: 'mismatch' })
    })

    it('keeps an empty body', async () => {
      const key = freshKey('empty')
      await store().begin(key, 'a', 'fp', 60_000)
      await store().complete(
        key,
        'a',
        { status: 204, headers: [], body: new Uint8Array(0) },
        60_000,
      )
      const found = await store().begin(key, 'b', 'fp', 60_000)
      expect(found).toMatchObject({ state: 'completed', response: { status: 204, headers: [] } })
      if (found.state === 'completed') expect(found.response.body.length).toBe(0)
    })

    it('completes and releases only under the lease that holds the lock', async () => {
      const key = freshKey('lease')
      await store().begin(key, 'a', 'fp', 60_000)
      expect(await store().complete(key, 'other', RESPONSE, 60_000)).toBe(false)
      await store().release(key, 'other')
      expect((await store().begin(key, 'b', 'fp', 60_000)).state).toBe('in-flight')
      await store().release(key, 'a')
      expect(await store().begin(key, 'b', 'fp', 60_000)).toEqual({ state: 'acquired' })
      // A completed record is never released.
      expect(await store().complete(key, 'b', RESPONSE, 60_000)).toBe(true)
      await store().release(key, 'b')
      expect((await store().begin(key, 'c', 'fp', 60_000)).state).toBe('completed')
      expect(await store().complete(key, 'b', RESPONSE, 60_000)).toBe(false)
    })

    it('a lock expires after lockMs (a dead instance holds it no longer); its late complete is refused', async () => {
      const key = freshKey('expiry')
      const sent = Date.now()
      await store().begin(key, 'dead', 'fp', lockMs)
      expect((await store().begin(key, 'b', 'fp', lockMs)).state).toBe('in-flight')
      await sleep(Math.max(0, sent + lockMs + 100 - Date.now()))
      expect(await store().begin(key, 'next', 'fp2', 60_000)).toEqual({ state: 'acquired' })
      expect(await store().complete(key, 'dead', RESPONSE, 60_000)).toBe(false)
      await store().release(key, 'dead')
      expect((await store().begin(key, 'c', 'fp2', 60_000)).state).toBe('in-flight')
    })

    it('a completed record expires after ttlMs', async () => {
      const key = freshKey('ttl')
      await store().begin(key, 'a', 'fp', 60_000)
      const sent = Date.now()
      await store().complete(key, 'a', RESPONSE, lockMs)
      expect((await store().begin(key, 'b', 'fp', 60_000)).state).toBe('completed')
      await sleep(Math.max(0, sent + lockMs + 100 - Date.now()))
      expect(await store().begin(key, 'c', 'fp', 60_000)).toEqual({ state: 'acquired' })
    })

    it('of 50 concurrent begins of one key exactly one acquires', async () => {
      const key = freshKey('race')
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => store().begin(key, `l${i}`, 'fp', 60_000)),
      )
      expect(results.filter((r) => r.state === 'acquired')).toHaveLength(1)
      expect(results.filter((r) => r.state === 'in-flight')).toHaveLength(49)
    })

    it('keeps keys apart, long and odd ones included', async () => {
      const keys = ['["a","k"]', '["b","k"]', 'x'.repeat(5_000), 'nul\u0000key', 'ü\ud800']
      for (const key of keys.map((k) => `${freshKey('apart')}${k}`)) {
        expect(await store().begin(key, 'a', 'fp', 60_000)).toEqual({ state: 'acquired' })
      }
    })

    it('refuses bad arguments', async () => {
      await expect(store().begin(1 as never, 'a', 'fp', 1)).rejects.toThrow(TypeError)
      await expect(store().begin('k', '', 'fp', 1)).rejects.toThrow(TypeError)
      await expect(store().begin('k', 'a', '', 1)).rejects.toThrow(TypeError)
      await expect(store().begin('k', 'a', 'fp', 0)).rejects.toThrow(TypeError)
      await expect(store().complete('k', 'a', { status: 99 } as never, 1)).rejects.toThrow(
        TypeError,
      )
      await expect(store().release('k', 'x'.repeat(200))).rejects.toThrow(TypeError)
    })

    it('behind idempotency: 50 concurrent requests with one key run the handler once', async () => {
      const app = new Hono()
      let runs = 0
      const key = `"${freshKey('app')}"`
      app.post(
        '/pay',
        idempotency({ store: store(), onStoreError: (e) => console.error(e) }),
        async (c) => {
          runs++
          await sleep(30)
          return c.json({ paid: runs })
        },
      )
      const all = await Promise.all(
        Array.from({ length: 50 }, () =>
          app.request('/pay', { method: 'POST', body: '{}', headers: { 'idempotency-key': key } }),
        ),
      )
      const bodies = await Promise.all(all.map((r) => r.text()))
      expect(runs).toBe(1)
      for (const [i, r] of all.entries()) {
        if (r.status === 409) continue
        expect(r.status).toBe(200)
        expect(bodies[i]).toBe('{"paid":1}')
      }
      const replay = await app.request('/pay', {
        method: 'POST',
        body: '{}',
        headers: { 'idempotency-key': key },
      })
      expect(await replay.text()).toBe('{"paid":1}')
      expect(replay.headers.get('idempotent-replayed')).toBe('true')
      expect(runs).toBe(1)
    })

    it('behind idempotency: a first request costs at most two store calls, a replay one', async () => {
      const counted = countingStore(store())
      const app = new Hono()
      app.post('/o', idempotency({ store: counted }), (c) => c.json({ ok: true }, 201))
      app.post('/fail', idempotency({ store: counted }), (c) => c.text('down', 503))
      const init = {
        method: 'POST',
        body: 'x',
        headers: { 'idempotency-key': `"${freshKey('rt')}"` },
      }
      await (await app.request('/o', init)).text()
      expect(counted.calls).toEqual(['begin', 'complete'])
      counted.calls.length = 0
      const replay = await app.request('/o', init)
      expect(replay.headers.get('idempotent-replayed')).toBe('true')
      expect(counted.calls).toEqual(['begin'])
      counted.calls.length = 0
      const other = { ...init, headers: { 'idempotency-key': `"${freshKey('rt')}"` } }
      await (await app.request('/fail', other)).text()
      expect(counted.calls).toEqual(['begin', 'release'])
    })
  })
}
