/**
 * The PostgreSQL stores page of the docs prints the SQL that the stores' migrate() runs, for
 * teams that apply schema changes with their own tools: it must be exactly what the code runs.
 */
import { readFileSync } from 'node:fs'
import {
  PostgresApiKeyStore,
  PostgresRateLimitStore,
  PostgresSessionStore,
} from '@palisade/middleware/postgres'
import { describe, expect, it } from 'vitest'

const PAGE = readFileSync(new URL('../../docs/stores/postgres.md', import.meta.url), 'utf8')
const client = { query: async () => ({ rows: [] }) }

describe('docs: PostgreSQL stores', () => {
  it('prints exactly the SQL migrate() runs for the default tables', () => {
    const sql = /```sql\n([\s\S]*?)```/.exec(PAGE)?.[1]
    const schema = [PostgresRateLimitStore, PostgresSessionStore, PostgresApiKeyStore]
      .map((Store) => new Store({ client }).schema)
      .join('\n')
    expect(sql?.trim()).toBe(schema.trim())
  })
})
