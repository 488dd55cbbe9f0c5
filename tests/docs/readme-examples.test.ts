import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// Every ```ts block of the three READMEs is type-checked against the package SOURCES (root
// tsconfig paths), so an example cannot drift from the API it shows. A block is skipped only when
// the line right before its fence is `<!-- no-check -->` (declaration sketches, fragments).
// Conventions shared by all blocks (stated in the middleware README): each block is its own
// module, and `app` is a `Hono` instance unless the block declares its own.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const readmes = ['README.md', 'packages/middleware/README.md', 'packages/openapi/README.md']
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

// `app` is the one name blocks may use without declaring it; a block's own `const app` shadows it.
const ambientFile = join(root, 'tests/docs/__readme__/ambient.d.ts')
const ambient = `declare const app: import('hono').Hono\n`

function typeCheck(): Map<string, string[]> {
  const configPath = join(root, 'tsconfig.json')
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile)
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'))
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, configPath)
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: true,
    moduleDetection: ts.ModuleDetectionKind.Force,
  }
  const virtual = new Map<string, string>([[ambientFile, ambient]])
  for (const b of checked) virtual.set(b.file, b.code)

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
  const result = new Map<string, string[]>()
  for (const b of checked) {
    const sf = program.getSourceFile(b.file)
    if (!sf) throw new Error(`not in program: ${b.file}`)
    const diags = [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]
    result.set(
      b.file,
      diags.map((d) => {
        const pos = d.start === undefined ? undefined : sf.getLineAndCharacterOfPosition(d.start)
        // +1 for the fence line, +1 for 1-based lines: the README line of the offending code.
        const at = pos ? `${b.readme}:${b.line + pos.line + 1}` : b.readme
        return `${at} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
      }),
    )
  }
  return result
}

describe('README code examples', () => {
  const diagnostics = typeCheck()

  it('finds the ts blocks of all three READMEs', () => {
    for (const readme of readmes) {
      expect(checked.filter((b) => b.readme === readme).length, readme).toBeGreaterThan(0)
    }
  })

  it.each(checked.map((b) => [`${b.readme}:${b.line}`, b] as const))(
    '%s type-checks against the package sources',
    (_name, block) => {
      expect(diagnostics.get(block.file)).toEqual([])
    },
  )

  it('skips only blocks marked no-check, and says which', () => {
    const skipped = blocks.filter((b) => b.skipped).map((b) => `${b.readme}:${b.line}`)
    // A skipped block must be a real fragment; keep the list short and visible.
    expect(skipped.length).toBeLessThanOrEqual(blocks.length / 4)
  })
})
