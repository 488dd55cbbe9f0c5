import { assertKnownKeys, formatValue, optionError } from '../internal/options'

/**
 * The part of a `pg` `Pool` or `Client` the PostgreSQL stores use: a parameterised query that
 * resolves with its rows.
 *
 * @example
 * import pg from 'pg'
 * const client: PgLike = new pg.Pool({ connectionString: process.env.DATABASE_URL })
 */
export interface PgLike {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>
}

/**
 * The part of a postgres.js `sql` instance the PostgreSQL stores use: `sql.unsafe(text, values)`,
 * a parameterised query that resolves with its rows.
 *
 * @example
 * import postgres from 'postgres'
 * const client: PostgresJsLike = postgres(process.env.DATABASE_URL!)
 */
export interface PostgresJsLike {
  unsafe(text: string, values?: never[]): PromiseLike<readonly unknown[]>
}

/**
 * A PostgreSQL client the stores accept: a `pg` `Pool` or `Client` (anything with
 * `query(text, values)`), or a postgres.js `sql` (anything with `unsafe(text, values)`). It is
 * told apart by its shape, so the package imports neither driver.
 *
 * @example
 * const client: PostgresClient = new pg.Pool() // or postgres(process.env.DATABASE_URL!)
 * const store = new PostgresRateLimitStore({ client })
 */
export type PostgresClient = PgLike | PostgresJsLike

/** One row, as both drivers return it: column name → value. */
export type Row = Record<string, unknown>

/**
 * Runs one statement with `$1…$n` parameters and resolves with its rows. Values are sent as text
 * (or null) and cast in SQL, so both drivers type them alike.
 */
export type Query = (text: string, values?: readonly (string | null)[]) => Promise<Row[]>

/** Wraps `client` into a {@link Query}, telling postgres.js (`unsafe`) from `pg` (`query`). */
export function toQuery(store: string, client: unknown): Query {
  const candidate = client as Partial<PgLike & PostgresJsLike> | null
  if ((typeof candidate === 'object' || typeof candidate === 'function') && candidate !== null) {
    // postgres.js first: its `sql` also answers to other names, but `unsafe` is its own.
    if (typeof candidate.unsafe === 'function') {
      const sql = candidate as PostgresJsLike
      return async (text, values = []) =>
        Array.from(await sql.unsafe(text, values as never[])) as Row[]
    }
    if (typeof candidate.query === 'function') {
      const pg = candidate as PgLike
      return async (text, values = []) => (await pg.query(text, [...values])).rows as Row[]
    }
  }
  throw optionError(
    store,
    `"client" must be a pg Pool or Client (query(text, values)) or a postgres.js sql (unsafe(text, values)), got ${formatValue(client)}`,
  )
}

/**
 * A table name the stores may put into SQL: an unquoted identifier, optionally schema-qualified
 * (`palisade.sessions`), lower case so PostgreSQL's case folding never surprises anyone. At most
 * 48 characters per part, which leaves room for the names derived from it (index, functions)
 * under PostgreSQL's 63-character limit.
 */
const TABLE = /^(?:[a-z_][a-z0-9_]{0,47}\.)?[a-z_][a-z0-9_]{0,47}$/

/** Options every PostgreSQL store takes. */
export interface PostgresStoreOptions {
  /** A `pg` Pool or Client, or a postgres.js `sql`; see {@link PostgresClient}. Required. */
  client: PostgresClient
  /** Table name, optionally schema-qualified (`app.sessions`). Each store has its default. */
  table?: string
}

/** Validates the options shared by the PostgreSQL stores; returns the query function and table. */
export function postgresStoreOptions(
  store: string,
  options: PostgresStoreOptions | undefined,
  defaultTable: string,
): { query: Query; table: string } {
  if (options === undefined || options === null || typeof options !== 'object') {
    throw optionError(store, '"client" is required')
  }
  assertKnownKeys(store, options, ['client', 'table'])
  const query = toQuery(store, options.client)
  const table = options.table ?? defaultTable
  if (typeof table !== 'string' || !TABLE.test(table)) {
    throw optionError(
      store,
      `"table" must be a lower-case SQL identifier, optionally schema-qualified (letters, digits, _; at most 48 each), got ${formatValue(table)}`,
    )
  }
  return { query, table }
}

/**
 * The database's clock in whole milliseconds since the epoch, as SQL. Every store reads time
 * from PostgreSQL, so app instances with skewed clocks agree.
 */
export const NOW_MS = 'floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint'

/** A numeric column as a number: drivers return bigint as a string (or a BigInt when told to). */
export function columnNumber(store: string, value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value)
  if (!Number.isFinite(n) || value === null || value === '') {
    throw new Error(`${store}: unexpected value from PostgreSQL: ${formatValue(value)}`)
  }
  return n
}

/** Every this many calls of a store instance, a call also deletes up to {@link SWEEP_ROWS} expired rows. */
export const SWEEP_EVERY = 64
export const SWEEP_ROWS = 256

/**
 * The `DELETE` that sweeps expired rows of table `t`: at most `limit` rows whose `expires_at` has
 * passed, never the row being written (`column <> self`) and never a row another statement holds
 * (`SKIP LOCKED`), found through the `expires_at` index.
 */
export function sweepSql(t: string, column: string, self: string, limit: string): string {
  return `DELETE FROM ${t} WHERE ctid = ANY (ARRAY(
  SELECT ctid FROM ${t} WHERE expires_at < ${NOW_MS} AND ${column} <> ${self}
  LIMIT ${limit} FOR UPDATE SKIP LOCKED))`
}

/** The index on `expires_at` that the sweep uses (an index lives in its table's schema). */
export function expiryIndexSql(t: string): string {
  return `CREATE INDEX IF NOT EXISTS ${t.slice(t.lastIndexOf('.') + 1)}_expires_at ON ${t} (expires_at);`
}

/**
 * What `migrate()` sends: `schema` after a transaction-scoped advisory lock on the table's name,
 * as one simple query (one implicit transaction), so concurrent migrations wait for each other.
 */
export function migrationSql(t: string, schema: string): string {
  return `SELECT pg_advisory_xact_lock(hashtext('palisade migrate ${t}'));\n${schema}`
}

/**
 * Counts calls and says when one should also sweep expired rows: every `every`th call of a store
 * instance, so tables stay bounded without a cron job and without a sweep on every request.
 */
export class SweepTicker {
  #calls = 0
  constructor(readonly every: number) {}
  /** Whether this call sweeps. */
  tick(): boolean {
    this.#calls = (this.#calls + 1) % this.every
    return this.#calls === 0
  }
}
