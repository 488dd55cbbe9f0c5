import {
  checkBegin,
  checkComplete,
  checkRelease,
  decodeResponse,
  encodeResponse,
  type IdempotencyBegin,
  type IdempotencyStore,
  type IdempotentResponse,
} from '../idempotency/store'
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

const NAME = 'PostgresIdempotencyStore'

/**
 * The schema of an idempotency table named `t`: one row per record, and the function `t_begin`
 * that looks a key up and locks it in one statement. Its INSERT … ON CONFLICT takes a missing or
 * expired row (the unique key serialises concurrent begins: exactly one inserts or takes over);
 * when the row is live, a fresh read (each statement of a function sees what committed before it)
 * says what it holds. A row deleted between the two (a release) is tried again.
 */
export function idempotencySchema(t: string): string {
  return `CREATE TABLE IF NOT EXISTS ${t} (
  key text PRIMARY KEY,
  fingerprint text NOT NULL,
  lease text,                  -- the lock's lease while the first request runs; null once completed
  response text,               -- the stored response (JSON), null while locked
  expires_at bigint NOT NULL   -- ms since the epoch: the lock's end, then the record's
);
${expiryIndexSql(t)}
CREATE OR REPLACE FUNCTION ${t}_begin(
  p_key text, p_lease text, p_fingerprint text, p_lock_ms bigint, p_sweep integer
) RETURNS TABLE (state text, retry_after_ms bigint, response text) LANGUAGE plpgsql AS $begin$
DECLARE
  now_ms bigint;
  got boolean;
  r record;
BEGIN
  IF p_sweep > 0 THEN
    ${sweepSql(t, 'key', 'p_key', 'p_sweep')};
  END IF;
  FOR attempt IN 1..8 LOOP
    now_ms := ${NOW_MS};
    got := false;
    INSERT INTO ${t} AS x (key, fingerprint, lease, response, expires_at)
      VALUES (p_key, p_fingerprint, p_lease, NULL, now_ms + p_lock_ms)
      ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, lease = excluded.lease,
        response = NULL, expires_at = excluded.expires_at
      WHERE x.expires_at <= now_ms
      RETURNING true INTO got;
    IF got THEN
      RETURN QUERY SELECT 'acquired'::text, NULL::bigint, NULL::text;
      RETURN;
    END IF;
    SELECT x.fingerprint, x.response, x.expires_at INTO r FROM ${t} x WHERE x.key = p_key;
    IF FOUND THEN
      IF r.fingerprint <> p_fingerprint THEN
        RETURN QUERY SELECT 'mismatch'::text, NULL::bigint, NULL::text;
      ELSIF r.response IS NULL THEN
        RETURN QUERY SELECT 'in-flight'::text, greatest(r.expires_at - now_ms, 1), NULL::text;
      ELSE
        RETURN QUERY SELECT 'completed'::text, NULL::bigint, r.response;
      END IF;
      RETURN;
    END IF;
  END LOOP;
  RAISE EXCEPTION '${t}_begin: the key kept changing';
END
$begin$;
`
}

/**
 * Options of {@link PostgresIdempotencyStore}.
 *
 * @example
 * const options: PostgresIdempotencyStoreOptions = { client: pool, table: 'shop_idempotency' }
 * app.post('/orders', idempotency({ store: new PostgresIdempotencyStore(options) }), createOrder)
 */
export interface PostgresIdempotencyStoreOptions extends PostgresStoreOptions {
  /** Table name, optionally schema-qualified. Default `'palisade_idempotency'`. */
  table?: string
}

/**
 * Idempotency records in PostgreSQL, shared by every instance of an app: one row per record with
 * its expiry on the database's clock (the lock's end, then the record's). Each call is one
 * statement: `begin` calls the function `<table>_begin` (insert or take over an expired row, else
 * read the live one), `complete` one conditional `UPDATE`, `release` one conditional `DELETE`.
 * Every 64th `begin` also deletes up to 256 expired rows, so no cron job is needed. Create the
 * table and function once with {@link PostgresIdempotencyStore.migrate} (or the SQL in
 * {@link PostgresIdempotencyStore.schema}); nothing is created on a request.
 *
 * @param options.client - A `pg` Pool or Client, or a postgres.js `sql`. Required.
 * @param options.table - Table name. Default `'palisade_idempotency'`.
 * @example
 * import pg from 'pg'
 * import { PostgresIdempotencyStore } from '@palisade/middleware/postgres'
 *
 * const store = new PostgresIdempotencyStore({ client: new pg.Pool() })
 * await store.migrate() // once, at deploy or start-up
 * app.post('/orders', idempotency({ store }), createOrder)
 */
export class PostgresIdempotencyStore implements IdempotencyStore {
  readonly #query: Query
  readonly #table: string
  readonly #sweep = new SweepTicker(SWEEP_EVERY)
  readonly #begin: string

  constructor(options: PostgresIdempotencyStoreOptions) {
    const { query, table } = postgresStoreOptions(NAME, options, 'palisade_idempotency')
    this.#query = query
    this.#table = table
    this.#begin = `SELECT state, retry_after_ms, response FROM ${table}_begin($1, $2, $3, $4::bigint, $5::integer)`
  }

  /** The SQL `migrate()` runs: the table, its expiry index and the `<table>_begin` function. */
  get schema(): string {
    return idempotencySchema(this.#table)
  }

  /** Creates the table, index and function if missing. Idempotent; one transaction. */
  async migrate(): Promise<void> {
    await this.#query(migrationSql(this.#table, this.schema))
  }

  async begin(
    key: string,
    lease: string,
    fingerprint: string,
    lockMs: number,
  ): Promise<IdempotencyBegin> {
    checkBegin(`${NAME}.begin`, key, lease, fingerprint, lockMs)
    const sweep = this.#sweep.tick() ? SWEEP_ROWS : 0
    const rows = await this.#query(this.#begin, [
      await boundKey(key),
      lease,
      fingerprint,
      String(lockMs),
      String(sweep),
    ])
    const row = rows[0]
    if (rows.length === 1 && row !== undefined) {
      if (row.state === 'acquired') return { state: 'acquired' }
      if (row.state === 'mismatch') return { state: 'mismatch' }
      if (row.state === 'in-flight') {
        return { state: 'in-flight', retryAfterMs: columnNumber(NAME, row.retry_after_ms) }
      }
      const response = row.state === 'completed' ? decodeResponse(row.response) : null
      if (response !== null) return { state: 'completed', response }
    }
    throw new Error(`${NAME}: unexpected reply to begin`)
  }

  async complete(
    key: string,
    lease: string,
    response: IdempotentResponse,
    ttlMs: number,
  ): Promise<boolean> {
    checkComplete(`${NAME}.complete`, key, lease, response, ttlMs)
    const rows = await this.#query(
      `UPDATE ${this.#table} SET lease = NULL, response = $3, expires_at = ${NOW_MS} + $4::bigint
WHERE key = $1 AND lease = $2 AND response IS NULL
RETURNING 1`,
      [await boundKey(key), lease, encodeResponse(response), String(ttlMs)],
    )
    return rows.length === 1
  }

  async release(key: string, lease: string): Promise<void> {
    checkRelease(`${NAME}.release`, key, lease)
    await this.#query(
      `DELETE FROM ${this.#table} WHERE key = $1 AND lease = $2 AND response IS NULL`,
      [await boundKey(key), lease],
    )
  }
}
