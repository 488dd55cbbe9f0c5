import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseIP } from './ip'
import { arpaName, loadPlatformDns } from './platform-dns'

describe('arpaName', () => {
  it.each([
    ['66.249.66.1', '1.66.249.66.in-addr.arpa'],
    ['::ffff:203.0.113.5', '5.113.0.203.in-addr.arpa'],
    [
      '2001:db8::567:89ab',
      'b.a.9.8.7.6.5.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa',
    ],
  ])('%s → %s', (ip, name) => {
    expect(arpaName(parseIP(ip) as NonNullable<ReturnType<typeof parseIP>>)).toBe(name)
  })

  it('is the reversed labels of every IPv4 address', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        const name = arpaName(parseIP(ip) as NonNullable<ReturnType<typeof parseIP>>)
        expect(name).toBe(`${ip.split('.').reverse().join('.')}.in-addr.arpa`)
      }),
    )
  })
})

describe('loadPlatformDns', () => {
  it('loads node:dns once and refuses a reverse lookup of a non-address', async () => {
    const dns = await loadPlatformDns()
    expect(dns).not.toBeNull()
    expect(await loadPlatformDns()).toBe(dns)
    await expect(dns?.reverse('not-an-ip')).rejects.toThrow(TypeError)
  })
})
