// `palisade diff` and `palisade export --check --breaking`, run in-process from source: files,
// loopback URLs (a real server on 127.0.0.1), the example app through --app, and bad input.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { main } from '../../packages/openapi/src/cli/main'

const EXAMPLE = 'examples/api.ts'
const tmp = mkdtempSync(join(tmpdir(), 'palisade-diff-'))
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

type Json = Record<string, unknown>
type Doc = { paths: Record<string, unknown> }
const doc = (paths: Json): Json => ({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths,
})
const ok = { responses: { '200': { description: 'ok' } } }
const write = (name: string, value: unknown) => {
  const file = join(tmp, name)
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value))
  return file
}
const OLD = write('old.json', doc({ '/a': { get: ok }, '/b': { get: ok } }))
const NEW = write('new.json', doc({ '/a': { get: ok } }))
const ADDED = write('added.json', doc({ '/a': { get: ok }, '/b': { get: ok }, '/c': { get: ok } }))

/** No stack trace reached the user. */
const noStack = () => expect(`${out}${err}`).not.toMatch(/\n\s+at .+:\d+:\d+/)

describe('palisade diff: files', () => {
  it('exits 1 on a breaking change, with the rule, the operation and the pointer', async () => {
    expect(await main(['diff', OLD, NEW])).toBe(1)
    expect(out).toContain('breaking     api-path-removed-without-deprecation')
    expect(out).toContain('GET /b: path removed without deprecation')
    expect(out).toContain('at /paths/~1b/get')
    expect(out).toContain('1 breaking, 0 info, 0 non-breaking')
  })

  it('exits 0 on non-breaking changes only', async () => {
    expect(await main(['diff', OLD, ADDED])).toBe(0)
    expect(out).toContain('endpoint-added')
  })

  it('--allow lets a rule pass (repeatable), and the report says so', async () => {
    expect(
      await main([
        'diff',
        OLD,
        NEW,
        '--allow',
        'api-path-removed-without-deprecation',
        '--allow',
        'api-server-removed',
      ]),
    ).toBe(0)
    expect(out).toContain('breaking, allowed by --allow')
  })

  it('writes markdown for a PR comment and JSON for programs', async () => {
    expect(await main(['diff', OLD, NEW, '--format', 'markdown'])).toBe(1)
    expect(out).toMatch(/^\*\*API diff: 1 breaking change\(s\)\*\*/)
    expect(out).toContain('| 🔴 breaking | `GET /b` | path removed without deprecation |')
    out = ''
    expect(await main(['diff', OLD, NEW, '--format=json'])).toBe(1)
    const report = JSON.parse(out)
    expect(report.summary.blocking).toBe(1)
    expect(report.changes[0]).toMatchObject({
      id: 'api-path-removed-without-deprecation',
      old: '/paths/~1b/get',
    })
  })

  it('--strict-enums makes a new response enum value breaking', async () => {
    const schema = (values: string[]) => ({
      responses: {
        '200': {
          description: 'ok',
          content: { 'application/json': { schema: { type: 'string', enum: values } } },
        },
      },
    })
    const a = write('enum-a.json', doc({ '/a': { get: schema(['x']) } }))
    const b = write('enum-b.json', doc({ '/a': { get: schema(['x', 'y']) } }))
    expect(await main(['diff', a, b])).toBe(0)
    expect(await main(['diff', a, b, '--strict-enums'])).toBe(1)
  })

  it('reads a recursive schema pair without hanging', async () => {
    const tree = (max: number) => ({
      ...doc({
        '/t': {
          get: {
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/T' } } },
              },
            },
          },
        },
      }),
      components: {
        schemas: {
          T: {
            type: 'object',
            properties: {
              name: { type: 'string', maxLength: max },
              kids: { type: 'array', items: { $ref: '#/components/schemas/T' } },
            },
          },
        },
      },
    })
    expect(await main(['diff', write('t1.json', tree(5)), write('t2.json', tree(9))])).toBe(1)
    expect(out).toContain('response-property-max-length-increased')
  })

  it.each([
    [['diff', join(tmp, 'missing.json'), NEW], 'cannot find'],
    [['diff', write('bad.json', '{"openapi": '), NEW], 'is not JSON'],
    [['diff', write('list.json', '[1,2]'), NEW], 'not a JSON object'],
    [['diff', write('swagger.json', { swagger: '2.0', paths: {} }), NEW], 'Swagger 2.0'],
    [['diff', write('api.yaml', 'openapi: 3.1.0\n'), NEW], 'palisade reads JSON documents'],
    [['diff', OLD, 'http://example.com/openapi.json'], 'loopback URLs only'],
    [['diff', OLD, 'http://10.0.0.1/openapi.json'], 'loopback URLs only'],
    [['diff', OLD], 'needs <old> and <new>'],
    [['diff', OLD, NEW, NEW], 'needs <old> and <new>'],
    [['diff', OLD, NEW, '--format', 'html'], 'unknown --format "html"'],
    [['diff', OLD, NEW, '--allow', 'no-such-rule'], 'no rule "no-such-rule"'],
    [['diff', tmp, NEW], 'is not a file'],
  ])('palisade %j exits 2: %s', async (argv, message) => {
    expect(await main(argv as string[])).toBe(2)
    expect(err).toContain(message)
    noStack()
  })
})

describe('palisade diff: loopback URLs', () => {
  let server: Server
  let base = ''
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/old.json') res.end(readFileSync(OLD))
      else if (req.url === '/new.json') res.end(readFileSync(NEW))
      else if (req.url === '/away') res.writeHead(302, { location: 'http://example.com/' }).end()
      else if (req.url === '/html') res.end('<html></html>')
      else res.writeHead(404).end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('fetches both documents from a server on this machine', async () => {
    expect(await main(['diff', `${base}/old.json`, `${base}/new.json`])).toBe(1)
    expect(out).toContain('api-path-removed-without-deprecation')
    out = ''
    expect(await main(['diff', `${base}/old.json`, ADDED])).toBe(0)
  })

  it.each([
    ['/missing', 'HTTP 404'],
    ['/html', 'is not JSON'],
    ['/away', 'cannot fetch'],
  ])('refuses %s with exit 2: %s', async (path, message) => {
    expect(await main(['diff', `${base}${path}`, NEW])).toBe(2)
    expect(err).toContain(message)
    noStack()
  })
})

describe('palisade diff --app and export --check --breaking', () => {
  const committed = join(tmp, 'example.json')
  beforeAll(async () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    await main(['export', EXAMPLE, '--out', committed])
    vi.restoreAllMocks()
  })
  const edited = (name: string, edit: (d: Doc) => void) => {
    const d = JSON.parse(readFileSync(committed, 'utf8'))
    edit(d)
    return write(name, d)
  }

  it('compares a committed document with the app a module exports', async () => {
    expect(await main(['diff', committed, '--app', EXAMPLE])).toBe(0)
    expect(out).toBe('diff: no changes\n')
    out = ''
    // The committed document had an operation the app no longer serves.
    const more = edited('more.json', (d) => {
      d.paths['/api/gone'] = { get: { responses: { '200': { description: 'ok' } } } }
    })
    expect(await main(['diff', more, '--app', EXAMPLE])).toBe(1)
    expect(out).toContain('GET /api/gone: path removed without deprecation')
  })

  it('export --check --breaking fails on breaking drift only', async () => {
    const fewer = edited('fewer.json', (d) => {
      delete d.paths['/health']
    })
    // Plain --check fails on any drift; --breaking lets an added operation pass.
    expect(await main(['export', '--check', fewer, EXAMPLE])).toBe(1)
    out = ''
    expect(await main(['export', '--check', fewer, EXAMPLE, '--breaking'])).toBe(0)
    expect(out).toContain('endpoint-added')
    out = ''
    const more = edited('more2.json', (d) => {
      d.paths['/api/gone'] = { get: { responses: { '200': { description: 'ok' } } } }
    })
    expect(await main(['export', '--check', more, EXAMPLE, '--breaking'])).toBe(1)
    expect(
      await main([
        'export',
        '--check',
        more,
        EXAMPLE,
        '--breaking',
        '--allow',
        'api-path-removed-without-deprecation',
      ]),
    ).toBe(0)
  })

  it('refuses --breaking without --check, and a YAML committed file', async () => {
    expect(await main(['export', EXAMPLE, '--breaking'])).toBe(2)
    expect(err).toContain('--breaking goes with export --check')
    err = ''
    expect(
      await main(['export', '--check', write('c.yaml', 'openapi: 3.1.0\n'), EXAMPLE, '--breaking']),
    ).toBe(2)
    expect(err).toContain('palisade reads JSON documents')
    noStack()
  })
})
