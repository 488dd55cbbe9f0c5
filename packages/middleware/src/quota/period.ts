/**
 * Calendar periods for quotas: the day or the month an instant falls in, in UTC or in an IANA
 * time zone, as the instants where it starts and ends. A quota's count lives under a key that
 * names its period (`2026-12` or `2026-12-06`), so a new period starts from zero on every store
 * at the same instant, whatever the store's own clock or expiry does.
 */

/** What a quota is counted over. */
export type QuotaPeriod = 'day' | 'month'

/** One period: its name in the key, and where it starts and ends (ms since the epoch). */
export interface PeriodSpan {
  /** `YYYY-MM-DD` for a day, `YYYY-MM` for a month, in the period's time zone. */
  id: string
  start: number
  /** Exclusive: the next period's start. */
  end: number
}

type Parts = { year: number; month: number; day: number }

/** The calendar date of `instant` in `timeZone` (`'UTC'`: no Intl at all). */
export type DateOf = (instant: number) => Parts

/**
 * A function giving the calendar date of an instant in `timeZone`. Throws a RangeError for a
 * zone the runtime does not know. One `Intl.DateTimeFormat` per zone, made here, not per call.
 */
export function dateIn(timeZone: string): DateOf {
  if (timeZone === 'UTC') {
    return (instant) => {
      const d = new Date(instant)
      return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }
    }
  }
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  })
  return (instant) => {
    const parts: Parts = { year: 0, month: 0, day: 0 }
    for (const p of format.formatToParts(instant)) {
      if (p.type === 'year' || p.type === 'month' || p.type === 'day')
        parts[p.type] = Number(p.value)
    }
    return parts
  }
}

const DAY_MS = 86_400_000

/**
 * The first instant of the calendar day `y-m-d` in the zone of `dateOf`: found by search, not by
 * offset arithmetic, so a zone whose midnight does not exist on a day (a DST change at 00:00)
 * still gets the first instant that day has. Zones' offsets lie within ±15 hours of UTC.
 */
function startOfDay(dateOf: DateOf, year: number, month: number, day: number): number {
  const target = year * 10_000 + month * 100 + day
  const key = (instant: number) => {
    const p = dateOf(instant)
    return p.year * 10_000 + p.month * 100 + p.day
  }
  // The day starts somewhere in [UTC midnight − 15 h, UTC midnight + 15 h): a binary search for
  // the first instant of that range whose date is the target (27 steps to the millisecond; run
  // once per period, the quota caches the span).
  let lo = Date.UTC(year, month - 1, day) - 15 * 3_600_000
  let hi = lo + 30 * 3_600_000
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2)
    if (key(mid) < target) lo = mid
    else hi = mid
  }
  return hi
}

/** The day or month that `instant` falls in, by the calendar of `dateOf`'s zone. */
export function periodOf(dateOf: DateOf, period: QuotaPeriod, instant: number): PeriodSpan {
  const { year, month, day } = dateOf(instant)
  const pad = (n: number) => String(n).padStart(2, '0')
  if (period === 'day') {
    const start = startOfDay(dateOf, year, month, day)
    // Tomorrow's date from UTC arithmetic on the calendar date, not on the instant (a day may
    // last 23 or 25 hours).
    const next = new Date(Date.UTC(year, month - 1, day) + DAY_MS)
    const end = startOfDay(dateOf, next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate())
    return { id: `${year}-${pad(month)}-${pad(day)}`, start, end }
  }
  const start = startOfDay(dateOf, year, month, 1)
  const end = startOfDay(dateOf, month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1)
  return { id: `${year}-${pad(month)}`, start, end }
}
