import { KeyedQueue } from '../internal/stores/key-queue'
import { parseStoredObject, sessionLifetimeMs, sessionWrite } from '../internal/stores/store-args'
import type { SessionData, SessionStore, SessionUpdate } from '../sessions/store'
import {
  expiryIndexSql,
  migrationSql,
  NOW_MS,
  type PostgresStoreOptions,
  postgresStoreOptions,
  type Query,
  type Row,
  SWEEP_EVERY,
  SWEEP_ROWS,
  SweepTicker,
  sweepSql,
} from './client'

const NAME = 'PostgresSessionStore'

/** Conflicts tolerated before `update` gives up (each one means another write just landed). */
const MAX_UPDATE_ATTEMPTS = 16

/**
 * The schema of a session table named `t`. `data` is `json` (kept as written, so it reads back
 * exactly), `version` changes on every write and is what `update` compares and sets.
 */
export function sessionSchema(t: string): string {
  return `CREATE TABLE IF NOT EXISTS ${t} (
  id text PRIMARY KEY,
  data json NOT NULL,
  version uuid NOT NULL,       -- new on every write: update() compares and sets it
  expires_at bigint NOT NULL   -- ms since the epoch
);
${expiryIndexSql(t)}
`
}

/**
 * Options of {@link PostgresSessionStore}.
 *
 * @example
 * const options: PostgresSessionStoreOptions = { client: pool, table: 'shop_sessions' }
 * app.use(sessions({ secret, store: new PostgresSessionStore(options) }))
 */
export interface PostgresSessionStoreOptions extends PostgresStoreOptions {
  /** Table name, optionally schema-qualified. Default `'palisade_sessions'`. */
  table?: string
}

/**
 * Session data in PostgreSQL, shared by every instance of an app. One row per session: the data
 * as `json`, a `version` and an expiry on the database's clock; an expired row reads as missing.
 * `update` is a compare-and-set on `version` (read, apply, then one conditional `UPDATE`,
 * `INSERT … ON CONFLICT` or `DELETE` that succeeds only if nobody wrote in between, retried on a
 * conflict), so concurrent requests on one session keep each other's writes across instances.
 * Every 64th write also deletes up to 256 expired sessions in the same statement, so no cron job
 * is needed. Create the table once with {@link PostgresSessionStore.migrate} (or the SQL in
 * {@link PostgresSessionStore.schema}). Errors from the client propagate, so `sessions` answers
 * 503 while PostgreSQL is unreachable.
 *
 * @param options.client - A `pg` Pool or Client, or a postgres.js `sql`. Required.
 * @param options.table - Table name. Default `'palisade_sessions'`.
 * @example
 * import postgres from 'postgres'
 * import { PostgresSessionStore } from '@palisade/middleware/postgres'
 *
 * const store = new PostgresSessionStore({ client: postgres(process.env.DATABASE_URL!) })
 * await store.migrate()
 * app.use(sessions({ secret: process.env.SESSION_SECRET!, store }))
 */
export class PostgresSessionStore implements SessionStore {
  readonly #query: Query
  readonly #table: string
  readonly #sweep = new SweepTicker(SWEEP_EVERY)
  /** Updates of one session from this process run one at a time; the CAS covers other processes. */
  readonly #updates = new KeyedQueue()

  constructor(options: PostgresSessionStoreOptions) {
    const { query, table } = postgresStoreOptions(NAME, options, 'palisade_sessions')
    this.#query = query
    this.#table = table
  }

  /** The SQL `migrate()` runs: the table and its expiry index. */
  get schema(): string {
    return sessionSchema(this.#table)
  }

  /** Creates the table and index if missing. Idempotent; one transaction under an advisory lock. */
  async migrate(): Promise<void> {
    await this.#query(migrationSql(this.#table, this.schema))
  }

  /** The session's data, or `null` when it is unknown, expired or unreadable. */
  async get(id: string): Promise<SessionData | null> {
    return parseStoredObject((await this.#read(id))?.data)
  }

  /** Stores `data` for `maxAge` seconds, replacing what was there; `maxAge <= 0` deletes it. */
  async set(id: string, data: SessionData, maxAge: number): Promise<void> {
    // Serialised before the table is touched: data that cannot be stored never deletes the old value.
    const write = sessionWrite(NAME, data, maxAge)
    if (write === null) {
      await this.destroy(id)
      return
    }
    await this.#query(
      `${this.#sweepClause()}INSERT INTO ${this.#table} AS s (id, data, version, expires_at)
VALUES ($1, $2::text::json, gen_random_uuid(), ${NOW_MS} + $3::bigint)
ON CONFLICT (id) DO UPDATE SET data = excluded.data, version = excluded.version,
  expires_at = excluded.expires_at`,
      [id, write.text, String(write.ms)],
    )
  }

  /**
   * Read-modify-write without lost updates: reads the data and its version, applies `apply`, and
   * writes only if the version is unchanged; on a conflict it backs off a random moment, reads
   * again and re-applies (at most 16 times, then it throws). A missing or expired session is passed to `apply` as `null`;
   * `null` back writes nothing, `{}` deletes.
   */
  async update(id: string, apply: SessionUpdate, maxAge: number): Promise<SessionData | null> {
    const ms = sessionLifetimeMs(NAME, maxAge)
    return this.#updates.run(id, () => this.#compareAndSet(id, apply, ms))
  }

  async #compareAndSet(id: string, apply: SessionUpdate, ms: number): Promise<SessionData | null> {
    const t = this.#table
    for (let attempt = 0; attempt < MAX_UPDATE_ATTEMPTS; attempt++) {
      const row = await this.#read(id)
      const current = parseStoredObject(row?.data)
      const next = apply(current)
      if (next === null) return null
      const version = row === undefined ? null : String(row.version)
      let rows: Row[]
      if (Object.keys(next).length === 0 || ms <= 0) {
        if (version === null) return next
        rows = await this.#query(
          `DELETE FROM ${t} WHERE id = $1 AND version = $2::uuid RETURNING 1`,
          [id, version],
        )
      } else if (version === null) {
        // Only where there is no live session: a missing or expired row.
        rows = await this.#query(
          `${this.#sweepClause()}INSERT INTO ${t} AS s (id, data, version, expires_at)
VALUES ($1, $2::text::json, gen_random_uuid(), ${NOW_MS} + $3::bigint)
ON CONFLICT (id) DO UPDATE SET data = excluded.data, version = excluded.version,
  expires_at = excluded.expires_at
WHERE s.expires_at <= ${NOW_MS}
RETURNING 1`,
          [id, JSON.stringify(next), String(ms)],
        )
      } else {
        rows = await this.#query(
          `UPDATE ${t} SET data = $2::text::json, version = gen_random_uuid(),
  expires_at = ${NOW_MS} + $3::bigint
WHERE id = $1 AND version = $4::uuid AND expires_at > ${NOW_MS}
RETURNING 1`,
          [id, JSON.stringify(next), String(ms), version],
        )
      }
      if (rows.length === 1) return next
      // Lost to another instance: back off a random, growing moment, so contenders spread out
      // instead of colliding again on the next read.
      await new Promise((resolve) =>
        setTimeout(resolve, Math.random() * Math.min(50, 2 ** attempt)),
      )
    }
    throw new Error(`${NAME}: session ${JSON.stringify(id)} kept changing; update gave up`)
  }

  /** Deletes the session; unknown ids are ignored. */
  async destroy(id: string): Promise<void> {
    await this.#query(`DELETE FROM ${this.#table} WHERE id = $1`, [id])
  }

  async #read(id: string): Promise<Row | undefined> {
    const rows = await this.#query(
      `SELECT data::text AS data, version::text AS version FROM ${this.#table}
WHERE id = $1 AND expires_at > ${NOW_MS}`,
      [id],
    )
    return rows[0]
  }

  /**
   * On every 64th write: a data-modifying CTE in front of the write that deletes up to 256
   * expired sessions (never the one being written, never a row another statement holds).
   */
  #sweepClause(): string {
    if (!this.#sweep.tick()) return ''
    const t = this.#table
    return `WITH sweep AS (${sweepSql(t, 'id', '$1', String(SWEEP_ROWS))})
`
  }
}
