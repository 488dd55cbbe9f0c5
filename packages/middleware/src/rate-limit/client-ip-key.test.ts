import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { fromSocket, hitFrom, limitedApp } from '../../test/rate-limit-app'
import { clientIpKey, rateLimit } from './index'

async function keyOf(ip: string, subnet?: number | false): Promise<string> {
  const app = new Hono()
  app.get('/', (c) => c.text(subnet === undefined ? clientIpKey(c) : clientIpKey(c, subnet)))
  return (await app.request('/', {}, fromSocket(ip))).text()
}

// express-rate-limit's ip-key-generator-test cases are the table below, ported to clientIpKey.
describe('clientIpKey', () => {
  it.each<[string, string, number | false | undefined, string]>([
    ['an IPv4 address', '1.2.3.4', undefined, '1.2.3.4'],
    ['IPv4-mapped IPv6', '::ffff:1.2.3.4', undefined, '1.2.3.4'],
    ['IPv4-mapped IPv6 in hex', '::ffff:102:304', undefined, '1.2.3.4'],
    [
      'IPv6 by /56 (default)',
      '0123:4567:89ab:cdef:0123:4567:89ab:cdef',
      undefined,
      '123:4567:89ab:cd00::/56',
    ],
    ['IPv6 by /63', '0123:4567:89ab:cdef:0123:4567:89ab:cdef', 63, '123:4567:89ab:cdee::/63'],
    ['IPv6 by /48', '2001:db8:abcd:12ff::1', 48, '2001:db8:abcd::/48'],
    [
      'IPv6 by /128',
      '0123:4567:89ab:cdef:0123:4567:89ab:cdef',
      128,
      '123:4567:89ab:cdef:123:4567:89ab:cdef/128',
    ],
    ['IPv6 with false', '2001:DB8:0:0:1:0:0:1', false, '2001:db8::1:0:0:1'],
    ['an abbreviated IPv6 address', '123:ABC::89', undefined, '123:abc::/56'],
    ['loopback', '::1', undefined, '::/56'],
    [
      'IPv6 with a dotted tail (not mapped)',
      '2001:db8:1234:5678::1.2.3.4',
      undefined,
      '2001:db8:1234:5600::/56',
    ],
    // express-rate-limit keys the deprecated IPv4-compatible `::1.2.3.4` as 1.2.3.4; it is not
    // IPv4-mapped, so the shared client-IP rule treats it as the IPv6 address it is.
    ['IPv4-compatible (deprecated, not mapped)', '::1.2.3.4', undefined, '::/56'],
    ['NAT64 (not mapped)', '64:ff9b::1.2.3.4', undefined, '64:ff9b::/56'],
  ])('keys %s', async (_label, ip, subnet, key) => {
    expect(await keyOf(ip, subnet)).toBe(key)
  })

  it('keys one /56 alike however the address is written or which /64 it is in', async () => {
    const keys = await Promise.all(
      [
        '2001:db8:0:100::1',
        '2001:db8:0:1ff:ffff:ffff:ffff:ffff',
        '2001:0DB8:0000:0142:0:0:0:9',
      ].map((ip) => keyOf(ip)),
    )
    expect(new Set(keys)).toEqual(new Set(['2001:db8:0:100::/56']))
    expect(await keyOf('2001:db8:0:200::1')).toBe('2001:db8:0:200::/56')
  })

  it('keys each request afresh when the same address comes with another subnet, or another address follows', async () => {
    // clientIpKey remembers the last address it keyed: a repeat must not leak into the next call.
    const v6 = '0123:4567:89ab:cdef:0123:4567:89ab:cdef'
    const sequence: [string, number | false | undefined, string][] = [
      [v6, undefined, '123:4567:89ab:cd00::/56'],
      [v6, undefined, '123:4567:89ab:cd00::/56'],
      [v6, 63, '123:4567:89ab:cdee::/63'],
      [v6, false, '123:4567:89ab:cdef:123:4567:89ab:cdef'],
      ['1.2.3.4', false, '1.2.3.4'],
      ['1.2.3.4', 48, '1.2.3.4'],
      ['1.2.3.5', 48, '1.2.3.5'],
      ['not an address', undefined, 'unknown'],
      [v6, 48, '123:4567:89ab::/48'],
    ]
    for (const [ip, subnet, key] of sequence) expect(await keyOf(ip, subnet)).toBe(key)
  })

  it('keys each forwarded request by its own right-most X-Forwarded-For entry, remembered or not', async () => {
    // No connection address (a runtime without sockets): the nearest proxy's entry is the key,
    // and a spoofed left-most entry or an encoded address never becomes one.
    const app = new Hono()
    app.get('/', (c) => c.text(clientIpKey(c)))
    const keyFor = async (xff: string) =>
      (await app.request('/', { headers: { 'x-forwarded-for': xff } })).text()
    const sequence: [string, string][] = [
      ['203.0.113.7', '203.0.113.7'],
      ['203.0.113.7', '203.0.113.7'],
      ['10.0.0.1, 203.0.113.8', '203.0.113.8'],
      ['203.0.113.8, 10.0.0.1', '10.0.0.1'],
      ['%32%30%33.0.113.7', 'unknown'],
      ['203.0.113.7,', 'unknown'],
      ['::ffff:203.0.113.7', '203.0.113.7'],
      ['203.0.113.7', '203.0.113.7'],
    ]
    for (const [xff, key] of sequence) expect(await keyFor(xff)).toBe(key)
  })

  it('never lets a dotted-tail IPv6 address share the bucket of the IPv4 address it ends in', async () => {
    expect(await keyOf('2001:db8::1.2.3.4')).not.toBe(await keyOf('1.2.3.4'))
  })
})

describe('rateLimit: ipv6Subnet', () => {
  const appWith = (ipv6Subnet?: number | false) => {
    const app = limitedApp({ max: 1, ...(ipv6Subnet === undefined ? {} : { ipv6Subnet }) })
    return async (ip: string) => (await hitFrom(app, ip)).status
  }

  it('limits a whole /56 together by default: 256 /64s give no extra requests', async () => {
    const hit = appWith()
    expect(await hit('2001:db8:0:100::1')).toBe(200)
    for (let i = 1; i < 256; i += 17)
      expect(await hit(`2001:db8:0:1${i.toString(16).padStart(2, '0')}::1`)).toBe(429)
    expect(await hit('2001:db8:0:200::1')).toBe(200)
  })

  it('limits a /48 together with ipv6Subnet: 48', async () => {
    const hit = appWith(48)
    expect(await hit('2001:db8:7::1')).toBe(200)
    expect(await hit('2001:db8:7:ff00::1')).toBe(429)
    expect(await hit('2001:db8:8::1')).toBe(200)
  })

  it('limits each address alone with ipv6Subnet: false', async () => {
    const hit = appWith(false)
    expect(await hit('2001:db8::1')).toBe(200)
    expect(await hit('2001:db8::2')).toBe(200)
    expect(await hit('2001:DB8::1')).toBe(429)
  })

  it('does not touch IPv4 keys', async () => {
    const hit = appWith(32)
    expect(await hit('10.0.0.1')).toBe(200)
    expect(await hit('10.0.0.2')).toBe(200)
  })

  it.each([31, 129, 0, 56.5, true, '56', null])(
    'rejects ipv6Subnet %s at construction',
    (ipv6Subnet) => {
      expect(() => rateLimit({ ipv6Subnet: ipv6Subnet as never })).toThrow(
        /^rateLimit: "ipv6Subnet" must be an integer from 32 to 128 or false/,
      )
    },
  )

  it('accepts 32 and 128, and rejects ipv6Subnet together with a keyGenerator', () => {
    expect(() => rateLimit({ ipv6Subnet: 32 })).not.toThrow()
    expect(() => rateLimit({ ipv6Subnet: 128 })).not.toThrow()
    expect(() => rateLimit({ ipv6Subnet: 48, keyGenerator: () => 'k' })).toThrow(
      /call clientIpKey\(c, subnet\)/,
    )
  })
})
