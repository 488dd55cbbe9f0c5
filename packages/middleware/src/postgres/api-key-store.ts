import { hashApiKey } from '../api-key/hash-key'
import type { ApiKeyInfo, ManagedApiKeyStore } from '../api-key/store'
import { checkApiKey, checkMetadata, parseStoredObject } from '../internal/stores/store-args'
import { migrationSql, type PostgresStoreOptions, postgresStoreOptions, type Query } from './client'

const NAME = 'PostgresApiKeyStore'

/** The schema of an API-key table named `t`: the SHA-256 of each key, never the key. */
export function apiKeySchema(t: string): string {
  return `CREATE TABLE IF NOT EXISTS ${t} (
  hash text PRIMARY KEY,       -- hex SHA-256 of the key; the key itself is never stored
  id text NOT NULL,            -- random, safe to log
  metadata json
);
`
}

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
 * ever sent to the database, so a dump of the table reveals no usable key; lookups go by hash.
 * Adding a key again keeps its id and replaces its metadata (one `INSERT … ON CONFLICT … DO
 * UPDATE … RETURNING id`, so two instances adding the same key at once agree on its id). Create
 * the table once with {@link PostgresApiKeyStore.migrate}. Errors from the client propagate, so an
 * outage is an error, never a silent "invalid key".
 *
 * @param options.client - A `pg` Pool or Client, or a postgres.js `sql`. Required.
 * @param options.table - Table name. Default `'palisade_api_keys'`.
 * @example
 * import { PostgresApiKeyStore } from '@palisade/middleware/postgres'
 *
 * const store = new PostgresApiKeyStore({ client: pool })
 * await store.migrate()
 * const id = await store.add(generatedKey, { owner: 'billing' })
 * app.use('/api/*', apiKey({ store }))
 */
export class PostgresApiKeyStore implements ManagedApiKeyStore {
  readonly #query: Query
  readonly #table: string

  constructor(options: PostgresApiKeyStoreOptions) {
    const { query, table } = postgresStoreOptions(NAME, options, 'palisade_api_keys')
    this.#query = query
    this.#table = table
  }

  /** The SQL `migrate()` runs: the table. */
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

  /** Deletes `key`; resolves `true` when it was stored. */
  async remove(key: string): Promise<boolean> {
    if (typeof key !== 'string' || key.length === 0) return false
    const rows = await this.#query(`DELETE FROM ${this.#table} WHERE hash = $1 RETURNING 1`, [
      await hashApiKey(key),
    ])
    return rows.length > 0
  }

  /** The key's `{ id, metadata }`, or `null` when it is not stored. */
  async validate(key: string): Promise<ApiKeyInfo | null> {
    if (typeof key !== 'string' || key.length === 0) return null
    const rows = await this.#query(
      `SELECT id, metadata::text AS metadata FROM ${this.#table} WHERE hash = $1`,
      [await hashApiKey(key)],
    )
    const row = rows[0]
    if (row === undefined || typeof row.id !== 'string') return null
    const metadata = parseStoredObject(row.metadata)
    return metadata === null ? { id: row.id } : { id: row.id, metadata }
  }
}
