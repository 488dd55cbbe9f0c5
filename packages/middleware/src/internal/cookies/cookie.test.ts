import { Hono } from 'hono'
import { getCookie } from 'hono/cookie'
import { describe, expect, it } from 'vitest'
import { getCookieCopies, MAX_COOKIE_COPIES } from './cookie'

async function values(cookie: string | undefined, name = 'sid', limit?: number) {
  const app = new Hono()
  app.get('/', (c) => c.json({ all: getCookieCopies(c, name, limit), first: getCookie(c, name) }))
  const res = await app.request('/', cookie === undefined ? {} : { headers: { cookie } })
  return (await res.json()) as { all: string[] | null; first?: string }
}

describe('getCookieCopies', () => {
  it('returns every copy in header order, the first being what getCookie returns', async () => {
    const got = await values('sid=junk; other=1; sid=mine.sig; sid=third')
    expect(got.all).toEqual(['junk', 'mine.sig', 'third'])
    expect(got.first).toBe('junk')
  })

  it('returns nothing without a cookie header or without the name', async () => {
    expect((await values(undefined)).all).toEqual([])
    expect((await values('a=1; b=2')).all).toEqual([])
  })

  it('matches the name exactly (no prefix or suffix matches)', async () => {
    expect((await values('xsid=1; sidx=2; __Host-sid=3; sid=4')).all).toEqual(['4'])
  })

  it('decodes like getCookie: quotes stripped, percent-decoded, spaces and tabs trimmed', async () => {
    expect((await values('sid="a%20b";  sid =\tc ')).all).toEqual(['a b', 'c'])
  })

  it('skips values hono/cookie would reject, and keeps malformed percent-escapes as sent', async () => {
    expect((await values('sid=a"b; sid=%E0%A4%A; sid=ok')).all).toEqual(['%E0%A4%A', 'ok'])
  })

  it('finds the name only as a pair name, never inside another value or name', async () => {
    expect((await values('a=sid=5; b=xsid; sid=ok; c=sid')).all).toEqual(['ok'])
    expect((await values('sid=first;sid=second;  sid=third')).all).toEqual([
      'first',
      'second',
      'third',
    ])
    expect((await values('sid')).all).toEqual([])
    expect((await values('sid;sid=;sid= ')).all).toEqual(['', ''])
  })

  it('agrees with getCookie on the first copy for a range of headers', async () => {
    for (const header of [
      'sid=a',
      ' sid=a ; sid=b',
      'x=1;sid="q"',
      'sid=%41%42',
      'sid=a b',
      'sid=a=b',
      '\tsid\t=\tv\t',
    ]) {
      const got = await values(header)
      expect(got.all?.[0]).toBe(got.first)
    }
  })

  it('returns null when the request carries more copies than are examined (padding)', async () => {
    const header = (n: number) => Array.from({ length: n }, (_, i) => `sid=v${i}`).join('; ')
    expect((await values(header(MAX_COOKIE_COPIES))).all).toHaveLength(MAX_COOKIE_COPIES)
    for (const n of [MAX_COOKIE_COPIES + 1, 50, 500])
      expect((await values(header(n))).all).toBeNull()
    expect((await values(header(3), 'sid', 2)).all).toBeNull()
    expect((await values(header(2), 'sid', 2)).all).toEqual(['v0', 'v1'])
  })

  it('counts copies whose value is invalid: junk cannot pad without being counted', async () => {
    const junk = Array.from({ length: MAX_COOKIE_COPIES }, () => 'sid="a b\\"').join('; ')
    expect((await values(`${junk}; sid=mine`)).all).toBeNull()
    expect((await values(`sid="a\\"; sid=mine`)).all).toEqual(['mine'])
  })
})
