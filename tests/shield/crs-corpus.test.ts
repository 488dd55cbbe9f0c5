// shield()'s detection against the OWASP CRS regression corpus and our benign corpus (what is
// counted: bench/README.md, "shield corpus"). The floors are the rates reached when this was
// last measured; the targets are 90% detection per category and at most 1% false
// positives. Raise a floor when the detectors improve, never lower one to make a change pass.
import { describe, expect, it } from 'vitest'
import { type CrsCategory, measure } from '../fixtures/crs/measure'

/** Detection at paranoia 1, as a fraction: the rate reached when last measured, rounded down. */
const DETECTION_FLOOR: Record<CrsCategory, number> = {
  '930': 0.96,
  '931': 1.0, // 931110 through the parameter's name (detect()'s `name`)
  '932': 0.93,
  '933': 0.91,
  '934': 0.99,
  '941': 0.94,
  '942': 0.93,
  '944': 0.97,
}

describe('shield detection on the CRS regression corpus, paranoia 1', () => {
  const result = measure(1)
  it.each(result.categories.map((c) => [c.category, c] as const))(
    'detects at least its floor of CRS %s cases',
    (category, c) => {
      expect(c.fire).toBeGreaterThan(0)
      expect(c.detected / c.fire).toBeGreaterThanOrEqual(DETECTION_FLOOR[category])
    },
  )

  it('flags at most 1% of the CRS no-fire cases over all categories', () => {
    const nofire = result.categories.reduce((n, c) => n + c.nofire, 0)
    const flagged = result.categories.reduce((n, c) => n + c.flagged, 0)
    expect(nofire).toBeGreaterThan(500)
    expect(flagged / nofire).toBeLessThanOrEqual(0.01)
  })

  it('flags at most 1% of the benign corpus', () => {
    expect(result.benign.total).toBeGreaterThan(150)
    expect(
      result.benign.flagged / result.benign.total,
      result.benign.falsePositives.join('\n'),
    ).toBeLessThanOrEqual(0.01)
  })
})
