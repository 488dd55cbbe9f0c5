import { boundKey } from '../internal/stores/bounded-key'
import { forgetRefusals } from '../internal/stores/deny-caches'
import { checkLimitArgs } from '../internal/stores/store-args'
import type {
  RateLimitAlgorithm,
  RateLimitHit,
  RateLimitInfo,
  RateLimitRequest,
  RateLimitStore,
  RateLimitVerdict,
} from '../rate-limit/store'
import { checkRateLimitRequest } from '../rate-limit/store'
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

const NAME = 'PostgresRateLimitStore'

/** Each algorithm's state is its own row, so one key limited two ways never clashes. */
const ALGORITHM = { 'fixed-window': 'f', 'sliding-window': 's', 'token-bucket': 't' } as const

/**
 * The schema of a rate-limit table named `t`: one row per key and algorithm, and three functions.
 * `t_limit` is each algorithm's arithmetic, once (rate-limit/algorithms.ts fixedEvaluate,
 * slidingEvaluate, bucketEvaluate in PL/pgSQL: a pure function of one limit's row and the time).
 * `t_hit` counts one request of one limit in one statement: it locks the key's row (an upsert that
 * creates it when missing), reads the database clock after the lock and applies `t_limit`, so
 * concurrent requests queue on the row and never share a count. `t_consume` applies `t_limit` to
 * every limit of a call under a per-key advisory lock and writes all of them, or a block, or
 * nothing. Every statement is idempotent (`IF NOT EXISTS`, `CREATE OR REPLACE` with the
 * signatures and result types of the earlier versions), so `migrate()` upgrades a database made by
 * an earlier version in place, live rows kept, and instances still on that version keep working.
 */
export function rateLimitSchema(t: string): string {
  return `CREATE TABLE IF NOT EXISTS ${t} (
  key text NOT NULL,
  algorithm text NOT NULL,     -- 'f', 's', 't': fixed/sliding window, token bucket;
                               -- 'f:<windowMs>' (…) for consume(); 'b' a block until expires_at
  value bigint NOT NULL,       -- f: count; s: count of window "mark"; t: tokens × windowMs
  previous bigint NOT NULL,    -- s: count of the window before "mark"
  mark bigint NOT NULL,        -- s: window index (now / windowMs); t: when "value" was measured
  expires_at bigint NOT NULL,  -- ms since the epoch; from then on the row is as good as absent
  PRIMARY KEY (key, algorithm)
);
${expiryIndexSql(t)}
CREATE OR REPLACE FUNCTION ${t}_limit(
  p_algorithm text, now_ms bigint, w bigint, mx bigint, cost bigint, live boolean,
  v bigint, p bigint, m bigint, e bigint,
  OUT used bigint, OUT ttl bigint, OUT fits boolean,
  OUT nv bigint, OUT np bigint, OUT nm bigint, OUT ne bigint
) LANGUAGE plpgsql IMMUTABLE AS $limit$
DECLARE
  idx bigint;
  cur bigint := 0;
  prev bigint := 0;
  elapsed bigint;
  capacity bigint;
  lvl bigint;
  need bigint;
BEGIN
  np := 0;
  IF p_algorithm = 'f' THEN
    ne := CASE WHEN live THEN e ELSE now_ms + w END;
    used := CASE WHEN live THEN v ELSE 0 END + cost;
    ttl := ne - now_ms;
    nv := used;
    nm := 0;
  ELSIF p_algorithm = 's' THEN
    idx := now_ms / w;
    IF live AND m = idx THEN
      cur := v;
      prev := p;
    ELSIF live AND m = idx - 1 THEN
      prev := v;
    END IF;
    elapsed := now_ms - idx * w;
    used := prev * (w - elapsed) / w + cur + cost;
    ttl := w - elapsed;
    nv := cur + cost;
    np := prev;
    nm := idx;
    ne := (idx + 2) * w;
  ELSE
    capacity := mx * w;
    lvl := capacity;
    IF live THEN
      lvl := least(capacity, v + greatest(0, now_ms - m) * mx);
    END IF;
    need := cost * w;
    IF lvl < need THEN
      used := greatest(mx + 1, mx - lvl / w + cost);
      ttl := (need - lvl + mx - 1) / mx;
    ELSE
      lvl := lvl - need;
      used := mx - lvl / w;
      ttl := (w - lvl % w + mx - 1) / mx;
    END IF;
    nv := lvl;
    nm := now_ms;
    ne := now_ms + greatest(1, (capacity - lvl + mx - 1) / mx);
  END IF;
  fits := used <= mx;
END
$limit$;
CREATE OR REPLACE FUNCTION ${t}_hit(
  p_key text, p_algorithm text, p_window bigint, p_max bigint, p_cost bigint, p_sweep integer
) RETURNS TABLE (used bigint, ttl bigint) LANGUAGE plpgsql AS $hit$
DECLARE
  r ${t}%ROWTYPE;
  now_ms bigint;
  l record;
BEGIN
  IF p_sweep > 0 THEN
    ${sweepSql(t, 'key', 'p_key', 'p_sweep')};
  END IF;
  -- Locks the key's row (creating it when missing): requests for this key wait here, one at a
  -- time, and each reads the clock only once it holds the lock.
  SELECT * INTO r FROM ${t} WHERE key = p_key AND algorithm = p_algorithm FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO ${t} AS x (key, algorithm, value, previous, mark, expires_at)
      VALUES (p_key, p_algorithm, 0, 0, 0, 0)
      ON CONFLICT (key, algorithm) DO UPDATE SET expires_at = x.expires_at
      RETURNING * INTO r;
  END IF;
  now_ms := ${NOW_MS};
  l := ${t}_limit(p_algorithm, now_ms, p_window, p_max, p_cost, r.expires_at > now_ms,
    r.value, r.previous, r.mark, r.expires_at);
  used := l.used;
  ttl := l.ttl;
  -- A fixed window counts every request, refused or not (increment() has no max); the sliding
  -- window and the bucket record only what fits.
  IF l.fits OR p_algorithm = 'f' THEN
    UPDATE ${t} SET value = l.nv, previous = l.np, mark = l.nm, expires_at = l.ne
      WHERE key = p_key AND algorithm = p_algorithm;
  END IF;
  RETURN NEXT;
END
$hit$;
CREATE OR REPLACE FUNCTION ${t}_consume(
  p_key text, p_algorithm text, p_windows bigint[], p_maxes bigint[], p_cost bigint,
  p_block bigint, p_sweep integer
) RETURNS TABLE (allowed boolean, blocked_ms bigint, used bigint[], ttl bigint[])
LANGUAGE plpgsql AS $consume$
DECLARE
  r ${t}%ROWTYPE;
  n integer := array_length(p_windows, 1);
  now_ms bigint;
  blocked_until bigint;
  fits boolean := true;
  l record;
  nv bigint[] := '{}';
  np bigint[] := '{}';
  nm bigint[] := '{}';
  ne bigint[] := '{}';
BEGIN
  IF p_sweep > 0 THEN
    ${sweepSql(t, 'key', 'p_key', 'p_sweep')};
  END IF;
  -- Calls that may write for this key run one at a time (a read, cost 0, takes no lock).
  IF p_cost > 0 THEN
    PERFORM pg_advisory_xact_lock(hashtext('${t}'), hashtext(p_key));
  END IF;
  now_ms := ${NOW_MS};
  used := '{}';
  ttl := '{}';
  SELECT expires_at INTO blocked_until FROM ${t} WHERE key = p_key AND algorithm = 'b';
  blocked_ms := greatest(0, coalesce(blocked_until, 0) - now_ms);
  FOR i IN 1..n LOOP
    SELECT * INTO r FROM ${t} WHERE key = p_key AND algorithm = p_algorithm || ':' || p_windows[i];
    l := ${t}_limit(p_algorithm, now_ms, p_windows[i], p_maxes[i], p_cost,
      FOUND AND r.expires_at > now_ms, r.value, r.previous, r.mark, r.expires_at);
    fits := fits AND l.fits;
    nv := nv || l.nv;
    np := np || l.np;
    nm := nm || l.nm;
    ne := ne || l.ne;
    used := used || l.used;
    ttl := ttl || l.ttl;
  END LOOP;
  allowed := fits AND blocked_ms = 0;
  IF p_cost > 0 AND allowed THEN
    FOR i IN 1..n LOOP
      INSERT INTO ${t} (key, algorithm, value, previous, mark, expires_at)
        VALUES (p_key, p_algorithm || ':' || p_windows[i], nv[i], np[i], nm[i], ne[i])
        ON CONFLICT (key, algorithm) DO UPDATE SET value = excluded.value,
          previous = excluded.previous, mark = excluded.mark, expires_at = excluded.expires_at;
    END LOOP;
  ELSIF p_cost > 0 AND p_block > 0 AND blocked_ms = 0 THEN
    INSERT INTO ${t} (key, algorithm, value, previous, mark, expires_at)
      VALUES (p_key, 'b', 0, 0, 0, now_ms + p_block)
      ON CONFLICT (key, algorithm) DO UPDATE SET expires_at = excluded.expires_at;
    blocked_ms := p_block;
  END IF;
  RETURN NEXT;
END
$consume$;
`
}

/**
 * Options of {@link PostgresRateLimitStore}.
 *
 * @example
 * const options: PostgresRateLimitStoreOptions = { client: pool, table: 'shop_rate_limits' }
 * const store = new PostgresRateLimitStore(options)
 */
export interface PostgresRateLimitStoreOptions extends PostgresStoreOptions {
  /** Table name, optionally schema-qualified. Default `'palisade_rate_limits'`. */
  table?: string
}

/**
 * Rate-limit counters in PostgreSQL, shared by every instance of an app, for teams that run
 * PostgreSQL and no Redis. It implements all three algorithms, `consume` (cost, several limits,
 * blocks, reads), `decrement` and `reset`. Each
 * call is one statement: counting calls the function `<table>_hit`, which locks the key's row
 * with an upsert, so concurrent requests queue on that row and never share a count (the same
 * arithmetic as the memory store, on the database's clock). Expired rows are deleted by the
 * store itself: every 64th call also deletes up to 256 of them, so no cron job is needed.
 * Create the table and function once with {@link PostgresRateLimitStore.migrate} (or the SQL in
 * {@link PostgresRateLimitStore.schema}); nothing is created on a request. Errors from the client
 * propagate, so `rateLimit`'s `failOpen` policy decides what happens while PostgreSQL is down.
 *
 * @param options.client - A `pg` Pool or Client, or a postgres.js `sql`. Required.
 * @param options.table - Table name. Default `'palisade_rate_limits'`.
 * @example
 * import pg from 'pg'
 * import { PostgresRateLimitStore } from '@palisade/middleware/postgres'
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL })
 * const store = new PostgresRateLimitStore({ client: pool })
 * await store.migrate() // once, at deploy or start-up
 * app.use('/api/*', rateLimit({ max: 100, windowMs: 60_000, store }))
 */
export class PostgresRateLimitStore implements RateLimitStore {
  readonly #query: Query
  readonly #table: string
  readonly #sweep = new SweepTicker(SWEEP_EVERY)
  readonly #hit: string
  readonly #consume: string

  constructor(options: PostgresRateLimitStoreOptions) {
    const { query, table } = postgresStoreOptions(NAME, options, 'palisade_rate_limits')
    this.#query = query
    this.#table = table
    this.#hit = `SELECT used, ttl FROM ${table}_hit($1, $2, $3::bigint, $4::bigint, $5::bigint, $6::integer)`
    this.#consume = `SELECT allowed, blocked_ms, used::text[] AS used, ttl::text[] AS ttl FROM ${table}_consume($1, $2, $3::text::bigint[], $4::text::bigint[], $5::bigint, $6::bigint, $7::integer)`
  }

  /**
   * The SQL `migrate()` runs: the table, its expiry index and the `<table>_hit` and
   * `<table>_consume` functions.
   */
  get schema(): string {
    return rateLimitSchema(this.#table)
  }

  /**
   * Creates the table, index and function if missing (and replaces the function with this
   * version's). Idempotent, and safe when several instances run it at once: it runs as one
   * transaction under an advisory lock.
   */
  async migrate(): Promise<void> {
    await this.#query(migrationSql(this.#table, this.schema))
  }

  /** Fixed window: counts one request for `key`; starts a window of `windowMs` if none runs. */
  async increment(key: string, windowMs: number): Promise<RateLimitInfo> {
    checkLimitArgs(NAME, 'increment', windowMs)
    return this.#take('increment', key, 'fixed-window', windowMs, 1)
  }

  /** Sliding window: counts one request unless the weighted count would pass `max`. */
  async slidingWindow(key: string, windowMs: number, max: number): Promise<RateLimitInfo> {
    checkLimitArgs(NAME, 'slidingWindow', windowMs, max)
    return this.#take('slidingWindow', key, 'sliding-window', windowMs, max)
  }

  /** Token bucket of `max` tokens, refilled at `max` per `windowMs`: takes one token. */
  async tokenBucket(key: string, windowMs: number, max: number): Promise<RateLimitInfo> {
    checkLimitArgs(NAME, 'tokenBucket', windowMs, max)
    return this.#take('tokenBucket', key, 'token-bucket', windowMs, max)
  }

  /**
   * Checks every limit of `request` and takes `request.cost` from each only if all pass and the
   * key is not blocked; a refused request with `blockMs` blocks the key; `cost: 0` reads only.
   * One statement: `<table>_consume`, which serialises the calls that may write for one key
   * (a transaction-scoped advisory lock) and writes every limit's row, or the block, or nothing.
   */
  async consume(key: string, request: RateLimitRequest): Promise<RateLimitVerdict> {
    const { algorithm, limits, cost, blockMs } = checkRateLimitRequest(NAME, request)
    // The rows are read in one order (by window) whatever order the caller lists them in.
    const order = limits
      .map((_, i) => i)
      .sort((a, b) => (limits[a] as Limit).windowMs - (limits[b] as Limit).windowMs)
    const sorted = order.map((i) => limits[i] as Limit)
    const sweep = cost > 0 && this.#sweep.tick() ? SWEEP_ROWS : 0
    const rows = await this.#query(this.#consume, [
      await boundKey(key),
      ALGORITHM[algorithm],
      `{${sorted.map((l) => l.windowMs).join(',')}}`,
      `{${sorted.map((l) => l.max).join(',')}}`,
      String(cost),
      String(blockMs),
      String(sweep),
    ])
    const row = rows[0]
    const used = row?.used
    const ttl = row?.ttl
    if (!Array.isArray(used) || !Array.isArray(ttl) || used.length !== limits.length) {
      throw new Error(`${NAME}: unexpected reply to consume`)
    }
    const out: RateLimitInfo[] = new Array(limits.length)
    order.forEach((original, i) => {
      out[original] = {
        count: columnNumber(NAME, used[i]),
        ttl: Math.max(0, columnNumber(NAME, ttl[i])),
      }
    })
    return {
      allowed: row?.allowed === true || row?.allowed === 't',
      limits: out,
      blockedMs: columnNumber(NAME, row?.blocked_ms),
    }
  }

  /**
   * Gives back one request of `key` under `hit.algorithm`: a fixed or sliding count goes down by
   * one while its window runs (never below zero), a bucket gets its token back (never above
   * `max`). One `UPDATE`; a key without live state is left alone.
   */
  async decrement(key: string, hit: RateLimitHit): Promise<void> {
    checkLimitArgs(NAME, 'decrement', hit.windowMs, hit.max)
    key = await boundKey(key)
    const t = this.#table
    const where = `WHERE key = $1 AND algorithm = '${ALGORITHM[hit.algorithm]}' AND expires_at > n.now_ms`
    const now = `(SELECT ${NOW_MS} AS now_ms) n`
    if (hit.algorithm === 'token-bucket') {
      // Refill up to now, then add the token back, capped at capacity.
      await this.#query(
        `UPDATE ${t} SET
  value = least($3::bigint * $2::bigint,
    value + greatest(0, n.now_ms - mark) * $3::bigint + $2::bigint),
  mark = greatest(mark, n.now_ms),
  expires_at = greatest(mark, n.now_ms) + greatest(1, ($3::bigint * $2::bigint - least($3::bigint * $2::bigint,
    value + greatest(0, n.now_ms - mark) * $3::bigint + $2::bigint) + $3::bigint - 1) / $3::bigint)
FROM ${now} ${where}`,
        [key, String(hit.windowMs), String(hit.max)],
      )
    } else if (hit.algorithm === 'sliding-window') {
      await this.#query(
        `UPDATE ${t} SET value = greatest(0, value - 1) FROM ${now} ${where} AND mark = n.now_ms / $2::bigint`,
        [key, String(hit.windowMs)],
      )
    } else {
      await this.#query(`UPDATE ${t} SET value = greatest(0, value - 1) FROM ${now} ${where}`, [
        key,
      ])
    }
  }

  /** Forgets `key` under every algorithm, so its next request starts fresh. One `DELETE`. */
  async reset(key: string): Promise<void> {
    await this.#query(`DELETE FROM ${this.#table} WHERE key = $1`, [await boundKey(key)])
    await forgetRefusals(this, key)
  }

  async #take(
    method: string,
    key: string,
    algorithm: RateLimitAlgorithm,
    windowMs: number,
    max: number,
  ): Promise<RateLimitInfo> {
    const sweep = this.#sweep.tick() ? SWEEP_ROWS : 0
    const rows = await this.#query(this.#hit, [
      await boundKey(key),
      ALGORITHM[algorithm],
      String(windowMs),
      String(max),
      '1',
      String(sweep),
    ])
    const row = rows[0]
    if (row === undefined) throw new Error(`${NAME}: no reply to ${method}`)
    return {
      count: columnNumber(NAME, row.used),
      ttl: Math.max(0, columnNumber(NAME, row.ttl)),
    }
  }
}

type Limit = RateLimitRequest['limits'][number]
