import { hashApiKey } from '../api-key/hash-key'
import type { ApiKeyInfo, ApiKeyLifecycleStore, RotateApiKeyOptions } from '../api-key/store'
import { fromFlat, newest, planRotation, toFlat } from '../api-key/store'
import { checkApiKey, checkMetadata } from '../internal/stores/store-args'
import { migrationSql, type PostgresStoreOptions, postgresStoreOptions, type Query } from './client'

const NAME = 'PostgresApiKeyStore'

/** The lifecycle columns (added to a table made before them by `migrate()`). */
const LIFECYCLE_COLUMNS = [
  ['expires_at', 'bigint'],
  ['scopes', 'json'],
  ['limits', 'json'],
  ['revoked_at', 'bigint'],
  ['last_used_at', 'bigint'],
  ['created_at', 'bigint'],
  ['prefix', 'text'],
] as const

/** The schema of an API-key table named `t`: the SHA-256 of each key, never the key. */
export function apiKeySchema(t: string): string {
  const index = `${t.slice(t.lastIndexOf('.') + 1)}_id`
  return `CREATE TABLE IF NOT EXISTS ${t} (
  hash text PRIMARY KEY,       -- hex SHA-256 of the key; the key itself is never stored
  id text NOT NULL,            -- random, safe to log; a rotated key's secrets share it
  metadata json
);
${LIFECYCLE_COLUMNS.map(([c, type]) => `ALTER TABLE ${t} ADD COLUMN IF NOT EXISTS ${c} ${type};`).join('\n')}
CREATE INDEX IF NOT EXISTS ${index} ON ${t} (id);

-- Rotation and revocation of one id queue on one transaction-scoped advisory lock; each statement
-- after it sees what the previous holder committed, so a revocation never misses the secret a
-- rotation added, and a rotation never starts from a record another one is replacing.
CREATE OR REPLACE FUNCTION ${t}_revoke(p_id text, p_at bigint) RETURNS boolean
LANGUAGE plpgsql AS $revoke$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('palisade api key ${t} ' || p_id));
  UPDATE ${t} SET revoked_at = p_at WHERE id = p_id AND revoked_at IS NULL;
  RETURN EXISTS (SELECT 1 FROM ${t} WHERE id = p_id);
END
$revoke$;

-- 'rotated', 'missing' or 'revoked'. The old secrets expire at p_until (only ever lowered), then
-- the new one (hash p_hash) gets the newest secret's record (expiry, scopes, limits, metadata)
-- and a created_at after it, so it is the newest even when p_at came from a slower clock.
CREATE OR REPLACE FUNCTION ${t}_rotate(
  p_id text, p_hash text, p_at bigint, p_until bigint, p_prefix text
) RETURNS text LANGUAGE plpgsql AS $rotate$
DECLARE
  cur record;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('palisade api key ${t} ' || p_id));
  SELECT * INTO cur FROM ${t} WHERE id = p_id ORDER BY created_at DESC NULLS LAST LIMIT 1;
  IF NOT FOUND THEN RETURN 'missing'; END IF;
  IF EXISTS (SELECT 1 FROM ${t} WHERE id = p_id AND revoked_at IS NOT NULL) THEN
    RETURN 'revoked';
  END IF;
  UPDATE ${t} SET expires_at = p_until
    WHERE id = p_id AND (expires_at IS NULL OR expires_at > p_until);
  INSERT INTO ${t} (hash, id, metadata, expires_at, scopes, limits, created_at, prefix)
    VALUES (p_hash, p_id, cur.metadata, cur.expires_at, cur.scopes, cur.limits,
      GREATEST(p_at, coalesce(cur.created_at, 0) + 1), p_prefix);
  RETURN 'rotated';
END
$rotate$;
`
}

/** The columns a lookup selects, named as the record's fields (times and JSON as text). */
const SELECT = `id, metadata::text AS metadata, expires_at::text AS "expiresAt",
scopes::text AS scopes, limits::text AS limits, revoked_at::text AS "revokedAt",
last_used_at::text AS "lastUsedAt", created_at::text AS "createdAt", prefix`

/**
 * Options of {@link PostgresApiKeyStore}.
 *
 * @example
 * const options: PostgresApiKeyStoreOptions = { client: pool, table: 'partner_keys' }
 * const keys = new PostgresApiKeyStore(options)
 */
export interface PostgresApiKeyStoreOptions extends PostgresStoreOptions {
  /** Table name, optionally schema-qualified. Default `'palisade_api_keys'`. */
  table?: string
}

/**
 * API keys in PostgreSQL, shared by every instance of an app. Only the SHA-256 hash of a key is
 * ever sent to the database, so a dump of the table reveals no usable key; lookups go by hash
 * (one `SELECT` per validation). Each row is one secret with its record (expiry, scopes, limits,
 * revocation, last use); a rotated key's secrets share its id, found through an index on `id`.
 * Adding a key again keeps its id and replaces its metadata (one `INSERT … ON CONFLICT … DO
 * UPDATE … RETURNING id`, so two instances adding the same key at once agree on its id). Create
 * the table once with {@link PostgresApiKeyStore.migrate} (it also adds the lifecycle columns to
 * a table made by an earlier version). Errors from the client propagate, so an outage is an
 * error, never a silent "invalid key".
 *
 * @param options.client - A `pg` Pool or Client, or a postgres.js `sql`. Required.
 * @param options.table - Table name. Default `'palisade_api_keys'`.
 * @example
 * import { PostgresApiKeyStore } from '@palisade/middleware/postgres'
 *
 * const store = new PostgresApiKeyStore({ client: pool })
 * await store.migrate()
 * const { id, key } = await createApiKey({ store, prefix: 'pal_live', scopes: ['read'] })
 * app.use('/api/*', apiKey({ store, prefix: 'pal_live' }))
 */
export class PostgresApiKeyStore implements ApiKeyLifecycleStore {
  readonly #query: Query
  readonly #table: string

  constructor(options: PostgresApiKeyStoreOptions) {
    const { query, table } = postgresStoreOptions(NAME, options, 'palisade_api_keys')
    this.#query = query
    this.#table = table
  }

  /** The SQL `migrate()` runs: the table, its lifecycle columns and the index on `id`. */
  get schema(): string {
    return apiKeySchema(this.#table)
  }

  /** Creates the table if missing. Idempotent; one transaction under an advisory lock. */
  async migrate(): Promise<void> {
    await this.#query(migrationSql(this.#table, this.schema))
  }

  /**
   * Stores the hash of `key` with `metadata` and resolves the key's id: a new random id, or the
   * existing one when the key is already stored (its metadata is then replaced).
   */
  async add(key: string, metadata?: Record<string, unknown>): Promise<string> {
    checkApiKey(NAME, 'add', key)
    const data = checkMetadata(NAME, metadata)
    const rows = await this.#query(
      `INSERT INTO ${this.#table} AS k (hash, id, metadata) VALUES ($1, $2, $3::text::json)
ON CONFLICT (hash) DO UPDATE SET metadata = excluded.metadata
RETURNING k.id`,
      [
        await hashApiKey(key),
        crypto.randomUUID(),
        data === undefined ? null : JSON.stringify(data),
      ],
    )
    const id = rows[0]?.id
    if (typeof id !== 'string') throw new Error(`${NAME}.add: no id returned`)
    return id
  }

  /** Stores `record` under the hash of `key` (replacing the row there). */
  async put(key: string, record: ApiKeyInfo): Promise<void> {
    checkApiKey(NAME, 'put', key)
    const flat = toFlat(record)
    if (fromFlat(flat) === null) throw new TypeError(`${NAME}.put: invalid record`)
    const v = (name: keyof typeof flat) => flat[name] ?? null
    await this.#query(
      `INSERT INTO ${this.#table} (hash, id, metadata, expires_at, scopes, limits, revoked_at,
  last_used_at, created_at, prefix)
VALUES ($1, $2, $3::text::json, $4::bigint, $5::text::json, $6::text::json, $7::bigint,
  $8::bigint, $9::bigint, $10)
ON CONFLICT (hash) DO UPDATE SET id = excluded.id, metadata = excluded.metadata,
  expires_at = excluded.expires_at, scopes = excluded.scopes, limits = excluded.limits,
  revoked_at = excluded.revoked_at, last_used_at = excluded.last_used_at,
  created_at = excluded.created_at, prefix = excluded.prefix`,
      [
        await hashApiKey(key),
        record.id,
        v('metadata'),
        v('expiresAt'),
        v('scopes'),
        v('limits'),
        v('revokedAt'),
        v('lastUsedAt'),
        v('createdAt'),
        v('prefix'),
      ],
    )
  }

  /** Deletes `key`; resolves `true` when it was stored. */
  async remove(key: string): Promise<boolean> {
    if (typeof key !== 'string' || key.length === 0) return false
    const rows = await this.#query(`DELETE FROM ${this.#table} WHERE hash = $1 RETURNING 1`, [
      await hashApiKey(key),
    ])
    return rows.length > 0
  }

  /** The key's record, or `null` when it is not stored. */
  async validate(key: string): Promise<ApiKeyInfo | null> {
    if (typeof key !== 'string' || key.length === 0) return null
    const rows = await this.#query(`SELECT ${SELECT} FROM ${this.#table} WHERE hash = $1`, [
      await hashApiKey(key),
    ])
    return rows[0] === undefined ? null : fromFlat(rows[0])
  }

  /** The record of `id`'s newest secret, or `null`. */
  async get(id: string): Promise<ApiKeyInfo | null> {
    const rows = await this.#query(`SELECT ${SELECT} FROM ${this.#table} WHERE id = $1`, [id])
    return newest(rows.map(fromFlat).filter((r): r is ApiKeyInfo => r !== null))
  }

  /** Lowers `expires_at` to `at` on every secret of `id` (one `UPDATE`). */
  async expire(id: string, at: number): Promise<boolean> {
    await this.#query(
      `UPDATE ${this.#table} SET expires_at = $2::bigint
WHERE id = $1 AND (expires_at IS NULL OR expires_at > $2::bigint)`,
      [id, String(Math.floor(at))],
    )
    return (await this.#exists(id)) === true
  }

  async #exists(id: string): Promise<boolean> {
    return (
      (await this.#query(`SELECT 1 FROM ${this.#table} WHERE id = $1 LIMIT 1`, [id])).length > 0
    )
  }

  /**
   * Sets `revoked_at` on every secret of `id` (a first revocation time stays): one call of
   * `<table>_revoke`, queued with the id's rotations on an advisory lock.
   */
  async revoke(id: string, at = Date.now()): Promise<boolean> {
    const rows = await this.#query(`SELECT ${this.#table}_revoke($1, $2::bigint) AS found`, [
      id,
      String(Math.floor(at)),
    ])
    return rows[0]?.found === true
  }

  /** Records `at` as the `last_used_at` of the secret `key`. */
  async touch(key: string, at: number): Promise<void> {
    checkApiKey(NAME, 'touch', key)
    await this.#query(`UPDATE ${this.#table} SET last_used_at = $2::bigint WHERE hash = $1`, [
      await hashApiKey(key),
      String(Math.floor(at)),
    ])
  }

  /**
   * A new secret for `id`; the old ones keep working for `overlapMs`, on every instance. One call
   * of `<table>_rotate` (the key is made here: only its hash is sent), queued with the id's other
   * rotations and revocations on an advisory lock.
   */
  async rotate(id: string, options?: RotateApiKeyOptions): Promise<{ id: string; key: string }> {
    const { key, prefix, createdAt, until } = planRotation(await this.get(id), options)
    const rows = await this.#query(
      `SELECT ${this.#table}_rotate($1, $2, $3::bigint, $4::bigint, $5) AS outcome`,
      [id, await hashApiKey(key), String(createdAt), String(until), prefix],
    )
    const outcome = rows[0]?.outcome
    if (outcome === 'missing') throw new TypeError('rotate: no key has this id')
    if (outcome === 'revoked') throw new TypeError('rotate: the key is revoked')
    if (outcome !== 'rotated') throw new Error(`${NAME}.rotate: unexpected answer from PostgreSQL`)
    return { id, key }
  }
}
