/**
 * The API-key lifecycle every ApiKeyLifecycleStore must show, whatever backs it: records with
 * expiry, scopes, limits and revocation; rotation keeping the id; revocation reaching every
 * secret of an id; lastUsedAt; and, through a second instance (another client, process or
 * runtime on the same data), a key rotated with a 1 s overlap working for that second and then
 * refused. Real time, no fake timers: stores that keep time outside the process are held to the
 * same contract.
 */
import {
  type ApiKeyLifecycleStore,
  type ApiKeyStore,
  apiKey,
  createApiKey,
  isWellFormedApiKey,
} from '@palisade/middleware/api-key'
import { Hono } from 'hono'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

/** Options of {@link apiKeyLifecycleConformance}. */
export interface ApiKeyLifecycleOptions<S> {
  /** Called after each test with the store the factory returned. */
  release?: (store: S) => unknown
  /** Another instance over the same data as `store` (another client, process or runtime). */
  peer?: (store: S) => ApiKeyStore | Promise<ApiKeyStore>
  /** Everything the store holds, as text: a test proves no created key appears in it. */
  dump?: (store: S) => Promise<string>
  /**
   * Another lifecycle store over the same data as `store`, on its own connection: rotate and
   * revoke race through both instances.
   */
  racer?: (store: S) => ApiKeyLifecycleStore | Promise<ApiKeyLifecycleStore>
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const sleepUntil = (t: number) => sleep(Math.max(0, t - Date.now()))

/** Registers the lifecycle tests for the stores `makeStore` returns (fresh and empty). */
export function apiKeyLifecycleConformance<S extends ApiKeyLifecycleStore>(
  name: string,
  makeStore: () => S | Promise<S>,
  options: ApiKeyLifecycleOptions<S> = {},
): void {
  describe(`ApiKeyLifecycleStore conformance: ${name}`, () => {
    let current: S | undefined
    beforeEach(async () => {
      current = await makeStore()
    })
    afterEach(async () => {
      if (current !== undefined) await options.release?.(current)
      current = undefined
    })
    const store = () => current as S

    it('keeps the whole record of a created key', async () => {
      const expiresAt = Date.now() + 3_600_000
      const before = Date.now()
      const { id, key } = await createApiKey({
        store: store(),
        prefix: 'pal_live',
        scopes: ['comments:read', 'comments:write'],
        limits: { perMinute: 600, monthly: 100_000 },
        metadata: { customer: 'acme', plan: 'pro' },
        expiresAt,
      })
      expect(isWellFormedApiKey(key, ['pal_live'])).toBe(true)
      const info = await store().validate(key)
      expect(info).toMatchObject({
        id,
        scopes: ['comments:read', 'comments:write'],
        limits: { perMinute: 600, monthly: 100_000 },
        metadata: { customer: 'acme', plan: 'pro' },
        expiresAt,
        prefix: 'pal_live',
      })
      expect(info?.createdAt).toBeGreaterThanOrEqual(before)
      expect(info?.revokedAt).toBeUndefined()
      expect(await store().get(id)).toEqual(info)
      expect(await store().get('no-such-id')).toBeNull()
    })

    it('revoke(id) marks every secret of the id, keeps the first time, and reports unknown ids', async () => {
      const { id, key } = await createApiKey({ store: store(), prefix: 'pal_live' })
      const next = await store().rotate(id, { overlapMs: 60_000 })
      expect(await store().revoke(id, 1_000)).toBe(true)
      expect(await store().revoke(id, 2_000)).toBe(true)
      expect((await store().validate(key))?.revokedAt).toBe(1_000)
      expect((await store().validate(next.key))?.revokedAt).toBe(1_000)
      expect(await store().revoke('no-such-id')).toBe(false)
    })

    it('expire(id, at) only lowers expiresAt', async () => {
      const late = Date.now() + 3_600_000
      const { id, key } = await createApiKey({
        store: store(),
        prefix: 'pal_live',
        expiresAt: late,
      })
      expect(await store().expire(id, late + 1_000)).toBe(true)
      expect((await store().validate(key))?.expiresAt).toBe(late)
      expect(await store().expire(id, late - 1_000)).toBe(true)
      expect((await store().validate(key))?.expiresAt).toBe(late - 1_000)
      expect(await store().expire('no-such-id', late)).toBe(false)
    })

    it('rotate keeps the id and the record, gives a new key, and ends the old one after the overlap', async () => {
      const { id, key } = await createApiKey({
        store: store(),
        prefix: 'pal_test',
        scopes: ['read'],
        limits: { perMinute: 10 },
      })
      const before = Date.now()
      const next = await store().rotate(id, { overlapMs: 60_000 })
      const after = Date.now()
      expect(next.id).toBe(id)
      expect(next.key).not.toBe(key)
      expect(isWellFormedApiKey(next.key, ['pal_test'])).toBe(true)
      const fresh = await store().validate(next.key)
      expect(fresh).toMatchObject({ id, scopes: ['read'], limits: { perMinute: 10 } })
      expect(fresh?.expiresAt).toBeUndefined()
      const old = await store().validate(key)
      expect(old?.expiresAt).toBeGreaterThanOrEqual(before + 60_000)
      expect(old?.expiresAt).toBeLessThanOrEqual(after + 60_000)
      expect((await store().get(id))?.createdAt).toBe(fresh?.createdAt)
      await expect(store().rotate('no-such-id')).rejects.toThrow()
    })

    it('touch writes lastUsedAt on a stored key and never creates one', async () => {
      const { id, key } = await createApiKey({ store: store(), prefix: 'pal_live' })
      await store().touch(key, 1_234_567)
      expect((await store().validate(key))?.lastUsedAt).toBe(1_234_567)
      expect((await store().get(id))?.lastUsedAt).toBe(1_234_567)
      const ghost = 'pal_live_never_stored_0123456789'
      await store().touch(ghost, 1)
      expect(await store().validate(ghost)).toBeNull()
    })

    it('remove of one secret leaves the id with its other secret', async () => {
      const { id, key } = await createApiKey({ store: store(), prefix: 'pal_live' })
      const next = await store().rotate(id, { overlapMs: 60_000 })
      expect(await store().remove(key)).toBe(true)
      expect((await store().get(id))?.id).toBe(id)
      expect(await store().revoke(id)).toBe(true)
      expect((await store().validate(next.key))?.revokedAt).toBeTypeOf('number')
    })

    if (options.dump) {
      const dump = options.dump
      it('stores hashes only: no created key appears in what the store holds', async () => {
        const { id, key } = await createApiKey({
          store: store(),
          prefix: 'pal_live',
          metadata: { owner: 'billing' },
        })
        const next = await store().rotate(id, { overlapMs: 1_000 })
        const dumped = await dump(store())
        expect(dumped).toContain('billing')
        for (const k of [key, next.key]) {
          expect(dumped).not.toContain(k.slice('pal_live_'.length))
        }
      })
    }

    if (options.racer) {
      const racer = options.racer
      /** `calls` operations on one id, alternating between two instances, all at once. */
      const race = async (calls: number, revokeEvery: number) => {
        const stores = [store(), await racer(store())] as const
        const { id, key } = await createApiKey({ store: stores[0], prefix: 'pal_live' })
        const outcomes = await Promise.all(
          Array.from({ length: calls }, async (_, i) => {
            const s = stores[i % 2] as ApiKeyLifecycleStore
            if (revokeEvery > 0 && i % revokeEvery === revokeEvery - 1) {
              return { op: 'revoke' as const, found: await s.revoke(id) }
            }
            try {
              return { op: 'rotate' as const, key: (await s.rotate(id)).key }
            } catch (error) {
              return { op: 'rotate' as const, error: error as Error }
            }
          }),
        )
        return { stores, id, key, outcomes }
      }

      it('rotate and revoke racing on one id (20 calls, two instances) leave every secret revoked', async () => {
        for (let round = 0; round < 5; round++) {
          const { stores, id, key, outcomes } = await race(20, 5)
          const keys = [key]
          for (const o of outcomes) {
            if (o.op === 'revoke') expect(o.found).toBe(true)
            else if (o.key !== undefined) keys.push(o.key)
            // A rotation that met the revocation says so; nothing else may fail.
            else expect(o.error).toMatchObject({ name: 'TypeError', message: /revoked/ })
          }
          // Never resurrected: the old key and every key a rotation returned are revoked, on both
          // instances, and the id stays revoked.
          for (const s of stores) {
            for (const k of keys) expect((await s.validate(k))?.revokedAt, k).toBeTypeOf('number')
            expect((await s.get(id))?.revokedAt).toBeTypeOf('number')
          }
          await expect(stores[1].rotate(id)).rejects.toThrow(/revoked/)
        }
      })

      it('rotations racing on one id (20 calls, two instances) end every key but the newest, which works', async () => {
        for (let round = 0; round < 3; round++) {
          const { stores, id, key, outcomes } = await race(20, 0)
          const now = Date.now()
          const fresh: string[] = []
          for (const o of outcomes) {
            expect(o).not.toHaveProperty('error')
            if (o.op === 'rotate' && o.key !== undefined) fresh.push(o.key)
          }
          expect(fresh).toHaveLength(20)
          for (const s of stores) {
            // Each rotation (overlap 0) ended the secrets before it, as if they ran one by one:
            // the old key and 19 new ones are expired, never revoked; the newest works.
            const old = await s.validate(key)
            expect(old?.expiresAt).toBeLessThanOrEqual(now)
            expect(old?.revokedAt).toBeUndefined()
            const records = await Promise.all(fresh.map((k) => s.validate(k)))
            for (const r of records) expect(r?.revokedAt).toBeUndefined()
            const working = records.filter((r) => r !== null && r.expiresAt === undefined)
            expect(working).toHaveLength(1)
            expect(await s.get(id)).toEqual(working[0])
          }
        }
      })
    }

    if (options.peer) {
      const peer = options.peer
      it('a key rotated with a 1 s overlap works for 1 s on another instance, then stops', async () => {
        const { id, key } = await createApiKey({ store: store(), prefix: 'pal_live' })
        const app = new Hono()
        // The peer writes lastUsedAt after its first answer (trackLastUsed, the default) while
        // this instance rotates: on Deno KV two local processes share one SQLite file, and that
        // write once raced `rotate` into "database is locked" (a CI run). touch now skips a busy
        // file and rotate tries it again, so the two go together.
        app.use('*', apiKey({ store: await peer(store()), prefix: 'pal_live' }))
        app.get('/', (c) => c.text(c.get('apiKey').id))
        const status = async (k: string) =>
          (await app.request('/', { headers: { 'x-api-key': k } })).status
        expect(await status(key)).toBe(200)
        const before = Date.now()
        const next = await store().rotate(id, { overlapMs: 1_000 })
        const after = Date.now()
        const sent = Date.now()
        const during = await status(key)
        // The overlap began no earlier than `before`: a request sent within it is served.
        if (sent < before + 1_000) expect(during).toBe(200)
        expect(await status(next.key)).toBe(200)
        await sleepUntil(before + 700)
        const sentLate = Date.now()
        const late = await status(key)
        if (sentLate < before + 1_000) expect(late).toBe(200)
        await sleepUntil(after + 1_050)
        const res = await app.request('/', { headers: { 'x-api-key': key } })
        expect(res.status).toBe(401)
        expect(await res.text()).toBe('API key expired')
        expect(await status(next.key)).toBe(200)
        // Revocation reaches the other instance at once (it keeps no cache).
        await store().revoke(id)
        expect(await status(next.key)).toBe(401)
      })
    }
  })
}
