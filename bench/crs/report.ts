// Prints shield()'s detection rate and false positives against the OWASP CRS regression corpus
// and the benign corpus, and with --write puts the table into bench/RESULTS.md.
//   node --import tsx bench/crs/report.ts [--write] [--verbose]
import { readFileSync, writeFileSync } from 'node:fs'
import { CATEGORIES, type Measurement, measure } from '../../tests/fixtures/crs/measure.ts'

const pct = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`)

function table(results: Measurement[]): string {
  const lines = [
    '| CRS category | detected, paranoia 1 | detected, paranoia 2 | no-fire flagged, paranoia 1 | no-fire flagged, paranoia 2 |',
    '| --- | --- | --- | --- | --- |',
  ]
  const [one, two] = results as [Measurement, Measurement]
  one.categories.forEach((c, i) => {
    const c2 = two.categories[i] as (typeof two.categories)[number]
    lines.push(
      `| ${c.category} ${CATEGORIES[c.category]} | ${c.detected}/${c.fire} (${pct(c.detected, c.fire)}) | ${c2.detected}/${c2.fire} (${pct(c2.detected, c2.fire)}) | ${c.flagged}/${c.nofire} (${pct(c.flagged, c.nofire)}) | ${c2.flagged}/${c2.nofire} (${pct(c2.flagged, c2.nofire)}) |`,
    )
  })
  const sum = (m: Measurement, k: 'fire' | 'detected' | 'nofire' | 'flagged') =>
    m.categories.reduce((n, c) => n + c[k], 0)
  lines.push(
    `| all | ${sum(one, 'detected')}/${sum(one, 'fire')} (${pct(sum(one, 'detected'), sum(one, 'fire'))}) | ${sum(two, 'detected')}/${sum(two, 'fire')} (${pct(sum(two, 'detected'), sum(two, 'fire'))}) | ${sum(one, 'flagged')}/${sum(one, 'nofire')} (${pct(sum(one, 'flagged'), sum(one, 'nofire'))}) | ${sum(two, 'flagged')}/${sum(two, 'nofire')} (${pct(sum(two, 'flagged'), sum(two, 'nofire'))}) |`,
  )
  lines.push(
    `| benign corpus | | | ${one.benign.flagged}/${one.benign.total} (${pct(one.benign.flagged, one.benign.total)}) | ${two.benign.flagged}/${two.benign.total} (${pct(two.benign.flagged, two.benign.total)}) |`,
  )
  return lines.join('\n')
}

const results = [measure(1), measure(2)]
const text = table(results)
console.log(text)
console.log(
  `\n${results[0]?.excludedNoFire} no-fire cases left out as attacks meant for another rule`,
)
if (process.argv.includes('--verbose')) {
  for (const m of results) {
    for (const c of m.categories) {
      console.log(`p${m.paranoia} ${c.category} missed: ${c.missed.join(' ')}`)
      console.log(`p${m.paranoia} ${c.category} fp: ${c.falsePositives.join(' | ')}`)
    }
    console.log(`p${m.paranoia} benign fp: ${m.benign.falsePositives.join('\n')}`)
  }
}
if (process.argv.includes('--write')) {
  const file = new URL('../RESULTS.md', import.meta.url)
  const start = '<!-- shield-corpus:start -->'
  const end = '<!-- shield-corpus:end -->'
  const section = `${start}\n## shield() against the OWASP CRS regression corpus\n\nFrom \`node --import tsx bench/crs/report.ts --write\` (what is counted: bench/README.md, "shield corpus").\n\n${text}\n\n${results[0]?.excludedNoFire} no-fire cases are left out as attacks meant for another rule.\n${end}`
  const current = readFileSync(file, 'utf8')
  const next = current.includes(start)
    ? current.replace(new RegExp(`${start}[\\s\\S]*${end}`), section)
    : `${current.trimEnd()}\n\n${section}\n`
  writeFileSync(file, next)
}
