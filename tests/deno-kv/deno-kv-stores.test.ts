/**
 * The Deno KV stores in the deno binary of the runtime matrix, on a real `Deno.openKv()`:
 * the conformance suite for all three stores (each method runs in Deno, on an in-memory KV),
 * concurrency leases (also through a resolver that returns the promise of the handle), exactness
 * of the rate limit under concurrent requests (atomic check-and-set), two Deno processes on one KV
 * file seeing each other's writes at once, and the stores' option checks.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type ApiKeyLifecycleStore,
  createApiKey,
  type ManagedApiKeyStore,
} from '@palisade/middleware/api-key'
import {
  DenoKvApiKeyStore,
  DenoKvConcurrencyStore,
  type DenoKvLike,
  DenoKvRateLimitStore,
  DenoKvSessionStore,
} from '@palisade/middleware/deno-kv'
import type { NonceStore } from '@palisade/middleware/http-signature'
import type { IdempotencyStore } from '@palisade/middleware/idempotency'
import type { RateLimitStore } from '@palisade/middleware/rate-limit'
import type { SessionStore } from '@palisade/middleware/sessions'
import type { Context } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConcurrencyStore } from '../../packages/middleware/src/concurrency-limit/store'
import { apiKeyLifecycleConformance } from '../stores/api-key-lifecycle-conformance'
import { concurrencyStoreConformance } from '../stores/concurrency-conformance'
import {
  apiKeyStoreConformance,
  logoutRaceConformance,
  rateLimitStoreConformance,
  sessionStoreConformance,
} from '../stores/conformance'
import { raceConsume } from '../stores/consume-race'
import {
  concurrencyHostileConformance,
  rateLimitHostileConformance,
} from '../stores/hostile-conformance'
import { idempotencyStoreConformance } from '../stores/idempotency-conformance'
import { leaseCases } from '../stores/lease-cases'
import { nonceStoreConformance } from '../stores/nonce-conformance'
import { remoteStore } from '../stores/remote'
import { type DenoServer, startDenoServer } from './support'

let memory: DenoServer
const shared: DenoServer[] = []
const dir = mkdtempSync(join(tmpdir(), 'palisade-kv-'))
let counter = 0
const fresh = () => `t${++counter}`

beforeAll(async () => {
  const file = join(dir, 'shared.sqlite')
  memory = await startDenoServer()
  shared.push(await startDenoServer(file), await startDenoServer(file))
})

afterAll(async () => {
  await Promise.all([memory, ...shared].map((s) => s?.stop()))
  rmSync(dir, { recursive: true, force: true })
})

rateLimitStoreConformance(
  'DenoKvRateLimitStore (deno)',
  () => remoteStore<RateLimitStore>(memory, 'rateLimit', fresh()),
  { capabilities: ['slidingWindow', 'tokenBucket', 'decrement', 'consume'] },
)
sessionStoreConformance(
  'DenoKvSessionStore (deno)',
  () => remoteStore<SessionStore>(memory, 'session', fresh()),
  { update: true },
)
logoutRaceConformance('DenoKvSessionStore (deno), two instances', async () =>
  (await memory.fetch(`/race/session?prefix=${fresh()}`, { method: 'POST' })).json(),
)
apiKeyStoreConformance('DenoKvApiKeyStore (deno)', () =>
  remoteStore<ManagedApiKeyStore>(memory, 'apiKey', fresh()),
)
{
  // Two Deno processes on one KV file: the store in the first, its peer in the second.
  const prefixes = new WeakMap<object, string>()
  apiKeyLifecycleConformance(
    'DenoKvApiKeyStore (deno, two processes)',
    () => {
      const prefix = fresh()
      const store = remoteStore<ApiKeyLifecycleStore>(shared[0] as DenoServer, 'apiKey', prefix)
      prefixes.set(store, prefix)
      return store
    },
    {
      peer: (store) =>
        remoteStore<ApiKeyLifecycleStore>(
          shared[1] as DenoServer,
          'apiKey',
          prefixes.get(store) ?? '',
        ),
    },
  )
}
leaseCases(
  'DenoKvConcurrencyStore (deno)',
  () => remoteStore<ConcurrencyStore>(memory, 'concurrency', fresh()),
  {
    leaseMs: 1_500, // each call is a round trip to the Deno process: see the workerd suite
  },
)
idempotencyStoreConformance(
  'DenoKvIdempotencyStore (deno)',
  () => remoteStore<IdempotencyStore>(memory, 'idempotency', fresh()),
  { lockMs: 1_000 },
)
concurrencyStoreConformance('DenoKvConcurrencyStore (deno)', () =>
  remoteStore<ConcurrencyStore>(memory, 'concurrency', fresh()),
)
rateLimitHostileConformance('DenoKvRateLimitStore (deno)', () =>
  remoteStore<RateLimitStore>(memory, 'rateLimit', fresh()),
)
nonceStoreConformance(
  'DenoKvNonceStore (deno)',
  () => remoteStore<NonceStore>(memory, 'nonce', fresh()),
  { ttlMs: 1_000 }, // each call is a round trip to the Deno process
)
nonceStoreConformance(
  'DenoKvNonceStore (deno), through a resolver',
  () => remoteStore<NonceStore>(memory, 'nonce', `resolved/${fresh()}`),
  { ttlMs: 1_000 },
)
concurrencyHostileConformance('DenoKvConcurrencyStore (deno)', () =>
  remoteStore<ConcurrencyStore>(memory, 'concurrency', fresh()),
)
leaseCases(
  'DenoKvConcurrencyStore (deno), built with a resolver of the opening handle',
  () => remoteStore<ConcurrencyStore>(memory, 'concurrency', `resolved/${fresh()}`),
  {
    leaseMs: 1_500, // each call is a round trip to the Deno process: see the workerd suite
  },
)
sessionStoreConformance(
  'DenoKvSessionStore (deno), built with a resolver of the opening handle',
  () => remoteStore<SessionStore>(memory, 'session', `resolved/${fresh()}`),
  { update: true },
)

describe('Deno KV: concurrency leases from two Deno processes on one KV file', () => {
  // Sequential: a shared SQLite file answers "database is locked" under heavy contention (see
  // docs/stores/deno-kv.md); the exactness race runs above, on one KV.
  it("counts one instance's leases in the other at once, and hands a released slot over", async () => {
    const [a, b] = shared as [DenoServer, DenoServer]
    const prefix = fresh()
    const [onA, onB] = [a, b].map((s) => remoteStore<ConcurrencyStore>(s, 'concurrency', prefix))
    expect(await onA?.acquire('shared', 'a1', 2, 60_000)).toEqual({ acquired: true, inFlight: 1 })
    expect(await onB?.acquire('shared', 'b1', 2, 60_000)).toEqual({ acquired: true, inFlight: 2 })
    expect(await onA?.acquire('shared', 'a2', 2, 60_000)).toEqual({ acquired: false, inFlight: 2 })
    await onB?.release('shared', 'b1')
    expect(await onA?.acquire('shared', 'a2', 2, 60_000)).toEqual({ acquired: true, inFlight: 2 })
    expect(await onB?.renew('shared', 'a1', 60_000)).toBe(true)
  })
})

describe('rateLimit on Deno KV inside Deno', () => {
  it.each([
    [200, 25],
    [300, 137],
  ])('lets exactly max of %i concurrent requests through (max %i)', async (n, max) => {
    const client = `burst-${n}-${max}`
    const errors: string[] = []
    const statuses = await Promise.all(
      Array.from({ length: n }, async () => {
        const res = await memory.fetch(`/limited?max=${max}`, { headers: { 'x-client': client } })
        const body = await res.text()
        if (res.status === 503) errors.push(body)
        return res.status
      }),
    )
    const ok = statuses.filter((s) => s === 200).length
    console.info(`deno kv exactness: ${JSON.stringify({ n, max, ok, errors: errors.slice(0, 3) })}`)
    expect(ok).toBe(max)
    expect(statuses.filter((s) => s === 429)).toHaveLength(n - max)
  })

  it.each(['fixed-window', 'sliding-window', 'token-bucket'] as const)(
    '%s consume: of 50 concurrent calls against max 20, exactly 20 pass',
    async (algorithm) => {
      const store = remoteStore<RateLimitStore>(memory, 'rateLimit', fresh())
      const { passed, counts } = await raceConsume(store, algorithm)
      console.info(`consume race (${algorithm}): ${passed} of 50 passed, max 20`)
      expect(passed).toBe(20)
      // Nothing refused was recorded in either limit.
      expect(counts).toEqual([20, 20])
    },
  )
})

describe('Deno KV: two Deno processes sharing one KV file', () => {
  it('shows both processes the same session and API key at once', async () => {
    const [a, b] = shared as [DenoServer, DenoServer]
    await remoteStore<SessionStore>(a, 'session', 'x').set('s1', { who: 'a' }, 60)
    expect(await remoteStore<SessionStore>(b, 'session', 'x').get('s1')).toEqual({ who: 'a' })
    await remoteStore<SessionStore>(b, 'session', 'x').destroy('s1')
    expect(await remoteStore<SessionStore>(a, 'session', 'x').get('s1')).toBeNull()
    const id = await remoteStore<ManagedApiKeyStore>(a, 'apiKey', 'x').add('key-0123456789abcdef')
    expect(
      (await remoteStore<ManagedApiKeyStore>(b, 'apiKey', 'x').validate('key-0123456789abcdef'))
        ?.id,
    ).toBe(id)
  })
})

describe('DenoKvApiKeyStore on a busy local KV file', () => {
  // What Deno's KV answers while another process writes the same SQLite file: the commit throws
  // a TypeError "database is locked" (seen from two `deno run` processes on one file); reads are
  // served. This KV keeps its entries in a Map and refuses the next `busy` commits that way.
  function busyKv() {
    const entries = new Map<string, { value: unknown; versionstamp: string }>()
    let stamp = 0
    const kv = {
      busy: 0,
      commits: 0,
      get: async (key: string[]) =>
        entries.get(JSON.stringify(key)) ?? { value: null, versionstamp: null },
      atomic() {
        const checks: { key: string[]; versionstamp: string | null }[] = []
        const writes: [string[], unknown][] = []
        const op = {
          check(c: { key: string[]; versionstamp: string | null }) {
            checks.push(c)
            return op
          },
          set(key: string[], value: unknown) {
            writes.push([key, value])
            return op
          },
          delete(key: string[]) {
            writes.push([key, undefined])
            return op
          },
          commit: async () => {
            kv.commits++
            if (kv.busy > 0) {
              kv.busy--
              throw new TypeError('database is locked')
            }
            for (const c of checks) {
              if ((entries.get(JSON.stringify(c.key))?.versionstamp ?? null) !== c.versionstamp) {
                return { ok: false }
              }
            }
            const versionstamp = String(++stamp).padStart(20, '0')
            for (const [key, value] of writes) {
              if (value === undefined) entries.delete(JSON.stringify(key))
              else entries.set(JSON.stringify(key), { value, versionstamp })
            }
            return { ok: true, versionstamp }
          },
        }
        return op
      },
    }
    return kv
  }

  it('touch skips a busy file at once, without an error or a retry', async () => {
    const kv = busyKv()
    const store = new DenoKvApiKeyStore({ kv: kv as unknown as DenoKvLike })
    const { key } = await createApiKey({ store, prefix: 'pal_live' })
    kv.busy = 1
    const before = kv.commits
    await expect(store.touch(key, 1_234)).resolves.toBeUndefined()
    expect(kv.commits - before).toBe(1)
    expect((await store.validate(key))?.lastUsedAt).toBeUndefined()
    await store.touch(key, 1_234)
    expect((await store.validate(key))?.lastUsedAt).toBe(1_234)
  })

  it('rotate and revoke try a busy file again, a bounded number of times', async () => {
    const kv = busyKv()
    const store = new DenoKvApiKeyStore({ kv: kv as unknown as DenoKvLike })
    const { id, key } = await createApiKey({ store, prefix: 'pal_live' })
    kv.busy = 3
    const next = await store.rotate(id, { overlapMs: 60_000 })
    expect(kv.busy).toBe(0)
    expect((await store.validate(next.key))?.id).toBe(id)
    expect((await store.validate(key))?.expiresAt).toBeGreaterThan(Date.now())
    kv.busy = 5
    expect(await store.revoke(id, 1_000)).toBe(true)
    expect((await store.validate(next.key))?.revokedAt).toBe(1_000)
    // Busy for longer than the retries: the error reaches the caller (8 tries, then it gives up).
    const other = await createApiKey({ store, prefix: 'pal_live' })
    kv.busy = 1_000
    const before = kv.commits
    await expect(store.revoke(other.id)).rejects.toThrow('database is locked')
    expect(kv.commits - before).toBe(8)
    kv.busy = 0
    expect((await store.validate(other.key))?.revokedAt).toBeUndefined()
  })
})

describe('Deno KV store options', () => {
  const kv = {
    get: async () => ({ value: null, versionstamp: null }),
    atomic: () => ({}),
  } as unknown as DenoKvLike

  it.each([
    ['no options', undefined, /"kv" is required/],
    ['a kv without atomic', { kv: { get: () => null } }, /open Deno KV handle/],
    ['an unknown option', { kv, expireIn: 5 }, /unknown option "expireIn"/],
    ['a non-string prefix', { kv, prefix: ['a'] }, /"prefix" must be a string/],
  ])('rejects %s at construction', (_label, options, message) => {
    expect(() => new DenoKvRateLimitStore(options as never)).toThrow(/^DenoKvRateLimitStore: /)
    expect(() => new DenoKvSessionStore(options as never)).toThrow(message)
  })

  it('accepts a resolver: forContext(c) gives the store on its handle, once per handle', async () => {
    const store = new DenoKvRateLimitStore({ kv: (c: Context) => c.env.KV, prefix: 'p' })
    const c = { env: { KV: kv } } as unknown as Context
    const bound = store.forContext(c)
    expect(bound).toBeInstanceOf(DenoKvRateLimitStore)
    expect(store.forContext({ env: { KV: kv } } as unknown as Context)).toBe(bound)
    const direct = new DenoKvSessionStore({ kv })
    expect(direct.forContext(c)).toBe(direct)
  })

  it('refuses to run a resolver-built store without the request, with a clear message', async () => {
    const store = new DenoKvSessionStore({ kv: () => kv })
    await expect(store.get('s')).rejects.toThrow(
      /^DenoKvSessionStore: built with a resolver, so it needs the request: use store\.forContext\(c\)/,
    )
  })

  it('rejects a resolver result that is no handle: at forContext, or when its promise settles', async () => {
    const none = new DenoKvRateLimitStore({ kv: () => undefined as never })
    expect(() => none.forContext({} as Context)).toThrow(
      /^DenoKvRateLimitStore: the resolver returned undefined, not a Deno KV handle$/,
    )
    const promised = new DenoKvRateLimitStore({ kv: () => Promise.resolve({}) as never })
    await expect(promised.forContext({} as Context).increment('k', 1000)).rejects.toThrow(
      /^DenoKvRateLimitStore: the resolver's promise gave no Deno KV handle/,
    )
  })

  it('needs list() on the handle of the concurrency store', () => {
    expect(() => new DenoKvConcurrencyStore({ kv })).toThrow(/with get, atomic, list/)
  })

  it('rejects a bad windowMs or maxAge before touching KV', async () => {
    await expect(new DenoKvRateLimitStore({ kv }).increment('k', 1.5)).rejects.toThrow(
      /windowMs must be a positive integer/,
    )
    await expect(new DenoKvSessionStore({ kv }).set('s', {}, Number.NaN)).rejects.toThrow(
      /maxAge must be a number/,
    )
  })

  it('gives up with a clear error when every check-and-set loses', async () => {
    const losing = {
      get: async () => ({ value: null, versionstamp: null }),
      atomic() {
        const op = {
          check: () => op,
          set: () => op,
          delete: () => op,
          commit: async () => ({ ok: false }),
        }
        return op
      },
    } as unknown as DenoKvLike
    await expect(new DenoKvRateLimitStore({ kv: losing }).increment('k', 1000)).rejects.toThrow(
      /gave up after \d+ conflicting writes/,
    )
    const request = { algorithm: 'token-bucket', limits: [{ max: 5, windowMs: 1000 }], cost: 1 }
    await expect(
      new DenoKvRateLimitStore({ kv: losing }).consume('k', request as never),
    ).rejects.toThrow(/gave up after \d+ conflicting writes/)
  }, 60_000)

  it('rejects bad sliding-window, token-bucket and consume arguments before touching KV', async () => {
    const store = new DenoKvRateLimitStore({ kv })
    await expect(store.slidingWindow('k', 1000, 0)).rejects.toThrow(/max must be a positive/)
    await expect(store.tokenBucket('k', 0, 5)).rejects.toThrow(/windowMs must be a positive/)
    await expect(
      store.consume('k', { algorithm: 'fixed-window', limits: [], cost: 1 }),
    ).rejects.toThrow(/^DenoKvRateLimitStore\.consume: limits must be/)
  })
})
