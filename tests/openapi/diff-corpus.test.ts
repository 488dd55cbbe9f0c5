// The diff corpus (issue 41): every before/after pair classified as expected, and the agreement
// of our levels with oasdiff's published levels for the rules the two share, which
// docs/openapi/diff.md reports.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { DIFF_RULES, diff, fromOasdiff } from '../../packages/openapi/src/diff'
import { CORPUS } from './fixtures/diff-corpus'

/** The value at a JSON pointer, or undefined. */
function at(value: unknown, pointer: string): unknown {
  let node = value
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined
    node = (node as Record<string, unknown>)[key]
  }
  return node
}

const sorted = (pairs: Array<[string, string]>) => pairs.map((p) => p.join(' ')).sort()

describe('diff corpus', () => {
  it('has at least 60 pairs with distinct names', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(60)
    expect(new Set(CORPUS.map((c) => c.name)).size).toBe(CORPUS.length)
  })

  it.each(CORPUS.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const changes = diff(c.before, c.after)
    expect(sorted(changes.map((ch) => [ch.id, ch.level]))).toEqual(sorted(c.expect))
    for (const change of changes) {
      // Every change is located in at least one document, by a pointer that resolves there.
      expect(change.old ?? change.new).toBeDefined()
      if (change.old !== undefined) expect(at(c.before, change.old)).toBeDefined()
      if (change.new !== undefined) expect(at(c.after, change.new)).toBeDefined()
      expect(DIFF_RULES.has(change.id)).toBe(true)
    }
    // The reverse direction never throws and the pair compared with itself is empty.
    diff(c.after, c.before)
    expect(diff(c.before, structuredClone(c.before))).toEqual([])
  })

  it('reports the agreement with oasdiff that docs/openapi/diff.md states', () => {
    const shared = [...new Set(CORPUS.flatMap((c) => c.expect.map(([id]) => id)))]
      .map((id) => DIFF_RULES.get(id)!)
      .filter((rule) => rule.oasdiff !== undefined)
    const agree = shared.filter((rule) => fromOasdiff(rule.oasdiff!) === rule.level)
    const differ = shared.filter((rule) => fromOasdiff(rule.oasdiff!) !== rule.level)
    const ids = CORPUS.flatMap((c) => c.expect.map(([id]) => id))
    const ours = [...new Set(ids)].filter((id) => DIFF_RULES.get(id)!.oasdiff === undefined)
    const page = readFileSync('docs/openapi/diff.md', 'utf8')
    expect(page).toContain(
      `The corpus exercises ${new Set(ids).size} rules: ${shared.length} are oasdiff checks, and ${agree.length} of them have the level oasdiff gives`,
    )
    const all = [...DIFF_RULES.values()]
    const oasdiff = all.filter((rule) => rule.oasdiff !== undefined).length
    expect(page).toContain(`${oasdiff} of our ${all.length} rule ids are oasdiff ids`)
    for (const rule of differ) expect(page).toContain(`\`${rule.id}\``)
    for (const id of ours) expect(page).toContain(`\`${id}\``)
  })

  it('lists every rule outside the schema checks in the docs table, with both levels', () => {
    const page = readFileSync('docs/openapi/diff.md', 'utf8')
    const schemaCheck =
      /^(?:request-parameter|request-body|request-property|response-body|response-property)-(?:type|became-(?:not-)?nullable|enum|became-enum|pattern|max|min)/
    for (const rule of DIFF_RULES.values()) {
      if (schemaCheck.test(rule.id)) continue
      // The table may be padded to align its columns.
      const row = new RegExp(
        `\\|\\s*\`${rule.id}\`\\s*\\|\\s*${rule.level}\\s*\\|\\s*${rule.oasdiff ?? '—'}\\s*\\|`,
      )
      expect(page, rule.id).toMatch(row)
    }
  })
})
