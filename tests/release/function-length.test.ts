/**
 * Issue 37, point 2: functions in package code stay short. biome.jsonc turns on Biome's
 * noExcessiveLinesPerFunction for `packages/*\/src` (tests excluded). The offenders it once
 * listed (rateLimit, jwtAuth, csrf, the response check, the stripper) have all been split, so
 * no file is exempt any more. This test checks that the rule reaches package code and not tests,
 * that nothing turns it off, and that no function in package code runs past the limit.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const biome = join(root, 'tools/node_modules/.bin/biome')
const config = readFileSync(join(root, 'biome.jsonc'), 'utf8')
const RULE = 'lint/complexity/noExcessiveLinesPerFunction'
const maxLines = Number(/"maxLines":\s*(\d+)/.exec(config)?.[1])
const tmp = mkdtempSync(join(tmpdir(), 'palisade-function-length-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** The files of the rule's diagnostics for a `biome lint` with `args`, run in `cwd`. */
function longFunctions(args: string[], cwd = root): Promise<string[]> {
  return new Promise((done, fail) => {
    execFile(
      biome,
      ['lint', '--reporter=json', '--max-diagnostics=none', ...args],
      { cwd, maxBuffer: 16 * 1024 * 1024 },
      // Biome exits 1 when it finds errors: the report is on stdout either way.
      (_error, stdout) => {
        try {
          const report = JSON.parse(stdout) as {
            diagnostics: { category: string; location: { path: { file: string } | string } }[]
          }
          done(
            report.diagnostics
              .filter((d) => d.category === RULE)
              .map((d) =>
                typeof d.location.path === 'string' ? d.location.path : d.location.path.file,
              ),
          )
        } catch (error) {
          fail(new Error(`unreadable biome report: ${stdout.slice(0, 500)}`, { cause: error }))
        }
      },
    )
  })
}

/** A function of `lines` lines. */
const longFunction = (lines: number) =>
  `export function long(): number {\n  let n = 0\n${'  n += 1\n'.repeat(lines)}  return n\n}\n`

describe('function length lint (biome.jsonc)', () => {
  it('reads the limit, and finds no file exempt from it', () => {
    expect(maxLines).toBeGreaterThanOrEqual(100)
    expect(maxLines).toBeLessThanOrEqual(150)
    // An override that turns the rule off would exempt files again: split them instead.
    expect(config).not.toMatch(/"noExcessiveLinesPerFunction":\s*"off"/)
  })

  it('refuses a long function in package code, not in a test', async () => {
    // The repository's configuration over a copy of the layout, with three files in it.
    const repo = join(tmp, 'repo')
    const dir = join(repo, 'packages/middleware/src/feature')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(repo, 'biome.jsonc'), config.replace(/"\$schema":[^\n]*\n/, ''))
    writeFileSync(join(dir, 'long.ts'), longFunction(maxLines + 10))
    writeFileSync(join(dir, 'long.test.ts'), longFunction(maxLines + 10))
    writeFileSync(join(dir, 'short.ts'), longFunction(maxLines - 10))
    const found = await longFunctions(['--vcs-enabled=false', 'packages'], repo)
    expect(found).toEqual(['packages/middleware/src/feature/long.ts'])
  }, 30_000)

  it('finds no function in package code past the limit', async () => {
    expect(await longFunctions(['packages'])).toEqual([])
  }, 30_000)
})
