/**
 * The middleware README prints the SQL that the PostgreSQL stores' migrate() runs, for teams that
 * apply schema changes with their own tools: it must be exactly what the code runs.
 */
import { readFileSync } from 'node:fs'
import {
  PostgresApiKeyStore,
  PostgresRateLimitStore,
  PostgresSessionStore,
} from '@palisade/middleware/postgres'
import { describe, expect, it } from 'vitest'

const README = readFileSync(new URL('../../packages/middleware/README.md', import.meta.url), 'utf8')
const client = { query: async () => ({ rows: [] }) }

describe('README: PostgreSQL stores', () => {
  it('prints exactly the SQL migrate() runs for the default tables', () => {
    const section = README.split('### PostgreSQL stores')[1]?.split('\n### ')[0] ?? ''
    const sql = /```sql\n([\s\S]*?)```/.exec(section)?.[1]
    const schema = [PostgresRateLimitStore, PostgresSessionStore, PostgresApiKeyStore]
      .map((Store) => new Store({ client }).schema)
      .join('\n')
    expect(sql?.trim()).toBe(schema.trim())
  })
})
