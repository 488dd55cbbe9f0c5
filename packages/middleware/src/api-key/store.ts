import type { Context } from 'hono'
import { formatValue } from '../internal/options'
import { checkApiKeyPrefix, generateApiKey } from './format'

/**
 * What a valid key resolves to; stored in the context under `contextKey`.
 *
 * @example
 * app.get('/partner/whoami', apiKey({ store }), (c) => {
 *   const info: ApiKeyInfo = c.get('apiKey') // { id, metadata? }
 *   return c.json({ id: info.id, partner: info.metadata?.partner })
 * })
 */
export interface ApiKeyInfo {
  id: string
  metadata?: Record<string, unknown>
  /** When the key stops working (epoch milliseconds). Absent: never. */
  expiresAt?: number
  /** What the key may do; a route's `apiKey({ scopes })` needs every one it names. */
  scopes?: string[]
  /**
   * Named limits of this key, e.g. `{ perMinute: 600, monthly: 100_000 }`, that the route's
   * rateLimit or quota read with {@link apiKeyLimit} (positive integers).
   */
  limits?: Record<string, number>
  /** When the key was revoked (epoch milliseconds); a revoked key never works again. */
  revokedAt?: number
  /** When the key was last used, written by `apiKey` at most once a minute per key. */
  lastUsedAt?: number
  /** When this key (this secret: a rotation makes a new one) was created. */
  createdAt?: number
  /** The key's prefix (`pal_live`), not secret: a rotation gives the new key the same one. */
  prefix?: string
}

/** The lifecycle fields a new key can be given (everything of {@link ApiKeyInfo} but its id). */
export type ApiKeyFields = Pick<ApiKeyInfo, 'metadata' | 'expiresAt' | 'scopes' | 'limits'>

/**
 * Lookup behind `apiKey`: resolves a presented key, or `null` when it is not valid.
 *
 * @example
 * // Keys kept elsewhere (a database, a secrets service): only `validate` is needed.
 * const store: ApiKeyStore = {
 *   async validate(key) {
 *     const row = await db.findApiKeyByHash(await sha256(key))
 *     return row ? { id: row.id, metadata: { owner: row.owner } } : null
 *   },
 * }
 * app.use('/partner/*', apiKey({ store }))
 */
export interface ApiKeyStore {
  validate(key: string): Promise<ApiKeyInfo | null>
  /**
   * For a store whose handle arrives with the request (a Workers binding on `c.env`): the store
   * to use for the request `c`. `apiKey` calls it once per request, before any other method, so the
   * store and the middleware can be built once at module scope. Optional.
   */
  forContext?(c: Context): ApiKeyStore
}

/**
 * A store that can also be administered. Implementations keep only a hash of each key, never the
 * key itself. `add` returns the new key's id; `remove` returns whether a key was removed.
 *
 * @example
 * const keys: ManagedApiKeyStore = new MemoryApiKeyStore()
 * const id = await keys.add(process.env.PARTNER_KEY!, { partner: 'acme' }) // safe to log
 * await keys.remove(process.env.PARTNER_KEY!) // true: it was present
 */
export interface ManagedApiKeyStore extends ApiKeyStore {
  add(key: string, metadata?: Record<string, unknown>): Promise<string>
  remove(key: string): Promise<boolean>
}

/**
 * A managed store with the key lifecycle: records with expiry, scopes, limits and revocation,
 * looked up by id for rotation and revocation. Every backend of Palisade implements it; like
 * {@link ManagedApiKeyStore}, it keeps only hashes of keys. Create keys with `createApiKey`.
 *
 * A rotated key keeps its id: the id names the key's identity (its scopes, limits, quota and
 * rate-limit counters, logs), the secret changes. During the overlap one id has two secrets.
 *
 * @example
 * const { id, key } = await createApiKey({ store, prefix: 'pal_live', scopes: ['read'] })
 * const next = await store.rotate(id, { overlapMs: 86_400_000 }) // old key works one more day
 * await store.revoke(id) // both stop, on every instance
 */
export interface ApiKeyLifecycleStore extends ManagedApiKeyStore {
  /** Stores `record` under the hash of `key` (replacing one there) and indexes it by its id. */
  put(key: string, record: ApiKeyInfo): Promise<void>
  /** The record of `id`'s newest secret, or `null` when no key has that id. */
  get(id: string): Promise<ApiKeyInfo | null>
  /**
   * Lowers `expiresAt` to `at` (epoch ms) on every secret of `id` that expires later or never.
   * Resolves whether the id exists.
   */
  expire(id: string, at: number): Promise<boolean>
  /** Sets `revokedAt` (default now) on every secret of `id`; resolves whether the id exists. */
  revoke(id: string, at?: number): Promise<boolean>
  /** Records `at` as the `lastUsedAt` of the secret `key`. Best effort; `apiKey` throttles it. */
  touch(key: string, at: number): Promise<void>
  /**
   * A new secret for `id` with the same record; the old secrets keep working for `overlapMs`
   * (default 0: they stop now), then stop on every instance. Resolves the new plain key, once.
   */
  rotate(id: string, options?: RotateApiKeyOptions): Promise<{ id: string; key: string }>
}

/**
 * Options of {@link ApiKeyLifecycleStore.rotate}.
 *
 * @example
 * const options: RotateApiKeyOptions = { overlapMs: 3_600_000 } // one hour to switch
 */
export interface RotateApiKeyOptions {
  /** How long the old key keeps working, in milliseconds. Default `0`. */
  overlapMs?: number
  /** Prefix of the new key. Default: the record's `prefix`, else `'key'`. */
  prefix?: string
}

// What every backend shares: how a record is read back (failing closed), kept as flat text
// fields, and rotated. Part of the contract, as the stored response's encoding is in
// idempotency/store.ts: backends import this file, never the middleware.

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v)
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

/**
 * A record as a backend read it (JSON, hash fields), checked field by field: a field of the wrong
 * type is dropped, except a malformed `expiresAt`, `revokedAt` or `scopes`, which makes the whole
 * record invalid (failing closed: a corrupt revocation must not read as "not revoked").
 */
export function readRecord(raw: unknown): ApiKeyInfo | null {
  if (!isObject(raw) || typeof raw.id !== 'string' || raw.id.length === 0) return null
  const out: ApiKeyInfo = { id: raw.id }
  if (isObject(raw.metadata)) out.metadata = raw.metadata
  for (const name of ['expiresAt', 'revokedAt'] as const) {
    const v = raw[name]
    if (v === undefined || v === null) continue
    if (!isTime(v)) return null
    out[name] = v
  }
  if (raw.scopes !== undefined && raw.scopes !== null) {
    if (!Array.isArray(raw.scopes) || !raw.scopes.every((s) => typeof s === 'string')) return null
    out.scopes = raw.scopes
  }
  if (isObject(raw.limits)) {
    const limits = Object.entries(raw.limits).filter(([, v]) => Number.isSafeInteger(v))
    out.limits = Object.fromEntries(limits) as Record<string, number>
  }
  if (isTime(raw.lastUsedAt)) out.lastUsedAt = raw.lastUsedAt
  if (isTime(raw.createdAt)) out.createdAt = raw.createdAt
  if (typeof raw.prefix === 'string') out.prefix = raw.prefix
  return out
}

/** The newest of `records` (latest `createdAt`; a record without one counts as oldest). */
export function newest(records: readonly ApiKeyInfo[]): ApiKeyInfo | null {
  let best: ApiKeyInfo | null = null
  for (const r of records) if (best === null || (r.createdAt ?? 0) > (best.createdAt ?? 0)) best = r
  return best
}

/** `record` with `expiresAt` lowered to `at` (unchanged when it already expires earlier). */
export function lowered(record: ApiKeyInfo, at: number): ApiKeyInfo {
  return record.expiresAt !== undefined && record.expiresAt <= at
    ? record
    : { ...record, expiresAt: at }
}

/** The record's fields as a backend with flat text columns or hash fields keeps them. */
export const FLAT_FIELDS = [
  'id',
  'metadata',
  'expiresAt',
  'scopes',
  'limits',
  'revokedAt',
  'lastUsedAt',
  'createdAt',
  'prefix',
] as const

const JSON_FIELDS = new Set(['metadata', 'scopes', 'limits'])
const TIME_FIELDS = new Set(['expiresAt', 'revokedAt', 'lastUsedAt', 'createdAt'])

/** `record` as text fields (JSON for objects, decimal for times); absent fields are left out. */
export function toFlat(record: ApiKeyInfo): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of FLAT_FIELDS) {
    const v = record[name]
    if (v === undefined || v === null) continue
    out[name] = JSON_FIELDS.has(name) ? JSON.stringify(v) : String(v)
  }
  return out
}

/**
 * A record from text fields (or a driver's numbers and parsed JSON), checked by
 * {@link readRecord}: unparseable JSON or a non-numeric time fails closed.
 */
export function fromFlat(values: Record<string, unknown>): ApiKeyInfo | null {
  const raw: Record<string, unknown> = {}
  for (const name of FLAT_FIELDS) {
    const v = values[name]
    if (v === undefined || v === null) continue
    if (JSON_FIELDS.has(name) && typeof v === 'string') {
      try {
        raw[name] = JSON.parse(v)
      } catch {
        if (name === 'metadata') continue
        return null
      }
    } else if (TIME_FIELDS.has(name) && typeof v === 'string') {
      raw[name] = /^\d{1,16}$/.test(v) ? Number(v) : Number.NaN
    } else raw[name] = v
  }
  return readRecord(raw)
}

/** What a rotation writes: the new key, its prefix, its `createdAt` and when the old secrets stop. */
export interface RotationPlan {
  key: string
  prefix: string
  createdAt: number
  until: number
}

/**
 * Checks `options` against the current record of `id` (from `get`) and plans a rotation: a new key
 * (the record's prefix unless `options.prefix`), now, and the end of the overlap. Throws a
 * TypeError for a bad option, an unknown id or a revoked key.
 */
export function planRotation(
  current: ApiKeyInfo | null,
  options: RotateApiKeyOptions = {},
): RotationPlan {
  const where = 'rotate'
  const overlapMs = options.overlapMs ?? 0
  if (!Number.isSafeInteger(overlapMs) || overlapMs < 0) {
    throw new TypeError(
      `${where}: "overlapMs" must be a non-negative integer, got ${formatValue(overlapMs)}`,
    )
  }
  if (current === null) throw new TypeError(`${where}: no key has this id`)
  if (current.revokedAt !== undefined) throw new TypeError(`${where}: the key is revoked`)
  const prefix = checkApiKeyPrefix(where, options.prefix ?? current.prefix ?? 'key')
  const now = Date.now()
  // `createdAt` later than the current secret's even on a slower clock: the new one is the newest.
  const createdAt = Math.max(now, (current.createdAt ?? 0) + 1)
  return { key: generateApiKey(prefix), prefix, createdAt, until: now + overlapMs }
}

/**
 * The rotation of the stores that run it in steps: the old secrets of `id` expire `overlapMs` from
 * now, then a new secret with the same record (a fresh `createdAt`, no `lastUsedAt`) is stored.
 * Two rotations or a rotation and a revocation of one id must not interleave these steps (a
 * revocation between them would miss the new secret): the Redis and PostgreSQL stores run it
 * under a lock per id, or in one database function.
 */
export async function rotateApiKey(
  store: ApiKeyLifecycleStore,
  id: string,
  options: RotateApiKeyOptions = {},
): Promise<{ id: string; key: string }> {
  const current = await store.get(id)
  const { key, prefix, createdAt, until } = planRotation(current, options)
  const { lastUsedAt: _, ...kept } = current as ApiKeyInfo
  // Expire the old secrets first: the new one, written after, keeps the record's own expiry.
  await store.expire(id, until)
  await store.put(key, { ...kept, createdAt, prefix })
  return { id, key }
}
