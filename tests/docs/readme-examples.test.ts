import { existsSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { allBlocks, type Block, packageReadmes, pages, root } from './blocks'

// Documentation examples are type-checked against the package SOURCES (root tsconfig paths), so
// an example cannot drift from the API it shows:
// - every ```ts block of the three READMEs and of every page of the documentation site
//   (docs/**/*.md, except what the build generates: docs/api/ and the copied benchmark pages; the
//   blocks come from ./blocks.ts, which run-examples.test.ts also runs), in full, under both
//   `moduleResolution: "Bundler"` (the repository's) and `"NodeNext"` (a Node project's). A
//   block is skipped only when the line right before its fence is `<!-- no-check -->` (for a
//   fragment that cannot be made complete);
// - every JSDoc @example of an export of either package, with the package exports, `Hono` and
//   `z` in scope; names an illustration leaves undeclared (`user`, `c`) are tolerated.
// Each snippet is its own module; `app` (a Hono app) and `api` (an openapi() wrapper) are
// available unless the snippet declares its own (the middleware README states this convention).

const checked = allBlocks.filter((b) => !b.skipped)
const blocks = allBlocks

// `app` (a Hono app) and `api` (an `openapi()` wrapper) are the names examples may use without
// declaring them; a block's own `const app` shadows the global.
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

/** Where the blocks are type-checked (virtual files: nothing is written). */
const BUNDLER_DIR = join(root, 'tests/docs/__readme__')
/**
 * A Node project's settings (`"module": "NodeNext"`): which form of an import a package's types
 * give (a CommonJS client's default export, say) depends on them, so what type-checks under
 * Bundler can fail here. Resolved as a user's project resolves them: the blocks sit in the
 * example app's folder (an ESM package, `"type": "module"`, that depends on both packages), and
 * `@palisade/*` resolve through the packages' `exports` to their built types (`pnpm build`
 * first, as the root `test` script does), not through the repository's source `paths`.
 */
const NODE_NEXT_DIR = join(root, 'examples/__docs_node_next__')
const nodeNextOptions: ts.CompilerOptions = {
  ...options,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  paths: undefined,
  baseUrl: undefined,
}

function typeCheck(
  compilerOptions: ts.CompilerOptions,
  examples: readonly DocExample[],
  dir: string,
): Map<string, string[]> {
  const ambientFile = join(dir, 'ambient.d.ts')
  const fileOf = (b: Block) => join(dir, `${b.slug}.ts`)
  const virtual = new Map<string, string>([[ambientFile, ambient]])
  for (const b of checked) virtual.set(fileOf(b), b.code)
  for (const e of examples) virtual.set(e.file, e.code)
  const options = compilerOptions

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
      b.slug,
      diagnosticsOf(fileOf(b)).map((d) => `${b.readme}:${b.line + d.line + 1} ${d.text}`),
    )
  }
  for (const e of examples) {
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
  const diagnostics = typeCheck(options, docExamples, BUNDLER_DIR)
  for (const pkg of ['middleware', 'openapi']) {
    if (!existsSync(join(root, 'packages', pkg, 'dist/index.d.ts')))
      throw new Error(`the NodeNext check reads the built types: run \`pnpm build\` first (${pkg})`)
  }
  const nodeNext = typeCheck(nodeNextOptions, [], NODE_NEXT_DIR)

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
      expect(diagnostics.get(block.slug)).toEqual([])
    },
  )

  it.each(checked.map((b) => [`${b.readme}:${b.line}`, b] as const))(
    'README block %s type-checks under moduleResolution NodeNext',
    (_name, block) => {
      expect(nodeNext.get(block.slug)).toEqual([])
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
