// Where tsc reports a handler that breaks its declared responses: at the handler (its first line),
// naming the status, never as "Expected 4 arguments" on the route call. A fixture is compiled with
// the root tsconfig (package sources) and each error's line and text are compared.
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const fixture = join(root, 'tests/openapi/__where__.ts')

// Each case is marked by a comment `@kind what` on the line where the error must be reported.
const code = `import { openapi } from '@palisade/openapi'
import { Hono } from 'hono'
import * as v from 'valibot'
import { z } from 'zod'
import { z as z3 } from 'zod3'

const User = z.object({ id: z.string(), name: z.string() })
const NotFound = z.object({ error: z.literal('not_found') })
const one = { 200: { description: 'u', schema: User } }
const api = openapi(new Hono(), { info: { title: 'T', version: '1' } })

api.get('/undeclared', /*@undeclared 201*/ (c) => c.json({ id: '1', name: 'Ada' }, 201), {
  openapi: { responses: one },
})
api.get(
  '/other-body',
  /*@misfit 404*/ (c) => c.json({ id: '1', name: 'Ada' }, 404),
  { openapi: { responses: { ...one, 404: { description: 'n', schema: NotFound } } } },
)
api.get(
  '/zod3',
  /*@undeclared 500*/ (c) => c.json({ ok: true }, 500),
  { openapi: { responses: { 200: { description: 'o', schema: z3.object({ ok: z3.boolean() }) } } } },
)
api.get(
  '/valibot',
  /*@undeclared 200*/ (c) => c.json({ n: 1 }, 200),
  { openapi: { responses: { 201: { description: 'm', schema: v.object({ n: v.number() }) } } } },
)
api.post(
  '/async-branch',
  /*@undeclared 202*/ async (c) => {
    if (c.req.query('later')) return c.json({ id: '1', name: 'Ada' }, 202)
    return c.json({ id: '1', name: 'Ada' }, 200)
  },
  { openapi: { responses: one } },
)
api.get(
  '/field',
  /*@field name*/ (c) => c.json({ id: '1', name: 2 }, 200),
  { openapi: { responses: one } },
)
api.get(
  '/missing',
  /*@field name*/ (c) => c.json({ id: '1' }),
  { openapi: { responses: one } },
)
api.get(
  '/text',
  /*@undeclared 418*/ (c) => c.text('teapot', 418),
  { openapi: { responses: one } },
)
api.get('/fine', (c) => c.json({ id: '1', name: 'Ada' }, 200), { openapi: { responses: one } })
`

function diagnostics() {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile)
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root)
  const host = ts.createCompilerHost(options, true)
  const { fileExists, readFile, getSourceFile } = host
  host.fileExists = (f) => f === fixture || fileExists.call(host, f)
  host.readFile = (f) => (f === fixture ? code : readFile.call(host, f))
  host.getSourceFile = (f, lang, onError, create) =>
    f === fixture
      ? ts.createSourceFile(f, code, lang, true)
      : getSourceFile.call(host, f, lang, onError, create)
  const program = ts.createProgram([fixture], { ...options, noEmit: true }, host)
  const sf = program.getSourceFile(fixture)
  if (!sf) throw new Error('fixture not in program')
  return program.getSemanticDiagnostics(sf).map((d) => ({
    line: sf.getLineAndCharacterOfPosition(d.start ?? 0).line,
    text: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  }))
}

describe('type errors of handlers that break their declared responses', () => {
  it('are reported at the handler, naming the status or the field, never at the call', () => {
    const found = diagnostics()
    const lines = code.split('\n')
    const marks = lines.flatMap((line, i) => {
      const m = /\/\*@(\w+) (\w+)\*\//.exec(line)
      return m ? [{ line: i, kind: m[1] as string, what: m[2] as string }] : []
    })
    expect(marks).toHaveLength(8)
    for (const mark of marks) {
      const here = found.filter((d) => d.line === mark.line)
      expect(here, `${mark.kind} ${mark.what} at line ${mark.line + 1}`).not.toEqual([])
      const text = here.map((d) => d.text).join('\n')
      if (mark.kind === 'undeclared') expect(text).toContain(`status ${mark.what} is not declared`)
      if (mark.kind === 'misfit') expect(text).toContain(`body of status ${mark.what} does not fit`)
      if (mark.kind === 'field')
        expect(text).toMatch(/the body of status 200 does not fit its schema at 'name'/)
    }
    // Nothing anywhere else: no "Expected 4 arguments" on a call, no error on the fine route.
    const marked = new Set(marks.map((m) => m.line))
    expect(found.filter((d) => !marked.has(d.line))).toEqual([])
    expect(found.map((d) => d.text).join('\n')).not.toMatch(/Expected \d+ arguments/)
  }, 120_000)
})
