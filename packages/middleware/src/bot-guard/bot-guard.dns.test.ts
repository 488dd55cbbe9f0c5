// botGuard with the real node:dns resolver (a Resolver pointed at a DNS server on loopback):
// the wire answers and error codes Node gives (NXDOMAIN as ENOTFOUND, no records as ENODATA, a
// server that never answers) lead to the same verdicts as the fake zones of bot-guard.test.ts.
import { Resolver } from 'node:dns/promises'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DnsServer, startDnsServer } from '../../test/dns-server'
import { platformDnsOf } from '../internal/network/platform-dns'
import { type BotResolver, botGuard } from './index'

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'

let server: DnsServer
let resolver: BotResolver

beforeAll(async () => {
  server = await startDnsServer({
    ptr: {
      '1.66.249.66.in-addr.arpa': ['crawl-66-249-66-1.googlebot.com'],
      '5.113.0.203.in-addr.arpa': ['host-5.rented.example.net'],
      '7.100.51.198.in-addr.arpa': ['crawl-66-249-66-1.googlebot.com'],
      '9.100.51.198.in-addr.arpa': ['crawl-198-51-100-9.googlebot.com'],
      '2.2.0.192.in-addr.arpa': [],
      '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.1.0.0.1.0.8.4.0.6.8.4.1.0.0.2.ip6.arpa': [
        'crawl-v6.googlebot.com',
      ],
    },
    a: { 'crawl-66-249-66-1.googlebot.com': ['66.249.66.1'], 'crawl-v6.googlebot.com': [] },
    aaaa: {
      'crawl-66-249-66-1.googlebot.com': [],
      'crawl-v6.googlebot.com': ['2001:4860:4801:10::1'],
    },
    silent: ['8.100.51.198.in-addr.arpa'],
  })
  // No retries and a short timeout: the silent name must not hold the test. The reverse lookup
  // is the platform adapter's own (a PTR query); the forward lookup asks this server for A and
  // AAAA where the platform would use getaddrinfo (which cannot be pointed at a port).
  const dns = new Resolver({ timeout: 200, tries: 1 })
  dns.setServers([server.address])
  resolver = platformDnsOf({
    resolvePtr: (name) => dns.resolvePtr(name),
    async lookup(name) {
      const [v4, v6] = await Promise.allSettled([dns.resolve4(name), dns.resolve6(name)])
      const found = [
        ...(v4.status === 'fulfilled' ? v4.value : []),
        ...(v6.status === 'fulfilled' ? v6.value : []),
      ]
      if (found.length === 0 && v4.status === 'rejected') throw v4.reason
      return found.map((address) => ({ address }))
    },
  })
})

afterAll(() => server.close())

function appWith() {
  const app = new Hono()
  app.use('*', botGuard({ resolver, dnsTimeout: 1000 }))
  app.get('/', (c) => c.json(c.get('bot')))
  return app
}
const from = (app: Hono, ip: string) =>
  app.request(
    '/',
    { headers: { 'user-agent': GOOGLEBOT } },
    {
      incoming: { socket: { remoteAddress: ip } },
    },
  )

describe('botGuard over real node:dns (loopback DNS server)', () => {
  it('verifies a Googlebot whose PTR name resolves back to it', async () => {
    const res = await from(appWith(), '66.249.66.1')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      category: 'search-engine',
      name: 'Googlebot',
      verified: true,
    })
    expect(server.asked).toContain('PTR 1.66.249.66.in-addr.arpa')
    expect(server.asked).toContain('A crawl-66-249-66-1.googlebot.com')
  })

  it('verifies an IPv6 Googlebot (AAAA answer)', async () => {
    const res = await from(appWith(), '2001:4860:4801:10::1')
    expect(await res.json()).toMatchObject({ verified: true })
  })

  it.each([
    ['a PTR name outside Google’s domains', '203.0.113.5'],
    ['a Google PTR name that resolves to another address', '198.51.100.7'],
    ['a Google PTR name that does not exist (NXDOMAIN → ENOTFOUND)', '198.51.100.9'],
    ['an address without a PTR record (NXDOMAIN → ENOTFOUND)', '192.0.2.1'],
    ['an address whose name has no PTR record (NOERROR, no answer → ENODATA)', '192.0.2.2'],
  ])('denies %s as spoofed', async (_label, ip) => {
    expect((await from(appWith(), ip)).status).toBe(403)
  })

  it('leaves a claim unverified when the server never answers (fails closed, not verified)', async () => {
    const app = new Hono()
    const seen: unknown[] = []
    app.use('*', botGuard({ resolver, dnsTimeout: 1000 }))
    app.get('/', (c) => {
      seen.push(c.get('bot'))
      return c.text('ok')
    })
    const res = await from(app, '198.51.100.8')
    expect(res.status).toBe(200)
    expect(seen).toEqual([{ category: 'search-engine', name: 'Googlebot', verified: false }])
  })
})
