import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// Documentation examples are type-checked against the package SOURCES (root tsconfig paths), so
// an example cannot drift from the API it shows:
// - every ```ts block of the three READMEs and of every page of the documentation site
//   (docs/**/*.md, except what the build generates: docs/api/ and the copied benchmark pages), in full. A block is skipped only when the line right
//   before its fence is `<!-- no-check -->` (for a fragment that cannot be made complete);
// - every JSDoc @example of an export of either package, with the package exports, `Hono` and
//   `z` in scope; names an illustration leaves undeclared (`user`, `c`) are tolerated.
// Each snippet is its own module; `app` (a Hono app) and `api` (an openapi() wrapper) are
// available unless the snippet declares its own (the middleware README states this convention).

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const packageReadmes = ['README.md', 'packages/middleware/README.md', 'packages/openapi/README.md']
/** Site pages written by hand: generated ones (TypeDoc's api/, the copied bench reports) are not. */
const GENERATED = new Set([
  'docs/api',
  'docs/benchmarks/results.md',
  'docs/benchmarks/ablation.md',
  'docs/benchmarks/findings.md',
  'docs/project',
])
function sitePages(dir = 'docs'): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`
    if (GENERATED.has(path) || entry.name === 'node_modules' || entry.name.startsWith('.'))
      return []
    if (entry.isDirectory()) return sitePages(path)
    return entry.name.endsWith('.md') ? [path] : []
  })
}
const pages = sitePages().sort()
const readmes = [...packageReadmes, ...pages]
const SKIP_MARK = '<!-- no-check -->'

interface Block {
  readme: string
  line: number
  code: string
  skipped: boolean
  file: string
}

function extractBlocks(readme: string): Block[] {
  const lines = readFileSync(join(root, readme), 'utf8').split('\n')
  const blocks: Block[] = []
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(\s*)(`{3,})(\S*)\s*$/.exec(lines[i] ?? '')
    if (!fence) continue
    const [, indent = '', ticks = '```', lang = ''] = fence
    let end = i + 1
    while (end < lines.length && (lines[end] ?? '').trim() !== ticks) end++
    if (lang === 'ts' || lang === 'typescript') {
      let prev = i - 1
      while (prev >= 0 && (lines[prev] ?? '').trim() === '') prev--
      const code = lines
        .slice(i + 1, end)
        .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
        .join('\n')
      const slug = readme.replace(/[^A-Za-z0-9]+/g, '-')
      blocks.push({
        readme,
        line: i + 1,
        code,
        skipped: (lines[prev] ?? '').trim() === SKIP_MARK,
        file: join(root, 'tests/docs/__readme__', `${slug}-L${i + 1}.ts`),
      })
    }
    i = end
  }
  return blocks
}

const blocks = readmes.flatMap(extractBlocks)
const checked = blocks.filter((b) => !b.skipped)

// `app` (a Hono app) and `api` (an `openapi()` wrapper) are the names examples may use without
// declaring them; a block's own `const app` shadows the global.
const ambientFile = join(root, 'tests/docs/__readme__/ambient.d.ts')
// The Workers runtime's own module, as @cloudflare/workers-types declares it (bindings and secrets
// at module scope), for the Workers recipe; its Env is whatever the Worker binds.
const ambient = `declare const app: import('hono').Hono
declare const api: import('@palisade/openapi').OpenAPIApp
declare module 'cloudflare:workers' {
  export const env: Record<string, unknown>
}
`

const configPath = join(root, 'tsconfig.json')
const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile)
if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'))
const options: ts.CompilerOptions = {
  ...ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, configPath).options,
  noEmit: true,
  moduleDetection: ts.ModuleDetectionKind.Force,
}

// JSDoc @example blocks of every export of both packages. They are illustrations and may use
// names they do not declare (`user`, `client`, `c`); everything else must type-check, so an
// example with a wrong option name or type fails. Package exports, `Hono` and `z` are in scope.
// Every `exports` subpath of the middleware package (folder = subpath: `./x` is src/x/index.ts)
// and of openapi (its root, and the audit and fuzz subpaths the root never loads); a name already
// in scope from an earlier entry is not imported again.
const exportsOf = (pkg: string) =>
  Object.keys(
    JSON.parse(readFileSync(join(root, 'packages', pkg, 'package.json'), 'utf8')).exports as Record<
      string,
      unknown
    >,
  ).filter((subpath) => subpath !== './package.json')
const entries: Record<string, string> = Object.fromEntries(
  ['middleware', 'openapi'].flatMap((pkg) =>
    exportsOf(pkg).map((subpath) => [
      `@palisade/${pkg}${subpath.slice(1)}`,
      join(root, 'packages', pkg, 'src', subpath === '.' ? '' : subpath.slice(2), 'index.ts'),
    ]),
  ),
)
const UNDECLARED_NAME = new Set([2304, 2552, 18004])

interface DocExample {
  label: string
  file: string
  code: string
  preludeLines: number
}

/** Names a snippet imports itself, so the prelude does not import them a second time. */
function importedNames(code: string): Set<string> {
  const names = new Set<string>()
  for (const m of code.matchAll(/^import\s+(?:type\s+)?(?:(\w+)\s*,?\s*)?(?:\{([^}]*)\})?/gm)) {
    if (m[1]) names.add(m[1])
    for (const spec of (m[2] ?? '').split(',')) {
      const local = spec
        .replace(/^\s*type\s+/, '')
        .split(/\s+as\s+/)
        .pop()
        ?.trim()
      if (local) names.add(local)
    }
  }
  return names
}

function extractDocExamples(): DocExample[] {
  const program = ts.createProgram(Object.values(entries), options)
  const checker = program.getTypeChecker()
  const exports = Object.entries(entries).map(([pkg, entry]) => {
    const sf = program.getSourceFile(entry)
    const mod = sf && checker.getSymbolAtLocation(sf)
    if (!mod) throw new Error(`cannot load ${entry}`)
    return { pkg, symbols: checker.getExportsOfModule(mod) }
  })
  const examples: DocExample[] = []
  const seen = new Set<ts.Declaration>()
  for (const { symbols } of exports) {
    for (const exported of symbols) {
      const target =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      for (const decl of target.declarations ?? []) {
        if (seen.has(decl) || decl.getSourceFile().fileName.includes('node_modules')) continue
        seen.add(decl)
        for (const tag of ts.getJSDocTags(decl)) {
          if (tag.tagName.text !== 'example') continue
          const code = (ts.getTextOfJSDocComment(tag.comment) ?? '').replace(/^```\w*$/gm, '')
          const own = importedNames(code)
          const inScope = new Set(own)
          const prelude = exports.flatMap(({ pkg, symbols: all }) => {
            const free = all.filter((s) => !inScope.has(s.name))
            for (const s of free) inScope.add(s.name)
            const isValue = (s: ts.Symbol) =>
              ((s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s).flags &
                ts.SymbolFlags.Value) !==
              0
            const values = free.filter(isValue).map((s) => s.name)
            const types = free.filter((s) => !isValue(s)).map((s) => s.name)
            return [
              `import { ${values.join(', ')} } from '${pkg}'`,
              `import type { ${types.join(', ')} } from '${pkg}'`,
            ]
          })
          if (!own.has('Hono')) prelude.push(`import { Hono } from 'hono'`)
          if (!own.has('z')) prelude.push(`import { z } from 'zod'`)
          const sf = decl.getSourceFile()
          const line = sf.getLineAndCharacterOfPosition(decl.getStart()).line + 1
          const label = `${relative(root, sf.fileName)}:${line} ${exported.name}`
          examples.push({
            label,
            file: join(root, 'tests/docs/__jsdoc__', `${examples.length}.ts`),
            code: `${prelude.join('\n')}\n${code}\n`,
            preludeLines: prelude.length,
          })
        }
      }
    }
  }
  return examples
}

const docExamples = extractDocExamples()

function typeCheck(): Map<string, string[]> {
  const virtual = new Map<string, string>([[ambientFile, ambient]])
  for (const b of checked) virtual.set(b.file, b.code)
  for (const e of docExamples) virtual.set(e.file, e.code)

  const host = ts.createCompilerHost(options, true)
  const { fileExists, readFile, getSourceFile } = host
  host.fileExists = (f) => virtual.has(f) || fileExists.call(host, f)
  host.readFile = (f) => virtual.get(f) ?? readFile.call(host, f)
  host.getSourceFile = (f, lang, onError, create) => {
    const text = virtual.get(f)
    return text !== undefined
      ? ts.createSourceFile(f, text, lang, true)
      : getSourceFile.call(host, f, lang, onError, create)
  }

  const program = ts.createProgram([...virtual.keys()], options, host)
  const diagnosticsOf = (file: string) => {
    const sf = program.getSourceFile(file)
    if (!sf) throw new Error(`not in program: ${file}`)
    return [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)].map(
      (d) => ({
        code: d.code,
        line: d.start === undefined ? 0 : sf.getLineAndCharacterOfPosition(d.start).line,
        text: `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      }),
    )
  }
  const result = new Map<string, string[]>()
  for (const b of checked) {
    // +1 for the fence line, +1 for 1-based lines: the README line of the offending code.
    result.set(
      b.file,
      diagnosticsOf(b.file).map((d) => `${b.readme}:${b.line + d.line + 1} ${d.text}`),
    )
  }
  for (const e of docExamples) {
    result.set(
      e.file,
      diagnosticsOf(e.file)
        .filter((d) => !UNDECLARED_NAME.has(d.code))
        .map((d) => `${e.label}, example line ${d.line - e.preludeLines + 1}: ${d.text}`),
    )
  }
  return result
}

describe('documentation code examples', () => {
  const diagnostics = typeCheck()

  it('finds the ts blocks of all three READMEs, the site pages and the JSDoc examples', () => {
    for (const readme of packageReadmes) {
      expect(checked.filter((b) => b.readme === readme).length, readme).toBeGreaterThan(0)
    }
    expect(docExamples.length).toBeGreaterThan(50)
    // The site: one page per middleware, store backend and guide, most of them with code.
    expect(pages.length).toBeGreaterThan(40)
    expect(
      new Set(checked.filter((b) => b.readme.startsWith('docs/')).map((b) => b.readme)).size,
    ).toBeGreaterThan(30)
  })

  it.each(checked.map((b) => [`${b.readme}:${b.line}`, b] as const))(
    'README block %s type-checks against the package sources',
    (_name, block) => {
      expect(diagnostics.get(block.file)).toEqual([])
    },
  )

  it.each(docExamples.map((e) => [e.label, e] as const))(
    'JSDoc @example of %s type-checks (undeclared illustration names aside)',
    (_name, example) => {
      expect(diagnostics.get(example.file)).toEqual([])
    },
  )

  it('skips only README blocks marked no-check, and only a few', () => {
    const skipped = blocks.filter((b) => b.skipped).map((b) => `${b.readme}:${b.line}`)
    expect(skipped.length).toBeLessThanOrEqual(blocks.length / 4)
  })
})
