/**
 * Helpers for tests that need a real PostgreSQL: the shared server (`DATABASE_URL`, default
 * postgres://postgres@127.0.0.1:5432/test, trust auth), one client of each supported driver,
 * table names no other test file or run uses, and throwaway PostgreSQL clusters for fault tests
 * (the shared server is never stopped, so other tests running at the same time are unaffected).
 */
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import postgres from 'postgres'

export const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/** A `pg` Pool whose idle-client errors (a server restart) are not fatal, as apps should do. */
export function pgPool(url = DATABASE_URL, options: pg.PoolConfig = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 10, ...options })
  pool.on('error', () => {})
  return pool
}

/** A postgres.js `sql` with NOTICE messages silenced (CREATE … IF NOT EXISTS prints them). */
export function postgresJs(
  url = DATABASE_URL,
  options: {
    max?: number
    connect_timeout?: number
    idle_timeout?: number
    backoff?: (retries: number) => number
  } = {},
) {
  return postgres(url, { max: 10, onnotice: () => {}, ...options })
}

/** A table name no other test file or run uses: `palisade_t_<label>_<random>`. */
export function uniqueTable(label: string): string {
  return `palisade_t_${label}_${randomUUID().replaceAll('-', '').slice(0, 12)}`.toLowerCase()
}

/** Drops what a store's migrate() created: the table and the functions named after it. */
export async function dropStoreTable(pool: pg.Pool, table: string): Promise<void> {
  await pool.query(
    `DROP FUNCTION IF EXISTS ${table}_hit; DROP FUNCTION IF EXISTS ${table}_consume; DROP FUNCTION IF EXISTS ${table}_limit; DROP FUNCTION IF EXISTS ${table}_acquire; DROP FUNCTION IF EXISTS ${table}_begin; DROP FUNCTION IF EXISTS ${table}_rotate; DROP FUNCTION IF EXISTS ${table}_revoke; DROP TABLE IF EXISTS ${table}`,
  )
}

/** Tables of this run still present (leak check): names starting with `prefix`. */
export async function tablesWithPrefix(pool: pg.Pool, prefix: string): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE tablename LIKE $1`,
    [`${prefix.replaceAll('_', '\\_')}%`],
  )
  return rows.map((r) => r.name)
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const BIN = '/usr/lib/postgresql/15/bin'

/** A PostgreSQL cluster of its own in a temporary directory, on a free port. */
export interface ThrowawayPostgres {
  readonly url: string
  readonly port: number
  /** Starts the server (again) and resolves once it accepts connections. */
  start(): Promise<void>
  /** Stops it: `'immediate'` is a crash (no checkpoint; committed work is recovered from WAL). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>
  /** Stops the server if it runs and deletes its directory. */
  destroy(): Promise<void>
}

/** Whether a throwaway cluster can be made here (the PostgreSQL 15 server binaries exist). */
export const canMakeCluster = existsSync(join(BIN, 'initdb'))

/**
 * initdb + pg_ctl into a temporary directory, as the `postgres` OS user when running as root
 * (PostgreSQL refuses to run as root). fsync stays on: the restart test relies on durability.
 */
export async function throwawayPostgres(port: number): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'palisade-pg-'))
  const asRoot = process.getuid?.() === 0
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]
    execFileSync(file as string, argv as string[], { stdio: 'pipe' })
  }
  if (asRoot) execFileSync('chown', ['postgres', dir])
  const data = join(dir, 'data')
  run(join(BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8'])
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on`
  let running = false
  const cluster: ThrowawayPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async start() {
      run(join(BIN, 'pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start'])
      running = true
    },
    async stop(mode = 'fast') {
      run(join(BIN, 'pg_ctl'), ['-D', data, '-m', mode, '-w', 'stop'])
      running = false
    },
    async destroy() {
      if (running) await cluster.stop('immediate').catch(() => {})
      rmSync(dir, { recursive: true, force: true })
    },
  }
  await cluster.start()
  return cluster
}
