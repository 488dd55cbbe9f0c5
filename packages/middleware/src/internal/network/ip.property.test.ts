import fc from 'fast-check'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import {
  headerValue,
  ipv4Value,
  ipv6Compressed,
  ipv6Text,
  ipv6Value,
} from '../../../test/arbitraries'
import { ipGuard } from '../../ip-guard'
import { getClientIPParsed } from './client-ip'
import { formatIPv4, IPMatcher, ipv4Mapped, parseCIDR, parseIP } from './ip'

const isMapped = (v: bigint) => v >> 32n === 0xffffn

describe('IP parsing: round-trips', () => {
  it('formatIPv4 then parseIP gives back every IPv4 address', () => {
    fc.assert(
      fc.property(ipv4Value, (v) => {
        expect(parseIP(formatIPv4(v))).toEqual({ version: 4, value: v })
      }),
    )
  })

  it('parses every IPv6 address from its full and its compressed text, bracketed or not', () => {
    fc.assert(
      fc.property(ipv6Value, (v) => {
        // IPv4-mapped addresses are the IPv4 address by design.
        const expected = isMapped(v)
          ? { version: 4, value: Number(v & 0xffffffffn) }
          : { version: 6, value: v }
        for (const text of [ipv6Text(v), ipv6Compressed(v), `[${ipv6Compressed(v)}]`]) {
          expect(parseIP(text), text).toEqual(expected)
          expect(parseIP(text.toUpperCase()), text).toEqual(expected)
        }
      }),
    )
  })

  it('treats ::ffff:a.b.c.d as the IPv4 address a.b.c.d', () => {
    fc.assert(
      fc.property(ipv4Value, (v) => {
        expect(parseIP(`::ffff:${formatIPv4(v)}`)).toEqual({ version: 4, value: v })
        expect(parseIP(ipv6Compressed(ipv4Mapped(v)))).toEqual({ version: 4, value: v })
      }),
    )
  })
})

describe('CIDR parsing: ranges hold what they should', () => {
  it('an IPv4 CIDR is aligned, contains its address, and the matcher agrees at both ends', () => {
    fc.assert(
      fc.property(ipv4Value, fc.integer({ min: 0, max: 32 }), (v, prefix) => {
        const range = parseCIDR(`${formatIPv4(v)}/${prefix}`)
        expect(range).not.toBeNull()
        if (range?.version !== 4) throw new Error('expected IPv4')
        expect(range.end - range.start + 1).toBe(2 ** (32 - prefix))
        expect(range.start % 2 ** (32 - prefix)).toBe(0)
        expect(v >= range.start && v <= range.end).toBe(true)
        const matcher = new IPMatcher([range])
        expect(matcher.has({ version: 4, value: range.start })).toBe(true)
        expect(matcher.has({ version: 4, value: range.end })).toBe(true)
        if (range.start > 0) expect(matcher.has({ version: 4, value: range.start - 1 })).toBe(false)
        if (range.end < 0xffffffff) {
          expect(matcher.has({ version: 4, value: range.end + 1 })).toBe(false)
        }
      }),
    )
  })

  it('an IPv6 CIDR contains its address and nothing just outside it', () => {
    fc.assert(
      fc.property(ipv6Value, fc.integer({ min: 0, max: 128 }), (v, prefix) => {
        fc.pre(!isMapped(v))
        const range = parseCIDR(`${ipv6Compressed(v)}/${prefix}`)
        if (range?.version !== 6) throw new Error('expected IPv6')
        expect(range.end - range.start + 1n).toBe(1n << BigInt(128 - prefix))
        const matcher = new IPMatcher([range])
        expect(matcher.has({ version: 6, value: v })).toBe(true)
        if (range.start > 0n)
          expect(matcher.has({ version: 6, value: range.start - 1n })).toBe(false)
        if (range.end < (1n << 128n) - 1n) {
          expect(matcher.has({ version: 6, value: range.end + 1n })).toBe(false)
        }
      }),
    )
  })

  it('a matcher of many ranges answers exactly like checking each range', () => {
    const cidr = fc.tuple(ipv4Value, fc.integer({ min: 8, max: 32 }))
    fc.assert(
      fc.property(fc.array(cidr, { maxLength: 20 }), ipv4Value, (list, probe) => {
        const ranges = list.map(([v, p]) => parseCIDR(`${formatIPv4(v)}/${p}`))
        const matcher = new IPMatcher(ranges as NonNullable<(typeof ranges)[number]>[])
        const expected = ranges.some((r) => r?.version === 4 && probe >= r.start && probe <= r.end)
        expect(matcher.has({ version: 4, value: probe })).toBe(expected)
      }),
    )
  })
})

describe('IP parsing: attacker text never throws', () => {
  it('parseIP and parseCIDR return an address or null for any string', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        const ip = parseIP(text)
        expect(ip === null || ip.version === 4 || ip.version === 6).toBe(true)
        const range = parseCIDR(text)
        expect(range === null || range.start <= range.end).toBe(true)
      }),
    )
  })

  it('the client-IP rule and ipGuard never answer 5xx, whatever X-Forwarded-For says', async () => {
    const app = new Hono()
    app.use('/guarded', ipGuard({ mode: 'allow', list: ['10.0.0.0/8', '2001:db8::/32'] }))
    app.get('/guarded', (c) => c.text('in'))
    app.get('/ip', (c) => c.json(getClientIPParsed(c) !== null))
    await fc.assert(
      fc.asyncProperty(headerValue(), async (xff) => {
        const headers = { 'x-forwarded-for': xff }
        const guarded = await app.request('/guarded', { headers })
        expect([200, 403]).toContain(guarded.status)
        expect((await app.request('/ip', { headers })).status).toBe(200)
      }),
    )
  })

  it('ipGuard lets in exactly the X-Forwarded-For addresses inside its list', async () => {
    const app = new Hono()
    app.use('*', ipGuard({ mode: 'allow', list: ['10.0.0.0/8'] }))
    app.get('/', (c) => c.text('in'))
    await fc.assert(
      fc.asyncProperty(ipv4Value, async (v) => {
        const res = await app.request('/', { headers: { 'x-forwarded-for': formatIPv4(v) } })
        expect(res.status).toBe(v >>> 24 === 10 ? 200 : 403)
      }),
    )
  })
})
