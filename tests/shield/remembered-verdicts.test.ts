// shield() remembers the verdicts on short values (scan.ts, Verdicts): names, paths, headers, and
// body values up to 256 characters (under their name when the verdict may read it). A remembered verdict must be the
// engine's: every CRS payload and benign sample, as a body value under its own name, under a
// name for a server path and under none, checked often enough to be remembered, agrees with
// detect().
import { describe, expect, it } from 'vitest'
import { ATTACK_CATEGORIES, detect } from '../../packages/middleware/src/shield/detect'
import { Scan, Verdicts } from '../../packages/middleware/src/shield/scan'
import { loadBenign, loadCases } from '../fixtures/crs/measure'
import { inputsOf } from '../fixtures/crs/requests'

/** The values and names to check: every CRS input and benign sample (each value once per name). */
function samples(): Array<{ value: string; name: string | undefined }> {
  const out = new Map<string, { value: string; name: string | undefined }>()
  const add = (value: string, name: string | undefined) =>
    out.set(JSON.stringify([value, name]), { value, name })
  for (const test of loadCases()) for (const input of inputsOf(test)) add(input.value, input.name)
  for (const sample of loadBenign()) add(sample.value, sample.name)
  for (const { value } of [...out.values()]) {
    add(value, undefined)
    add(value, 'include')
  }
  return [...out.values()]
}

describe('remembered verdicts on body values agree with the engine', () => {
  for (const paranoia of [1, 2] as const) {
    it(`on the CRS corpus and the benign corpus, paranoia ${paranoia}`, () => {
      const options = { rules: new Set(ATTACK_CATEGORIES), paranoia }
      const verdicts = new Verdicts()
      const all = samples()
      const wrong: string[] = []
      // One unknown body value in eight is remembered: enough rounds that most are, and
      // read after being remembered.
      for (let round = 0; round < 10; round++) {
        for (const { value, name } of all) {
          const scan = new Scan(options, 1 << 20, verdicts)
          scan.body(value, 'body', () => 'here', name)
          const expected = detect(value, 'body', options, name)
          if (scan.hit?.category !== expected) {
            wrong.push(
              `${JSON.stringify(value)} under ${name}: ${scan.hit?.category} not ${expected}`,
            )
          }
        }
      }
      expect(wrong).toEqual([])
    })
  }
})
