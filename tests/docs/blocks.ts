// The ```ts blocks of the documentation: the three READMEs and every hand-written page of the
// site (docs/**/*.md, except what the build generates: docs/api/ and the copied benchmark pages).
// One extractor for the tests that type-check them (readme-examples.test.ts) and run them
// (run-examples.test.ts).
//
// Marks, each an HTML comment on the line right before the fence (so no renderer shows it):
// - `<!-- no-check -->`: a fragment that cannot be made complete; neither checked nor run;
// - `<!-- no-run: <reason> -->`: type-checked, but not executed (it needs something a test
//   process does not have: another runtime's globals, a server of its own); the reason is
//   required, and the count of these is capped by the run test.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
export const packageReadmes = [
  'README.md',
  'packages/middleware/README.md',
  'packages/openapi/README.md',
]
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

export const pages = sitePages().sort()
export const readmes = [...packageReadmes, ...pages]

const SKIP_MARK = '<!-- no-check -->'
const NO_RUN_MARK = /^<!--\s*no-run:\s*(.*?)\s*-->$/

export interface Block {
  /** The markdown file, relative to the repository root. */
  readme: string
  /** 1-based line of the opening fence. */
  line: number
  code: string
  /** Marked no-check: neither type-checked nor run. */
  skipped: boolean
  /** Why the block is not run (marked `<!-- no-run: reason -->`), or undefined. */
  noRun: string | undefined
  /** A unique file-name stem for the block (`docs-guide-index-md-L27`). */
  slug: string
}

export function extractBlocks(readme: string): Block[] {
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
      const mark = (lines[prev] ?? '').trim()
      blocks.push({
        readme,
        line: i + 1,
        code,
        skipped: mark === SKIP_MARK,
        noRun: NO_RUN_MARK.exec(mark)?.[1],
        slug: `${readme.replace(/[^A-Za-z0-9]+/g, '-')}-L${i + 1}`,
      })
    }
    i = end
  }
  return blocks
}

/** Every ts block of the READMEs and the site, in file order. */
export const allBlocks: Block[] = readmes.flatMap(extractBlocks)
