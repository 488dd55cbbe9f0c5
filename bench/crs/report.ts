// Prints shield()'s detection rate and false positives against the OWASP CRS regression corpus
// and the benign corpus, and with --write puts the table into bench/RESULTS.md (a full
// `pnpm bench` writes the same section through the shield suite).
//   node --import tsx bench/crs/report.ts [--write] [--verbose]
import { readFileSync, writeFileSync } from 'node:fs'
import { corpusReport, corpusSection, SECTION_END, SECTION_START } from './table.ts'

const report = corpusReport()
console.log(report.table)
console.log(`\n${report.excludedNoFire} no-fire cases left out as attacks meant for another rule`)
if (process.argv.includes('--verbose')) {
  for (const m of report.results) {
    for (const c of m.categories) {
      console.log(`p${m.paranoia} ${c.category} missed: ${c.missed.join(' ')}`)
      console.log(`p${m.paranoia} ${c.category} fp: ${c.falsePositives.join(' | ')}`)
    }
    console.log(`p${m.paranoia} benign fp: ${m.benign.falsePositives.join('\n')}`)
  }
}
if (process.argv.includes('--write')) {
  const file = new URL('../RESULTS.md', import.meta.url)
  const section = corpusSection(report, '`node --import tsx bench/crs/report.ts --write`')
  const current = readFileSync(file, 'utf8')
  const next = current.includes(SECTION_START)
    ? current.replace(new RegExp(`${SECTION_START}[\\s\\S]*${SECTION_END}`), section)
    : `${current.trimEnd()}\n\n${section}\n`
  writeFileSync(file, next)
}
