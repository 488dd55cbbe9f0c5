// Copies what the site shows but does not own into docs/ before a build: the benchmark report,
// its findings and ablation, and the chart (bench/ writes them), and ARCHITECTURE.md; the copies
// are ignored by git. TypeDoc writes docs/api/.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'

const bench = new URL('../../bench/', import.meta.url)
const out = new URL('../benchmarks/', import.meta.url)
mkdirSync(out, { recursive: true })

/**
 * bench/*.md link each other by file name; on the site they are pages beside this one. Their
 * prose names types such as `hc<AppType>` outside code spans, which VitePress (Vue templates)
 * would read as an unclosed element: escape `<` and `{{` outside code spans and fences.
 */
const escapeProse = (md) => {
  let fenced = false
  return md
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) fenced = !fenced
      if (fenced) return line
      return line
        .split('`')
        .map((part, i) =>
          i % 2 ? part : part.replace(/</g, '&lt;').replace(/\{\{/g, '&#123;&#123;'),
        )
        .join('`')
    })
    .join('\n')
}
const relink = (md) =>
  escapeProse(md)
    .replace(/\]\(ABLATION\.md\)/g, '](./ablation)')
    .replace(/\]\(RESULTS\.md\)/g, '](./results)')
    .replace(/\]\(FINDINGS\.md\)/g, '](./findings)')

writeFileSync(
  new URL('results.md', out),
  relink(readFileSync(new URL('RESULTS.md', bench), 'utf8')),
)
writeFileSync(
  new URL('ablation.md', out),
  relink(readFileSync(new URL('ABLATION.md', bench), 'utf8')),
)
writeFileSync(
  new URL('findings.md', out),
  relink(readFileSync(new URL('FINDINGS.md', bench), 'utf8')),
)
// The repository's one-page architecture (floors, folder = subpath, where new things go).
mkdirSync(new URL('../project/', import.meta.url), { recursive: true })
writeFileSync(
  new URL('../project/architecture.md', import.meta.url),
  escapeProse(readFileSync(new URL('../../ARCHITECTURE.md', import.meta.url), 'utf8')),
)
copyFileSync(new URL('http-chart.png', bench), new URL('http-chart.png', out))
