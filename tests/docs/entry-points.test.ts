/**
 * The entry points a new user reads first (the README, the guide, the home page) agree with the
 * packages: what jwtAuth verifies, which store backends exist, and an API reference built without
 * warnings (TypeDoc warnings are errors, so a broken link or a stale @param fails the build).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { root } from './blocks'

const read = (path: string) => readFileSync(join(root, path), 'utf8')

describe('the entry points agree with the packages', () => {
  it.each([['README.md'], ['packages/middleware/README.md'], ['docs/middleware/index.md']])(
    '%s says jwtAuth verifies public keys, JWKS and discovery, not only HMAC',
    (path) => {
      const row = read(path)
        .split('\n')
        .find((line) => line.startsWith('| [`jwtAuth`'))
      expect(row).toBeDefined()
      expect(row).not.toMatch(/HMAC JWT/)
      for (const source of ['public key', 'JWKS', 'discovery']) expect(row).toContain(source)
    },
  )

  it.each([['README.md'], ['docs/guide/index.md'], ['docs/index.md']])(
    '%s names every store backend, PostgreSQL included',
    (path) => {
      const text = read(path)
      for (const backend of ['Redis', 'PostgreSQL', 'Deno KV']) expect(text).toContain(backend)
    },
  )

  it('the API reference build treats TypeDoc warnings as errors', () => {
    const config = JSON.parse(read('docs/typedoc.json')) as Record<string, unknown>
    expect(config.treatWarningsAsErrors).toBe(true)
  })
})
