#!/usr/bin/env node
// `pnpm mutate [--folder=<area>[,<area>…]]`: StrykerJS over the security-critical areas
// (tests/mutation/areas.mjs), one after another, each in its own Stryker run. Not part of
// `pnpm test`: a full run takes long on a shared machine (bench/MUTATION.md has the times).
// Prints each area's score, killed / survived / no coverage / timeout, from Stryker's JSON report.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AREAS } from '../tests/mutation/areas.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const STRYKER = join(ROOT, 'node_modules', '.bin', 'stryker')

const folder = process.argv.find((a) => a.startsWith('--folder='))?.slice('--folder='.length)
const names = folder ? folder.split(',') : Object.keys(AREAS)
for (const name of names) {
  if (!(name in AREAS)) {
    console.error(`mutate: no area '${name}'; the areas: ${Object.keys(AREAS).join(', ')}`)
    process.exit(2)
  }
}

/** Score (killed + timeout over all covered and uncovered valid mutants), as Stryker counts it. */
function summary(name) {
  const file = join(ROOT, 'reports', 'mutation', `${name}.json`)
  if (!existsSync(file)) return undefined
  const report = JSON.parse(readFileSync(file, 'utf8'))
  const count = {}
  for (const { mutants } of Object.values(report.files)) {
    for (const m of mutants) count[m.status] = (count[m.status] ?? 0) + 1
  }
  const detected = (count.Killed ?? 0) + (count.Timeout ?? 0)
  const valid = detected + (count.Survived ?? 0) + (count.NoCoverage ?? 0)
  return { score: valid === 0 ? 100 : (100 * detected) / valid, count }
}

let failed = 0
for (const name of names) {
  const started = Date.now()
  const run = spawnSync(
    'nice',
    [
      STRYKER,
      'run',
      'tests/mutation/stryker.config.mjs',
      ...process.argv.slice(2).filter((a) => !a.startsWith('--folder=')),
    ],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: {
        ...process.env,
        PALISADE_MUTATE_AREA: name,
        JOSE_ORACLE_RUNS: process.env.JOSE_ORACLE_RUNS ?? '100',
      },
    },
  )
  if (run.status !== 0) failed++
  const s = summary(name)
  const minutes = ((Date.now() - started) / 60_000).toFixed(1)
  console.log(
    s === undefined
      ? `mutate ${name}: no report (exit ${run.status})`
      : `mutate ${name}: ${s.score.toFixed(2)}% (${JSON.stringify(s.count)}) in ${minutes} min`,
  )
}
process.exit(failed ? 1 : 0)
