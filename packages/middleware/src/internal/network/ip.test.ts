import { describe, expect, it } from 'vitest'
import { formatIPv4, IPMatcher, ipv4Mapped, parseCIDR, parseIP, parseIPv4, parseIPv6 } from './ip'

const v4 = (text: string): number => {
  const value = parseIPv4(text)
  if (value === null) throw new Error(`bad test address ${text}`)
  return value
}

describe('parseIPv4', () => {
  it.each([
    ['0.0.0.0', 0],
    ['255.255.255.255', 0xffffffff],
    ['10.0.0.1', 0x0a000001],
    ['192.168.1.254', 0xc0a801fe],
    ['127.0.0.1', 0x7f000001],
  ])('parses %s', (text, value) => {
    expect(parseIPv4(text)).toBe(value)
  })

  it.each([
    '1.2.3',
    '1.2.3.4.5',
    '256.0.0.1',
    '1.2.3.-1',
    '01.2.3.4',
    '1.2.3.04',
    '0x7f.0.0.1',
    '2130706433',
    '1..2.3',
    '1.2.3.4.',
    '',
    ' 1.2.3.4',
    '1.2.3.4a',
    '1234.1.1.1',
    '１.２.３.４',
  ])('rejects the non-canonical or invalid IPv4 %j', (text) => {
    expect(parseIPv4(text)).toBeNull()
  })
})

describe('parseIPv6', () => {
  it.each([
    ['::', 0n],
    ['::1', 1n],
    ['0:0:0:0:0:0:0:1', 1n],
    ['0000:0000:0000:0000:0000:0000:0000:0001', 1n],
    ['2001:db8::1', 0x20010db8000000000000000000000001n],
    ['2001:DB8:0:0:0:0:0:1', 0x20010db8000000000000000000000001n],
    ['2001:db8:0:0:1::', 0x20010db8000000000001000000000000n],
    ['fe80::', 0xfe800000000000000000000000000000n],
    ['::ffff:10.0.0.1', 0xffff0a000001n],
    ['::ffff:a00:1', 0xffff0a000001n],
    ['64:ff9b::192.0.2.33', 0x0064ff9b0000000000000000c0000221n],
    ['1:2:3:4:5:6:1.2.3.4', 0x00010002000300040005000601020304n],
    ['1:2:3:4:5:6:7::', 0x00010002000300040005000600070000n],
    ['::2:3:4:5:6:7:8', 0x00000002000300040005000600070008n],
  ])('parses %s', (text, value) => {
    expect(parseIPv6(text)).toBe(value)
  })

  it.each([
    ':',
    ':::',
    '1::2::3',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '12345::',
    'g::1',
    '::1%eth0',
    'fe80::1%1',
    ':1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:',
    '::1.2.3',
    '::ffff:01.2.3.4',
    '::1.2.3.4:5',
    '1:2:3:4:5:6:7:1.2.3.4',
    '1.2.3.4::',
  ])('rejects %j', (text) => {
    expect(parseIPv6(text)).toBeNull()
  })
})

describe('parseIP', () => {
  it('treats an IPv4-mapped IPv6 address as the IPv4 address, in both spellings', () => {
    expect(parseIP('::ffff:10.0.0.1')).toEqual({ version: 4, value: v4('10.0.0.1') })
    expect(parseIP('::ffff:a00:1')).toEqual({ version: 4, value: v4('10.0.0.1') })
    expect(parseIP('0:0:0:0:0:ffff:0a00:0001')).toEqual({ version: 4, value: v4('10.0.0.1') })
  })

  it('strips brackets and surrounding whitespace', () => {
    expect(parseIP('[::1]')).toEqual({ version: 6, value: 1n })
    expect(parseIP(' 10.0.0.1 ')).toEqual({ version: 4, value: v4('10.0.0.1') })
  })

  it('keeps a native IPv6 address as IPv6 even when its low bits look like IPv4', () => {
    expect(parseIP('::a00:1')?.version).toBe(6)
    expect(parseIP('64:ff9b::10.0.0.1')?.version).toBe(6)
  })

  it('returns null for garbage', () => {
    for (const text of ['', 'localhost', '1.2.3', '[1.2.3.4]x', '1.2.3.4:80', 'unknown']) {
      expect(parseIP(text)).toBeNull()
    }
  })

  it('round-trips IPv4 through formatIPv4 and ipv4Mapped', () => {
    expect(formatIPv4(v4('203.0.113.9'))).toBe('203.0.113.9')
    expect(ipv4Mapped(v4('10.0.0.1'))).toBe(0xffff0a000001n)
  })
})

describe('parseCIDR', () => {
  it.each([
    ['10.0.0.0/8', '10.0.0.0', '10.255.255.255', 8],
    ['10.1.2.3/8', '10.0.0.0', '10.255.255.255', 8],
    ['192.168.1.77/24', '192.168.1.0', '192.168.1.255', 24],
    ['172.16.0.0/12', '172.16.0.0', '172.31.255.255', 12],
    ['1.2.3.4', '1.2.3.4', '1.2.3.4', 32],
    ['1.2.3.4/32', '1.2.3.4', '1.2.3.4', 32],
    ['0.0.0.0/0', '0.0.0.0', '255.255.255.255', 0],
    ['255.255.255.255/1', '128.0.0.0', '255.255.255.255', 1],
    ['::ffff:10.0.0.0/104', '10.0.0.0', '10.255.255.255', 8],
    ['::ffff:0:0/96', '0.0.0.0', '255.255.255.255', 0],
  ])('%s covers %s – %s (/%i)', (text, start, end, prefix) => {
    expect(parseCIDR(text)).toEqual({ version: 4, start: v4(start), end: v4(end), prefix })
  })

  it.each([
    ['2001:db8::/32', 0x20010db8000000000000000000000000n, 0x20010db8ffffffffffffffffffffffffn, 32],
    [
      '2001:db8:ffff::1/32',
      0x20010db8000000000000000000000000n,
      0x20010db8ffffffffffffffffffffffffn,
      32,
    ],
    [
      '[2001:db8::]/48',
      0x20010db8000000000000000000000000n,
      0x20010db80000ffffffffffffffffffffn,
      48,
    ],
    ['::1', 1n, 1n, 128],
    ['::/0', 0n, (1n << 128n) - 1n, 0],
    ['fe80::1/10', 0xfe800000000000000000000000000000n, 0xfebfffffffffffffffffffffffffffffn, 10],
  ])('%s is the IPv6 range it names, host bits masked', (text, start, end, prefix) => {
    expect(parseCIDR(text)).toEqual({ version: 6, start, end, prefix })
  })

  it.each([
    '10.0.0.0/33',
    '1.2.3',
    '::1/129',
    '10.0.0.0/',
    '10.0.0.0/-1',
    '10.0.0.0/08',
    '10.0.0.0/8/8',
    '10.0.0.0/8a',
    '10.0.0.0/ 8',
    '/8',
    'localhost',
    '2001:db8::/1000',
    '010.0.0.0/8',
    '1.2.3.4/0x8',
    '',
  ])('rejects %j', (text) => {
    expect(parseCIDR(text)).toBeNull()
  })

  it('treats compressed and full IPv6 spellings as the same range', () => {
    expect(parseCIDR('2001:db8::/64')).toEqual(
      parseCIDR('2001:0db8:0000:0000:0000:0000:0000:0000/64'),
    )
  })
})

// [rule, client, matches]: the CIDR table that pins down matching semantics.
const CIDR_CASES: [string, string, boolean][] = [
  ['10.0.0.0/8', '10.0.0.0', true],
  ['10.0.0.0/8', '10.255.255.255', true],
  ['10.0.0.0/8', '10.1.2.3', true],
  ['10.0.0.0/8', '9.255.255.255', false],
  ['10.0.0.0/8', '11.0.0.0', false],
  ['10.1.2.3/8', '10.200.0.1', true],
  ['192.168.0.0/16', '192.168.255.1', true],
  ['192.168.0.0/16', '192.169.0.1', false],
  ['172.16.0.0/12', '172.31.255.255', true],
  ['172.16.0.0/12', '172.32.0.0', false],
  ['172.16.0.0/12', '172.15.255.255', false],
  ['203.0.113.7', '203.0.113.7', true],
  ['203.0.113.7', '203.0.113.8', false],
  ['203.0.113.7/32', '203.0.113.7', true],
  ['203.0.113.7/31', '203.0.113.6', true],
  ['203.0.113.7/31', '203.0.113.8', false],
  ['198.51.100.0/25', '198.51.100.127', true],
  ['198.51.100.0/25', '198.51.100.128', false],
  ['198.51.100.128/25', '198.51.100.128', true],
  ['0.0.0.0/0', '8.8.8.8', true],
  ['0.0.0.0/0', '255.255.255.255', true],
  ['0.0.0.0/0', '::1', false],
  ['128.0.0.0/1', '127.255.255.255', false],
  ['128.0.0.0/1', '128.0.0.0', true],
  ['255.255.255.255/32', '255.255.255.255', true],
  ['0.0.0.0/32', '0.0.0.0', true],
  ['0.0.0.0/32', '0.0.0.1', false],
  // IPv4-mapped clients match IPv4 rules, in both spellings.
  ['10.0.0.0/8', '::ffff:10.0.0.1', true],
  ['10.0.0.0/8', '::ffff:a00:1', true],
  ['10.0.0.0/8', '0:0:0:0:0:ffff:a00:1', true],
  ['10.0.0.0/8', '::ffff:b00:1', false],
  ['127.0.0.1', '::ffff:127.0.0.1', true],
  // IPv4-mapped rules match IPv4 clients.
  ['::ffff:10.0.0.0/104', '10.9.9.9', true],
  ['::ffff:10.0.0.0/104', '11.0.0.0', false],
  ['::ffff:192.0.2.1', '192.0.2.1', true],
  ['::ffff:c000:201', '192.0.2.1', true],
  // Native IPv6 clients never match IPv4 rules, however the low bits look.
  ['10.0.0.0/8', '::a00:1', false],
  ['10.0.0.0/8', '64:ff9b::a00:1', false],
  ['10.0.0.0/8', '2002:a00:1::', false],
  ['0.0.0.0/0', '2001:db8::1', false],
  ['127.0.0.1', '::1', false],
  // IPv6 rules.
  ['2001:db8::/32', '2001:db8::1', true],
  ['2001:db8::/32', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', true],
  ['2001:db8::/32', '2001:db9::', false],
  ['2001:db8::/32', '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', false],
  ['2001:db8::/32', '2001:0DB8:0000:0000:0000:0000:0000:0001', true],
  ['2001:0db8:0000:0000:0000:0000:0000:0000/32', '2001:db8::abcd', true],
  ['2001:db8:abcd::/48', '2001:db8:abcd:1::1', true],
  ['2001:db8:abcd::/48', '2001:db8:abce::1', false],
  ['2001:db8:abcd:12::/64', '2001:db8:abcd:12:ffff::', true],
  ['2001:db8:abcd:12::/64', '2001:db8:abcd:13::', false],
  ['::1', '::1', true],
  ['::1', '0:0:0:0:0:0:0:1', true],
  ['::1', '::2', false],
  ['::1/128', '::1', true],
  ['fe80::/10', 'fe80::1', true],
  ['fe80::/10', 'febf:ffff::1', true],
  ['fe80::/10', 'fec0::1', false],
  ['fc00::/7', 'fd12:3456::1', true],
  ['fc00::/7', 'fe00::1', false],
  ['::/0', '2001:db8::1', true],
  ['::/0', 'ff02::1', true],
  // `::/0` means "all IPv6"; an IPv4 client is IPv4, not ::ffff:a.b.c.d.
  ['::/0', '10.0.0.1', false],
  ['::/0', '::ffff:10.0.0.1', false],
  ['2001:db8::1/64', '2001:db8::ffff', true],
  ['2001:db8::1/127', '2001:db8::', true],
  ['2001:db8::1/127', '2001:db8::2', false],
]

describe('IPMatcher', () => {
  it('has at least 60 table cases', () => {
    expect(CIDR_CASES.length).toBeGreaterThanOrEqual(60)
  })

  it.each(CIDR_CASES)('rule %s matches %s: %s', (rule, client, expected) => {
    const range = parseCIDR(rule)
    const ip = parseIP(client)
    expect(range).not.toBeNull()
    expect(ip).not.toBeNull()
    if (!range || !ip) return
    expect(new IPMatcher([range]).has(ip)).toBe(expected)
  })

  it('merges overlapping and adjacent ranges', () => {
    const ranges = [
      '10.0.0.0/9',
      '10.128.0.0/9',
      '10.1.0.0/16',
      '11.0.0.0/8',
      '2001:db8::/33',
      '2001:db8:8000::/33',
    ]
    const matcher = new IPMatcher(ranges.map((r) => parseCIDR(r)!))
    expect(matcher.size).toBe(2)
    for (const ip of ['10.0.0.0', '10.200.0.1', '11.255.255.255', '2001:db8:ffff::1']) {
      expect(matcher.has(parseIP(ip)!)).toBe(true)
    }
    for (const ip of ['9.255.255.255', '12.0.0.0', '2001:db9::']) {
      expect(matcher.has(parseIP(ip)!)).toBe(false)
    }
  })

  it('agrees with a linear scan over many random-looking ranges', () => {
    // Deterministic pseudo-random ranges: the binary search must give the same answers as a scan.
    let seed = 12345
    const rand = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
      return seed
    }
    const ranges = Array.from({ length: 2000 }, () =>
      parseCIDR(`${formatIPv4(rand())}/${8 + (rand() % 25)}`),
    ).filter((r) => r !== null)
    const matcher = new IPMatcher(ranges)
    for (let i = 0; i < 5000; i++) {
      const value = rand()
      const expected = ranges.some((r) => r.version === 4 && r.start <= value && value <= r.end)
      expect(matcher.has({ version: 4, value })).toBe(expected)
    }
  })

  it('matches nothing when empty', () => {
    const matcher = new IPMatcher([])
    expect(matcher.has(parseIP('10.0.0.1')!)).toBe(false)
    expect(matcher.has(parseIP('::1')!)).toBe(false)
  })
})
