import type { ConcurrencyStore } from '../concurrency-limit/store'
import { checkAcquire, checkRelease, checkRenew } from '../concurrency-limit/store'
import { boundKey } from '../internal/stores/bounded-key'
import {
  columnNumber,
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

const NAME = 'PostgresConcurrencyStore'

/**
 * The schema of a concurrency table named `t`: one row per lease, and the function `t_acquire`
 * that takes a slot in one statement. It serialises the acquires of one key (a
 * transaction-scoped advisory lock), then, each statement reading the table afresh after the
 * lock, drops the key's expired leases, counts the live ones and inserts the new lease only if
 * there is room, so concurrent acquires never share the last slot.
 */
export function concurrencySchema(t: string): string {
  return `CREATE TABLE IF NOT EXISTS ${t} (
  key text NOT NULL,
  lease text NOT NULL,
  expires_at bigint NOT NULL,  -- ms since the epoch; from then on the lease holds no slot
  PRIMARY KEY (key, lease)
);
${expiryIndexSql(t)}
CREATE OR REPLACE FUNCTION ${t}_acquire(
  p_key text, p_lease text, p_max bigint, p_lease_ms bigint, p_sweep integer
) RETURNS TABLE (acquired boolean, in_flight bigint) LANGUAGE plpgsql AS $acquire$
DECLARE
  now_ms bigint;
  n bigint;
  held boolean;
BEGIN
  IF p_sweep > 0 THEN
    ${sweepSql(t, 'key', 'p_key', 'p_sweep')};
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('${t}'), hashtext(p_key));
  now_ms := ${NOW_MS};
  DELETE FROM ${t} WHERE key = p_key AND expires_at <= now_ms;
  SELECT count(*), coalesce(bool_or(lease = p_lease), false) INTO n, held
    FROM ${t} WHERE key = p_key;
  IF NOT held AND n >= p_max THEN
    RETURN QUERY SELECT false, n;
    RETURN;
  END IF;
  INSERT INTO ${t} AS x (key, lease, expires_at) VALUES (p_key, p_lease, now_ms + p_lease_ms)
    ON CONFLICT (key, lease) DO UPDATE SET expires_at = excluded.expires_at;
  IF NOT held THEN
    n := n + 1;
  END IF;
  RETURN QUERY SELECT true, n;
END
$acquire$;
`
}

/**
 * Options of {@link PostgresConcurrencyStore}.
 *
 * @example
 * const options: PostgresConcurrencyStoreOptions = { client: pool, table: 'shop_concurrency' }
 * app.post('/chat', concurrencyLimit({ max: 2, store: new PostgresConcurrencyStore(options) }))
 */
export interface PostgresConcurrencyStoreOptions extends PostgresStoreOptions {
  /** Table name, optionally schema-qualified. Default `'palisade_concurrency'`. */
  table?: string
}

/**
 * Concurrency slots in PostgreSQL, shared by every instance of an app: one row per lease with its
 * expiry on the database's clock. Each call is one statement: `acquire` calls the function
 * `<table>_acquire` (an advisory lock per key, then drop expired, count, insert), `renew` is one
 * conditional `UPDATE`, `release` one `DELETE`. Expired leases are dropped by the next acquire of
 * their key, and every 64th acquire also deletes up to 256 expired leases of any key, so no cron
 * job is needed. Create the table and function once with {@link PostgresConcurrencyStore.migrate}
 * (or the SQL in {@link PostgresConcurrencyStore.schema}); nothing is created on a request.
 * Errors from the client propagate, so `concurrencyLimit`'s `failOpen` decides.
 *
 * @param options.client - A `pg` Pool or Client, or a postgres.js `sql`. Required.
 * @param options.table - Table name. Default `'palisade_concurrency'`.
 * @example
 * import pg from 'pg'
 * import { PostgresConcurrencyStore } from '@palisade/middleware/postgres'
 *
 * const store = new PostgresConcurrencyStore({ client: new pg.Pool() })
 * await store.migrate() // once, at deploy or start-up
 * app.post('/chat', concurrencyLimit({ max: 2, store }), chat)
 */
export class PostgresConcurrencyStore implements ConcurrencyStore {
  readonly #query: Query
  readonly #table: string
  readonly #sweep = new SweepTicker(SWEEP_EVERY)
  readonly #acquire: string

  constructor(options: PostgresConcurrencyStoreOptions) {
    const { query, table } = postgresStoreOptions(NAME, options, 'palisade_concurrency')
    this.#query = query
    this.#table = table
    this.#acquire = `SELECT acquired, in_flight FROM ${table}_acquire($1, $2, $3::bigint, $4::bigint, $5::integer)`
  }

  /** The SQL `migrate()` runs: the table, its expiry index and the `<table>_acquire` function. */
  get schema(): string {
    return concurrencySchema(this.#table)
  }

  /**
   * Creates the table, index and function if missing (and replaces the function with this
   * version's). Idempotent; one transaction under an advisory lock.
   */
  async migrate(): Promise<void> {
    await this.#query(migrationSql(this.#table, this.schema))
  }

  async acquire(
    key: string,
    lease: string,
    max: number,
    leaseMs: number,
  ): Promise<{ acquired: boolean; inFlight: number }> {
    checkAcquire(`${NAME}.acquire`, key, lease, max, leaseMs)
    const sweep = this.#sweep.tick() ? SWEEP_ROWS : 0
    const rows = await this.#query(this.#acquire, [
      await boundKey(key),
      lease,
      String(max),
      String(leaseMs),
      String(sweep),
    ])
    const row = rows[0]
    if (rows.length !== 1 || typeof row?.acquired !== 'boolean') {
      throw new Error(`${NAME}: unexpected reply to acquire`)
    }
    return { acquired: row.acquired, inFlight: columnNumber(NAME, row.in_flight) }
  }

  async renew(key: string, lease: string, leaseMs: number): Promise<boolean> {
    checkRenew(`${NAME}.renew`, key, lease, leaseMs)
    const rows = await this.#query(
      `UPDATE ${this.#table} SET expires_at = ${NOW_MS} + $3::bigint
WHERE key = $1 AND lease = $2 AND expires_at > ${NOW_MS}
RETURNING 1`,
      [await boundKey(key), lease, String(leaseMs)],
    )
    return rows.length === 1
  }

  async release(key: string, lease: string): Promise<void> {
    checkRelease(`${NAME}.release`, key, lease)
    await this.#query(`DELETE FROM ${this.#table} WHERE key = $1 AND lease = $2`, [
      await boundKey(key),
      lease,
    ])
  }
}
