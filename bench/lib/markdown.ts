/**
 * Writes a generated Markdown file (RESULTS.md, ABLATION.md) and formats it with the repository's
 * Biome (tools/), so a fresh report passes `pnpm lint`. Formatting is skipped, with a note, when
 * the tools package is not installed.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const BIOME = fileURLToPath(new URL('../../tools/node_modules/.bin/biome', import.meta.url))

export function writeMarkdown(file: string | URL, text: string): void {
  const path = typeof file === 'string' ? file : fileURLToPath(file)
  writeFileSync(path, text)
  if (!existsSync(BIOME)) {
    console.log(`${path} written unformatted: Biome is not installed (tools/)`)
    return
  }
  try {
    execFileSync(BIOME, ['format', '--write', path], { stdio: 'ignore' })
  } catch {
    console.log(`${path} written, but Biome could not format it`)
  }
}
