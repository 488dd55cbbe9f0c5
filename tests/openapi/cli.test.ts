// The `palisade` command, run in-process from source (scripts/check-consumer.mjs runs the built
// bin from the packed tarball, TypeScript module included, in a fresh project).
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { main } from '../../packages/openapi/src/cli/main'
import { toYAML } from '../../packages/openapi/src/cli/yaml'
import * as factoryApp from './fixtures/factory-app'

const EXAMPLE = 'examples/api.ts'
const BROKEN = 'tests/openapi/fixtures/broken-app.ts'
const FACTORY = 'tests/openapi/fixtures/factory-app.ts'
const UNSATISFIABLE = 'tests/openapi/fixtures/unsatisfiable-app.ts'
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

/** The commands run in their own process, killed after the test whatever happens. */
const children = new Set<ChildProcess>()
afterEach(() => {
  for (const child of children) child.kill('SIGKILL')
  children.clear()
})

/**
 * Runs `palisade …` from source in a child process. A command that never ends fails its test by
 * the test's timeout (the child does not block this process), and is killed.
 */
function palisade(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'packages/openapi/src/cli/index.ts', ...args],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    children.add(child)
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
    })
    child.stderr.on('data', (chunk) => {
      err += chunk
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, out, err }))
  })
}

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
    // Every documented operation of the example, 20 requests each (no failure, so no shrinking),
    // plus a retry with the same key for each request to POST /api/comments (Idempotency-Key),
    // plus one GET through the GetComment link per comment created (at most 10).
    expect(Number(line?.[1])).toBeGreaterThanOrEqual(12)
    expect(Number(line?.[2])).toBeGreaterThan(Number(line?.[1]) * 20)
    expect(Number(line?.[2])).toBeLessThanOrEqual(Number(line?.[1]) * 20 + 20 + 10)
    expect(out).toMatch(
      /^↪ POST \/api\/comments 201 --GetComment--> GET \/api\/comments\/\{id\}: followed [1-9]\d* \(200×[1-9]\d*\)$/m,
    )
    // Signed in by fuzzOptions.auth: no operation answers 401.
    expect(out).not.toContain('401×')
  })

  it('exits 1 and prints the shrunk request and the seed to repeat it, in the report (stdout)', async () => {
    expect(await main(['fuzz', BROKEN, '--runs', '200', '--seed', '4'])).toBe(1)
    expect(out).toContain('✗ POST /s/items: server error (500)')
    expect(out).toContain('{\\"count\\":100}')
    expect(out).toContain(`repeat with: palisade fuzz ${BROKEN} --seed 4`)
  })

  it("warns on stderr that it fuzzes the module's app instance, stores included, without a factory", async () => {
    await main(['fuzz', BROKEN, '--runs', '5', '--seed', '1'])
    expect(err).toContain(
      `palisade fuzz: warning: fuzzing the app instance ${BROKEN} exports, on the stores it was built with`,
    )
    expect(err).toContain('Export createFuzzApp()')
    expect(out).not.toContain('warning')
  })

  it('refuses a --runs that is not an integer', async () => {
    expect(await main(['fuzz', EXAMPLE, '--runs', 'many'])).toBe(2)
    expect(err).toContain('--runs must be an integer, got "many"')
  })
})

describe('palisade fuzz with an app factory', () => {
  it('fuzzes a fresh app from createFuzzApp(), never the exported instance, and closes it', async () => {
    expect(await main(['fuzz', FACTORY, '--runs', '5', '--seed', '1'])).toBe(0)
    const fresh = factoryApp.built.at(-1)
    expect(fresh?.factory).toBe('createFuzzApp')
    expect(fresh?.store).toEqual({ requests: 5, closed: true })
    expect(factoryApp.served.requests).toBe(0)
    // fuzzOptions, exported as a function, is given the app being fuzzed.
    expect(factoryApp.optionsFor.at(-1)).toBe(fresh?.app)
    expect(err).not.toContain('warning')
  })

  it('calls the export --factory names instead', async () => {
    expect(await main(['fuzz', FACTORY, '--runs', '3', '--factory', 'otherFactory'])).toBe(0)
    expect(factoryApp.built.at(-1)?.factory).toBe('otherFactory')
    expect(factoryApp.built.at(-1)?.store).toEqual({ requests: 3, closed: true })
    expect(factoryApp.served.requests).toBe(0)
  })

  it.each([['nothing'], ['served'], ['default']])(
    'exits 2 when --factory %s names no function',
    async (name) => {
      expect(await main(['fuzz', FACTORY, '--factory', name])).toBe(2)
      expect(err).toContain(`${FACTORY} has no function export "${name}" (--factory)`)
      expect(factoryApp.served.requests).toBe(0)
    },
  )

  it('exits 2 when the factory returns no app', async () => {
    expect(await main(['fuzz', FACTORY, '--factory', 'notAFactory'])).toBe(2)
    expect(err).toContain('notAFactory() returned no app: return the app openapi() returns')
  })

  it("keeps the app's stdout writes out of the report: they go to stderr", async () => {
    expect(await main(['fuzz', FACTORY, '--runs', '4', '--seed', '2'])).toBe(0)
    expect(out).toMatch(/^fuzz: 1 operations, 4 requests \(200×4\), 0 failure\(s\); seed 2\n$/)
    expect(err.match(/GET \/count 200 \(the app's logger\)\n/g)).toHaveLength(4)
  })

  it("runs as a command whose stdout is only the report, the app's console.log on stderr", async () => {
    const { code, out, err } = await palisade('fuzz', FACTORY, '--runs', '3', '--seed', '1')
    expect({ code, err }).toMatchObject({ code: 0 })
    expect(out).toBe('fuzz: 1 operations, 3 requests (200×3), 0 failure(s); seed 1\n')
    expect(err).toContain('console.log from the app: request 3')
    expect(err).toContain("GET /count 200 (the app's logger)")
  })

  it("keeps what the module prints as it loads out of export's document, too", async () => {
    const { code, out, err } = await palisade('export', FACTORY)
    expect(code, err).toBe(0)
    expect(JSON.parse(out).paths['/count']).toBeDefined()
    expect(err).toContain('factory-app: starting')
  })

  it('fuzzes the example through its createFuzzApp(): its request log on stderr, not in the report', async () => {
    const { code, out, err } = await palisade('fuzz', EXAMPLE, '--runs', '2', '--seed', '3')
    expect(code, err).toBe(0)
    // The links followed, then the summary.
    expect(out).toMatch(
      /^(↪ [^\n]+\n)*fuzz: \d+ operations, \d+ requests \(.*\), 0 failure\(s\); seed 3\n$/,
    )
    expect(err).toMatch(/^POST \/api\/login 200 /m)
    expect(err).not.toContain('warning')
  })
})

describe('palisade fuzz on schemas it cannot generate a request for', () => {
  // The hang guard is this test's timeout: today's generator looped forever (or ran out of
  // memory) on these; each must now be reported with where it is, and the run go on.
  it('reports each with its route and pointer, fuzzes the rest, and exits 1', async () => {
    const { code, out, err } = await palisade('fuzz', UNSATISFIABLE, '--runs', '20', '--seed', '1')
    expect(code, err).toBe(1)
    const lines = out.trimEnd().split('\n')
    expect(lines.slice(0, -1)).toEqual([
      '? POST /signup: could not generate /body/email: no email address with 0 to 3 characters in 200 attempts',
      '? GET /codes/{code}: could not generate /path/code: no string matching ^[a-z]{8}$ with 0 to 4 characters in 200 attempts',
      "? POST /essays: could not generate /body/text: minLength 10000000 is above the fuzzer's limit of 4096 characters",
      "? POST /batches: could not generate /body/ids: minItems 10000000 is above the fuzzer's limit of 256 items",
    ])
    // GET /fine was fuzzed: its header of at least 30 characters is generated in printable ASCII.
    expect(lines.at(-1)).toMatch(
      /^fuzz: 1 operations, 20 requests \(200×\d+ 400×\d+\), 0 failure\(s\), 4 not fuzzed \(could not generate\); seed 1$/,
    )
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
