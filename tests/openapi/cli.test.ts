// The `palisade` command, run in-process from source (scripts/check-consumer.mjs runs the built
// bin from the packed tarball, TypeScript module included, in a fresh project).
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { main } from '../../packages/openapi/src/cli/main'
import { toYAML } from '../../packages/openapi/src/cli/yaml'

const EXAMPLE = 'examples/api.ts'
const BROKEN = 'tests/openapi/fixtures/broken-app.ts'
const tmp = mkdtempSync(join(tmpdir(), 'palisade-cli-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

let out = ''
let err = ''
beforeEach(() => {
  out = ''
  err = ''
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk)
    return true
  })
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err += String(chunk)
    return true
  })
  vi.spyOn(console, 'warn').mockImplementation(() => {})
  vi.spyOn(console, 'log').mockImplementation(() => {})
})
afterEach(() => {
  vi.restoreAllMocks()
})

/** js-yaml, as the Redocly CLI (a test tool of this repo) depends on it: a real YAML parser. */
function yamlParser(): { load(text: string): unknown } {
  const redocly = createRequire(realpathSync('tests/node_modules/@redocly/cli/package.json'))
  return createRequire(redocly.resolve('@redocly/openapi-core'))('js-yaml')
}

describe('palisade audit', () => {
  it('passes the example (its module exports auditPolicy) with exit 0', async () => {
    expect(await main(['audit', EXAMPLE])).toBe(0)
    expect(out).toBe('audit: no findings\n')
  })

  it('exits 1 with a table of the errors, and finds the app behind an exported Hono app', async () => {
    expect(await main(['audit', BROKEN])).toBe(1)
    expect(out).toMatch(/^SEVERITY\s+METHOD\s+PATH\s+RULE\s+MESSAGE$/m)
    for (const rule of ['auth', 'csrf', 'rate-limit', 'body-limit', 'headers']) {
      expect(out).toMatch(new RegExp(`POST\\s+/s/items\\s+${rule}\\b`))
    }
    expect(out).toMatch(/GET\s+\/u\/\{id\}\s+validation\s+path parameters id/)
    expect(out).toMatch(/GET\s+\/u\/\{id\}\s+responses\s+no success/)
    expect(out).toMatch(/GET\s+\/raw\s+undocumented\s+not in the document/)
  })

  it('writes SARIF 2.1.0 pointing at the module, and markdown', async () => {
    expect(await main(['audit', BROKEN, '--format', 'sarif'])).toBe(1)
    const log = JSON.parse(out)
    expect(log.version).toBe('2.1.0')
    expect(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe(BROKEN)
    out = ''
    expect(await main(['audit', BROKEN, '--format=markdown'])).toBe(1)
    expect(out).toContain('| error | POST | `/s/items` | csrf |')
  })
})

describe('palisade fuzz', () => {
  it('fuzzes the example with the auth hook its module exports: no failure', async () => {
    expect(await main(['fuzz', EXAMPLE, '--runs', '20', '--seed', '9'])).toBe(0)
    const line =
      /^fuzz: (\d+) operations, (\d+) requests \(.*200×\d+.*\), 0 failure\(s\); seed 9$/m.exec(out)
    expect(line, out).not.toBeNull()
    // Every documented operation of the example, 20 requests each (no failure, so no shrinking).
    expect(Number(line?.[1])).toBeGreaterThanOrEqual(12)
    expect(Number(line?.[2])).toBe(Number(line?.[1]) * 20)
    // Signed in by fuzzOptions.auth: no operation answers 401.
    expect(out).not.toContain('401×')
  })

  it('exits 1 and prints the shrunk request and the seed to repeat it', async () => {
    expect(await main(['fuzz', BROKEN, '--runs', '200', '--seed', '4'])).toBe(1)
    expect(err).toContain('✗ POST /s/items: server error (500)')
    expect(err).toContain('{\\"count\\":100}')
    expect(out).toContain(`repeat with: palisade fuzz ${BROKEN} --seed 4`)
  })

  it('refuses a --runs that is not an integer', async () => {
    expect(await main(['fuzz', EXAMPLE, '--runs', 'many'])).toBe(2)
    expect(err).toContain('--runs must be an integer, got "many"')
  })
})

describe('palisade export', () => {
  it('prints the document as JSON, and writes it to --out', async () => {
    expect(await main(['export', EXAMPLE])).toBe(0)
    const doc = JSON.parse(out)
    expect(doc.openapi).toBe('3.1.0')
    const file = join(tmp, 'openapi.json')
    expect(await main(['export', EXAMPLE, '--out', file])).toBe(0)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(doc)
  })

  it('writes YAML that a YAML parser reads back as the same document', async () => {
    const file = join(tmp, 'openapi.yaml')
    expect(await main(['export', EXAMPLE, '--out', file])).toBe(0)
    const text = readFileSync(file, 'utf8')
    out = ''
    await main(['export', EXAMPLE])
    expect(yamlParser().load(text)).toEqual(JSON.parse(out))
  })

  it('emits YAML for awkward strings and keys a parser reads back unchanged', () => {
    const value = {
      '200': 'yes',
      'a: b': ['no', 'null', '1.0', '', ' x', 'x ', '#c', 'a #b', '- d', '@e', '{f}', "'g'"],
      nested: [{ a: 1, b: [true, null] }, [], {}, [[1, 2], { c: 'é\n"q"\t' }]],
      $ref: '#/components/schemas/X',
      '/users/{id}': { 'application/problem+json': -1.5e-7 },
    }
    expect(yamlParser().load(toYAML(value))).toEqual(value)
  })

  it('--check passes on the committed example document', async () => {
    expect(await main(['export', '--check', 'examples/openapi.json', EXAMPLE])).toBe(0)
    expect(out).toBe('')
  })

  it('--check exits 1 with a readable diff when the committed document and the app disagree', async () => {
    const doc = JSON.parse(readFileSync('examples/openapi.json', 'utf8'))
    doc.paths['/api/ping'].get.summary = 'Ping'
    delete doc.paths['/health']
    doc.paths['/old'] = { get: { responses: {} } }
    const file = join(tmp, 'stale.json')
    writeFileSync(file, JSON.stringify(doc))
    expect(await main(['export', '--check', file, EXAMPLE])).toBe(1)
    expect(out).toContain('differs from the app')
    expect(out).toContain('  ~ /paths/~1api~1ping/get/summary: "Ping" -> "Rate-limited ping"')
    expect(out).toContain('  + /paths/~1health: {"get":')
    expect(out).toContain('  - /paths/~1old: {"get":{"responses":{}}}')
    expect(out).toContain(`regenerate: palisade export ${EXAMPLE} --out ${file}`)
  })

  it('--check compares a YAML file by its text', async () => {
    const file = join(tmp, 'check.yaml')
    await main(['export', EXAMPLE, '--out', file])
    expect(await main(['export', '--check', file, EXAMPLE])).toBe(0)
    writeFileSync(file, readFileSync(file, 'utf8').replace('Rate-limited ping', 'Ping'))
    expect(await main(['export', '--check', file, EXAMPLE])).toBe(1)
    expect(out).toMatch(/line \d+: - +summary: Ping\n +line \d+: \+ +summary: Rate-limited ping/)
  })
})

describe('usage', () => {
  it.each([
    [[], 'Usage:'],
    [['deploy', EXAMPLE], 'unknown command "deploy"'],
    [['audit'], 'palisade audit needs a <module>'],
    [['audit', 'nope.ts'], 'cannot find the module nope.ts'],
    [['audit', EXAMPLE, '--format', 'html'], 'unknown --format "html"'],
    [['audit', EXAMPLE, '--bogus'], "Unknown option '--bogus'"],
    [['audit', 'tests/openapi/fixtures/no-app.ts'], 'exports no app'],
  ])('palisade %j exits 2: %s', async (argv, message) => {
    expect(await main(argv)).toBe(2)
    expect(`${out}${err}`).toContain(message)
  })

  it('--help prints the usage and exits 0', async () => {
    expect(await main(['--help'])).toBe(0)
    expect(out).toContain('palisade export --check <file> <module>')
  })
})
