// Every regular expression literal in the shield detection engine, read from the sources with the
// TypeScript parser, so a new pattern is checked without anyone listing it.
import { readdirSync, readFileSync } from 'node:fs'
import ts from 'typescript'

const DIR = new URL('../../packages/middleware/src/shield/detect/', import.meta.url)

export interface RegexLiteral {
  file: string
  line: number
  source: string
  flags: string
}

export function detectRegexLiterals(): RegexLiteral[] {
  const out: RegexLiteral[] = []
  for (const file of readdirSync(DIR)) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue
    const text = readFileSync(new URL(file, DIR), 'utf8')
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
    const visit = (node: ts.Node) => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const literal = node.getText(source)
        const end = literal.lastIndexOf('/')
        out.push({
          file,
          line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
          source: literal.slice(1, end),
          flags: literal.slice(end + 1),
        })
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return out
}
