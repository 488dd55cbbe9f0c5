/**
 * The "A within N µs of B" rows (botGuard, loadShed, the openapi wrapper, concurrencyLimit):
 * measured in paired batches (`pairedBatches` in measure.ts), reported as the median of the
 * per-pair differences with their interquartile range, and, with `--repeat=N`, measured N times
 * in a row so that the run-to-run agreement is on the page.
 */
import { fmtRatio, fmtSpread, fmtUs, type PairedBatches, pairedBatches, settings } from './measure'
import { addRow, addTarget } from './results'

export interface PairedSide {
  name: string
  /** One request, awaited (the same work every call). */
  run: () => unknown
}

export interface PairedTarget {
  table: string
  goal: string
  /** The budget of `sides[1]` over `sides[0]`, in ns of CPU per request. */
  budgetNs: number
  /** `sides[0]` is the base; the target is about `sides[1]`; the rest are shown for scale. */
  sides: PairedSide[]
  /** `false`: the row is shown, not judged. */
  judged?: boolean
  /** Words after the figure: what else the row shows, computed from the same pairs. */
  more?: (m: PairedBatches) => string
  batch?: number
}

/** Runs one paired row (`settings.repeat` times in a row) and records its rows and target. */
export async function pairedTarget(t: PairedTarget): Promise<void> {
  const runs: PairedBatches[] = []
  for (let r = 0; r < settings.repeat; r++) {
    runs.push(
      await pairedBatches(
        t.sides.map((s) => s.run),
        { batch: t.batch },
      ),
    )
  }
  const m = runs[runs.length - 1] as PairedBatches
  const base = t.sides[0]?.name as string
  for (const [i, side] of t.sides.entries()) {
    addRow({
      table: t.table,
      name: side.name,
      ns: m.cpu(i),
      ...(i > 0 ? { ratio: m.ratio(i, 0), vs: base } : {}),
      note:
        i > 0
          ? `CPU per request; ${fmtSpread(m.diff(i, 0))} over ${base}, paired`
          : 'CPU per request',
    })
  }
  const d = m.diff(1, 0)
  const again =
    runs.length > 1
      ? `; ${runs.length} runs in a row: ${runs.map((r) => fmtUs(r.diff(1, 0).median)).join(', ')}${
          t.sides.length > 2
            ? ` (over ${t.sides[2]?.name}: ${runs.map((r) => fmtUs(r.diff(1, 2).median)).join(', ')})`
            : ''
        }`
      : ''
  const extra = t.more?.(m)
  const more = extra ? `; ${extra}` : ''
  addTarget({
    goal: t.goal,
    measured: `${fmtSpread(d)} CPU per request over ${base} (median of ${m.pairs} paired batches of ${m.batch} requests; ${fmtRatio(m.ratio(1, 0))} of its time${more}${again})`,
    met: t.judged === false ? null : runs.every((r) => r.diff(1, 0).median <= t.budgetNs),
  })
}
