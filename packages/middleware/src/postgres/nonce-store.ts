import { boundKey } from '../internal/stores/bounded-key'
import { checkClaim, type NonceStore } from '../internal/stores/nonce-store'
import {
  expiryIndexSql,
  migrationSql,
  NOW_MS,
  type PostgresStoreOptions,
  postgresStoreOptions,
  type Query,
  SWEEP_EVERY,
  SWEEP_ROWS,
  SweepTicker,
  sweepSql,
} from './client'

const NAME = 'PostgresNonceStore'

/** The schema of a nonce table named `t`: one row per nonce seen, with its expiry. */
export function nonceSchema(t: string): string {
  return `CREATE TABLE IF NOT EXISTS ${t} (
  nonce text PRIMARY KEY,
  expires_at bigint NOT NULL  -- ms since the epoch; from then on the nonce may be claimed again
);
${expiryIndexSql(t)}`
}

/**
 * Options of {@link PostgresNonceStore}.
 *
 * @example
 * const options: PostgresNonceStoreOptions = { client: pool, table: 'shop_nonces' }
 */
export interface PostgresNonceStoreOptions extends PostgresStoreOptions {
  /** Table name, optionally schema-qualified. Default `'palisade_nonces'`. */
  table?: string
}

/**
 * Replay records in PostgreSQL, shared by every instance of an app: one row per nonce with its
 * expiry on the database's clock. `claim` is one statement, an `INSERT … ON CONFLICT DO UPDATE`
 * whose update applies only when the stored record has expired, so of two concurrent claims of
 * one nonce exactly one inserts (or revives) the row and gets `true`. Every 64th claim also
 * deletes up to 256 expired rows. Create the table once with {@link PostgresNonceStore.migrate}
 * (or the SQL in {@link PostgresNonceStore.schema}); nothing is created on a request. Errors from
 * the client propagate: the middleware refuses the request rather than let a replay through.
 *
 * @param options.client - A `pg` Pool or Client, or a postgres.js `sql`. Required.
 * @param options.table - Table name. Default `'palisade_nonces'`.
 * @example
 * import pg from 'pg'
 * import { PostgresNonceStore } from '@palisade/middleware/postgres'
 *
 * const nonce = new PostgresNonceStore({ client: new pg.Pool() })
 * await nonce.migrate() // once, at deploy or start-up
 * app.use('/api/*', httpSignature({ keys, nonce }))
 */
export class PostgresNonceStore implements NonceStore {
  readonly #query: Query
  readonly #table: string
  readonly #sweep = new SweepTicker(SWEEP_EVERY)

  constructor(options: PostgresNonceStoreOptions) {
    const { query, table } = postgresStoreOptions(NAME, options, 'palisade_nonces')
    this.#query = query
    this.#table = table
  }

  /** The SQL `migrate()` runs: the table and its expiry index. */
  get schema(): string {
    return nonceSchema(this.#table)
  }

  /** Creates the table and index if missing. Idempotent; one transaction under an advisory lock. */
  async migrate(): Promise<void> {
    await this.#query(migrationSql(this.#table, this.schema))
  }

  async claim(nonce: string, ttlMs: number): Promise<boolean> {
    checkClaim(`${NAME}.claim`, nonce, ttlMs)
    const key = await boundKey(nonce)
    const t = this.#table
    // ON CONFLICT … WHERE: the row is revived only when its record has expired; a live one makes
    // the statement return no row. The unique index serialises concurrent inserts of one nonce.
    const rows = await this.#query(
      `INSERT INTO ${t} AS x (nonce, expires_at) VALUES ($1, ${NOW_MS} + $2::bigint)
ON CONFLICT (nonce) DO UPDATE SET expires_at = excluded.expires_at
WHERE x.expires_at <= ${NOW_MS}
RETURNING 1 AS claimed`,
      [key, String(ttlMs)],
    )
    if (this.#sweep.tick()) {
      await this.#query(sweepSql(t, 'nonce', '$1', String(SWEEP_ROWS)), [key])
    }
    return rows.length === 1
  }
}
