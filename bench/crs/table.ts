// shield()'s detection against the OWASP CRS regression corpus and the benign corpus, as the
// table RESULTS.md shows: `crs/report.ts` prints it, and the shield suite puts it (and issue 38's
// detection targets) into every full `pnpm bench` report.
import { CATEGORIES, type Measurement, measure } from '../../tests/fixtures/crs/measure.ts'

/** Both paranoia levels measured, and the table of them. */
export interface CorpusReport {
  /** Paranoia 1, then 2. */
  results: [Measurement, Measurement]
  table: string
  /** No-fire cases left out as attacks meant for another rule. */
  excludedNoFire: number
}

const pct = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`)

const sum = (m: Measurement, k: 'fire' | 'detected' | 'nofire' | 'flagged') =>
  m.categories.reduce((n, c) => n + c[k], 0)

function table([one, two]: [Measurement, Measurement]): string {
  const lines = [
    '| CRS category | detected, paranoia 1 | detected, paranoia 2 | no-fire flagged, paranoia 1 | no-fire flagged, paranoia 2 |',
    '| --- | --- | --- | --- | --- |',
  ]
  one.categories.forEach((c, i) => {
    const c2 = two.categories[i] as (typeof two.categories)[number]
    lines.push(
      `| ${c.category} ${CATEGORIES[c.category]} | ${c.detected}/${c.fire} (${pct(c.detected, c.fire)}) | ${c2.detected}/${c2.fire} (${pct(c2.detected, c2.fire)}) | ${c.flagged}/${c.nofire} (${pct(c.flagged, c.nofire)}) | ${c2.flagged}/${c2.nofire} (${pct(c2.flagged, c2.nofire)}) |`,
    )
  })
  lines.push(
    `| all | ${sum(one, 'detected')}/${sum(one, 'fire')} (${pct(sum(one, 'detected'), sum(one, 'fire'))}) | ${sum(two, 'detected')}/${sum(two, 'fire')} (${pct(sum(two, 'detected'), sum(two, 'fire'))}) | ${sum(one, 'flagged')}/${sum(one, 'nofire')} (${pct(sum(one, 'flagged'), sum(one, 'nofire'))}) | ${sum(two, 'flagged')}/${sum(two, 'nofire')} (${pct(sum(two, 'flagged'), sum(two, 'nofire'))}) |`,
  )
  lines.push(
    `| benign corpus | | | ${one.benign.flagged}/${one.benign.total} (${pct(one.benign.flagged, one.benign.total)}) | ${two.benign.flagged}/${two.benign.total} (${pct(two.benign.flagged, two.benign.total)}) |`,
  )
  return lines.join('\n')
}

export function corpusReport(): CorpusReport {
  const results: [Measurement, Measurement] = [measure(1), measure(2)]
  return { results, table: table(results), excludedNoFire: results[0].excludedNoFire }
}

export const SECTION_START = '<!-- shield-corpus:start -->'
export const SECTION_END = '<!-- shield-corpus:end -->'

/** The RESULTS.md section, between its markers. */
export function corpusSection(report: CorpusReport, from: string): string {
  return `${SECTION_START}\n## shield() against the OWASP CRS regression corpus\n\nFrom ${from} (what is counted: bench/README.md, "shield corpus").\n\n${report.table}\n\n${report.excludedNoFire} no-fire cases are left out as attacks meant for another rule.\n${SECTION_END}`
}

/** Issue 38's detection targets: each category at 90% or more, at most 1% false positives. */
export function corpusTargets({ results: [one] }: CorpusReport) {
  const lowest = one.categories.reduce((a, c) =>
    c.detected / c.fire < a.detected / a.fire ? c : a,
  )
  const nofire = sum(one, 'nofire')
  const flagged = sum(one, 'flagged')
  return [
    {
      goal: 'shield() detects at least 90% of the CRS cases each category expects to fire at paranoia 1 (930, 931, 932, 933, 934, 941, 942, 944)',
      measured: one.categories.map((c) => `${c.category} ${pct(c.detected, c.fire)}`).join(', '),
      met: lowest.detected / lowest.fire >= 0.9,
    },
    {
      goal: 'shield() flags at most 1% of the CRS no-fire cases (attacks meant for another rule left out) and of the benign corpus, at paranoia 1',
      measured: `CRS no-fire ${flagged}/${nofire} (${pct(flagged, nofire)}), benign ${one.benign.flagged}/${one.benign.total} (${pct(one.benign.flagged, one.benign.total)})`,
      met: flagged <= 0.01 * nofire && one.benign.flagged <= 0.01 * one.benign.total,
    },
  ]
}
