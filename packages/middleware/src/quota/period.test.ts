import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { dateIn, periodOf } from './period'

const at = (iso: string) => Date.parse(iso)

describe('periodOf', () => {
  const utc = dateIn('UTC')

  it('gives the UTC day and month an instant falls in', () => {
    expect(periodOf(utc, 'day', at('2026-12-06T23:59:59.999Z'))).toEqual({
      id: '2026-12-06',
      start: at('2026-12-06T00:00:00Z'),
      end: at('2026-12-07T00:00:00Z'),
    })
    expect(periodOf(utc, 'month', at('2026-12-31T12:00:00Z'))).toEqual({
      id: '2026-12',
      start: at('2026-12-01T00:00:00Z'),
      end: at('2027-01-01T00:00:00Z'),
    })
    expect(periodOf(utc, 'month', at('2028-02-29T00:00:00Z')).end).toBe(at('2028-03-01T00:00:00Z'))
  })

  it('follows a time zone, across its daylight-saving changes', () => {
    const ny = dateIn('America/New_York')
    // 2026-03-08 has 23 hours in New York, 2026-11-01 has 25.
    const spring = periodOf(ny, 'day', at('2026-03-08T12:00:00Z'))
    expect(spring).toEqual({
      id: '2026-03-08',
      start: at('2026-03-08T05:00:00Z'),
      end: at('2026-03-09T04:00:00Z'),
    })
    const fall = periodOf(ny, 'day', at('2026-11-01T12:00:00Z'))
    expect(fall.end - fall.start).toBe(25 * 3_600_000)
    // 03:30 UTC on the 1st is still the last evening of the previous month in New York.
    expect(periodOf(ny, 'month', at('2026-12-01T03:30:00Z'))).toEqual({
      id: '2026-11',
      start: at('2026-11-01T04:00:00Z'),
      end: at('2026-12-01T05:00:00Z'),
    })
    const tokyo = dateIn('Asia/Tokyo')
    expect(periodOf(tokyo, 'day', at('2026-12-06T15:00:00Z')).id).toBe('2026-12-07')
    // Half-hour and quarter-hour offsets.
    expect(periodOf(dateIn('Asia/Kathmandu'), 'day', at('2026-06-01T00:00:00Z')).start).toBe(
      at('2026-05-31T18:15:00Z'),
    )
  })

  it('finds the first instant of a day whose midnight does not exist', () => {
    // Chile moved its clocks from 00:00 to 01:00 on 2026-09-06: the day starts at 01:00 local.
    const santiago = dateIn('America/Santiago')
    const p = periodOf(santiago, 'day', at('2026-09-06T12:00:00Z'))
    expect(p.id).toBe('2026-09-06')
    expect(santiago(p.start - 1).day).toBe(5)
    expect(santiago(p.start).day).toBe(6)
  })

  it('tiles time: each instant is in its period, and each period ends where the next starts', () => {
    const zones = [
      'UTC',
      'America/New_York',
      'Europe/Berlin',
      'Australia/Lord_Howe',
      'Asia/Kolkata',
    ]
    fc.assert(
      fc.property(
        fc.integer({ min: at('1990-01-01T00:00:00Z'), max: at('2090-01-01T00:00:00Z') }),
        fc.constantFrom(...zones),
        fc.constantFrom('day' as const, 'month' as const),
        (instant, zone, period) => {
          const dateOf = dateIn(zone)
          const p = periodOf(dateOf, period, instant)
          expect(p.start).toBeLessThanOrEqual(instant)
          expect(p.end).toBeGreaterThan(instant)
          expect(periodOf(dateOf, period, p.start)).toEqual(p)
          expect(periodOf(dateOf, period, p.end - 1)).toEqual(p)
          expect(periodOf(dateOf, period, p.end).start).toBe(p.end)
          expect(periodOf(dateOf, period, p.start - 1).end).toBe(p.start)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('refuses a zone the runtime does not know', () => {
    expect(() => dateIn('Mars/Olympus_Mons')).toThrow(RangeError)
  })
})
