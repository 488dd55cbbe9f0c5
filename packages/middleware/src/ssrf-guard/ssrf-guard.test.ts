import { Hono } from 'hono'
import { describe, expect, it, vi } from 'vitest'
import { gzippedPost } from '../../test/compressed'
import { checkUrl, type SsrfGuardOptions, type SsrfResolver, ssrfGuard } from './index'

// Every hostname test injects a resolver, so nothing here touches the network.
const noDns: SsrfResolver = async (hostname) => {
  throw new Error(`unexpected DNS lookup of ${hostname}`)
}

// IP literals and reserved names: each must be refused with 403 by the default policy.
const BLOCKED_403 = [
  // IPv4 loopback in every spelling the WHATWG parser accepts.
  'http://127.0.0.1/',
  'http://127.0.0.1:8080/admin',
  'https://127.0.0.1:443/',
  'http://127.1/',
  'http://127.0.1/',
  'http://2130706433/',
  'http://0x7f000001/',
  'http://0x7f.0.0.1/',
  'http://0x7f.1/',
  'http://0X7F.0X0.0X0.0X1/',
  'http://017700000001/',
  'http://0177.0.0.1/',
  'http://0177.0.0.01/',
  'http://127.000.000.001/',
  'http://127.0.0.1./',
  'http://１２７.０.０.１/',
  'http://127.0.0.%31/',
  'http://%31%32%37.0.0.1/',
  'http://①②⑦.0.0.1/',
  'http://127.255.255.254/',
  'http://user:pass@127.0.0.1/',
  'http://evil.example@127.0.0.1/',
  'http:/\\127.0.0.1/',
  'http:127.0.0.1/',
  'HTTP://127.0.0.1/',
  ' http://127.0.0.1/ ',
  'http://127.0.0.1\t/',
  // "This network".
  'http://0.0.0.0/',
  'http://0/',
  'http://0.0.0.0:22/',
  'http://0x00000000/',
  // RFC 1918 and CGNAT.
  'http://10.0.0.1/',
  'http://10.255.255.255/',
  'http://012.0.0.1/',
  'http://0xa.0.0.1/',
  'http://167772161/',
  'http://172.16.0.1/',
  'http://172.31.255.255/',
  'http://0xac.0x10.0.1/',
  'http://192.168.0.1/',
  'http://192.168.1.1:8443/',
  'http://3232235777/',
  'http://0xc0a80101/',
  'http://100.64.0.1/',
  'http://100.127.255.255/',
  // Link-local and cloud metadata.
  'http://169.254.169.254/latest/meta-data/',
  'http://169.254.0.1/',
  'http://2852039166/',
  'http://0xa9fea9fe/',
  'http://0251.0376.0251.0376/',
  'http://169.254.169.254./',
  'http://100.100.100.200/latest/meta-data/',
  'http://192.0.0.192/',
  'http://168.63.129.16/machine?comp=goalstate', // Azure WireServer
  'http://[::ffff:168.63.129.16]/',
  // IANA special-purpose blocks that are not globally reachable.
  'http://192.0.0.8/',
  'http://192.0.0.170/',
  'http://192.0.2.1/', // TEST-NET-1
  'http://198.51.100.7/', // TEST-NET-2
  'http://203.0.113.255/', // TEST-NET-3
  'http://192.88.99.1/', // deprecated 6to4 relay
  'http://198.18.0.1/', // benchmarking
  'http://198.19.255.255/',
  'http://[64:ff9b::c612:1]/', // NAT64 of 198.18.0.1
  // Multicast, reserved, broadcast.
  'http://224.0.0.1/',
  'http://239.255.255.250/',
  'http://240.0.0.1/',
  'http://255.255.255.255/',
  'http://4294967295/',
  // IPv6 loopback, unspecified, private, link-local, multicast, metadata.
  'http://[::1]/',
  'http://[0:0:0:0:0:0:0:1]/',
  'http://[0000::0001]:80/',
  'http://[::]/',
  'http://[fc00::1]/',
  'http://[fd12:3456:789a::1]/',
  'http://[fe80::1]/',
  'http://[febf::1]/',
  'http://[fec0::1]/',
  'http://[ff02::1]/',
  'http://[ff05::1:3]/',
  'http://[fd00:ec2::254]/',
  'http://[100::1]/', // discard-only
  'http://[100::ffff:ffff:ffff:ffff]/',
  'http://[100:0:0:1::1]/', // dummy prefix
  'http://[2001:2::1]/', // benchmarking
  'http://[2001:10::1]/', // ORCHID
  'http://[2001:20::1]/', // ORCHIDv2
  'http://[2001:3f::1]/', // DRIP
  'http://[2001:db8::1]/', // documentation
  'http://[2001:db8:ffff::1]/',
  'http://[3fff::1]/', // documentation (RFC 9637)
  'http://[3fff:fff::1]/',
  'http://[5f00::1]/', // SRv6 SIDs
  // IPv4 embedded in IPv6: mapped, compatible, SIIT, NAT64, 6to4, Teredo.
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[0:0:0:0:0:ffff:7f00:1]/',
  'http://[::ffff:169.254.169.254]/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://[::ffff:10.0.0.1]/',
  'http://[::ffff:192.168.0.1]/',
  'http://[::ffff:0.0.0.0]/',
  'http://[::127.0.0.1]/',
  'http://[::8.8.8.8]/',
  'http://[::ffff:0:7f00:1]/',
  'http://[64:ff9b::127.0.0.1]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://[64:ff9b::10.0.0.1]/',
  'http://[64:ff9b:1::808:808]/',
  'http://[2002:7f00:1::]/',
  'http://[2002:a9fe:a9fe::1]/',
  'http://[2002:c0a8:101::]/',
  'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
  'http://[2001:0:a9fe:a9fe::1]/',
  // Reserved names, with case, trailing dots, IDNA folding and escapes.
  'http://localhost/',
  'http://LOCALHOST/',
  'http://localhost./',
  'http://localhost../',
  'http://localhost:3000/',
  'http://api.localhost/',
  'http://a.b.localhost./',
  'http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/',
  'http://localhost%2e/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://METADATA.GOOGLE.INTERNAL./',
  'http://metadata/',
  'http://metadata.goog/',
  'http://instance-data/latest/',
  'http://instance-data./',
  'http://instance-data.ec2.internal/',
]

// Unparseable URLs and other schemes: 400.
const BLOCKED_400 = [
  'file:///etc/passwd',
  'gopher://127.0.0.1:6379/_FLUSHALL',
  'dict://127.0.0.1:11211/stats',
  'ftp://ftp.example.com/',
  'ws://example.com/',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'blob:https://example.com/uuid',
  'ldap://127.0.0.1/',
  'jar:http://example.com!/',
  '//127.0.0.1/',
  '/admin',
  '',
  'not a url',
  'http://',
  'http://[::1',
  'http://1.2.3.4.5/',
  'http://4294967296/',
  'http://0x100000000/',
  'http://127.0.0.1%00/',
  'http://[fe80::1%25eth0]/',
  'http://[::1]./',
]

const ALLOWED = [
  'http://93.184.215.14/',
  'https://8.8.8.8/',
  'http://1.1.1.1:8080/x?y=z',
  'http://1.0.0.1./',
  'http://0x08080808/',
  'http://134744072/',
  'http://[2606:4700:4700::1111]/',
  'http://[2001:4860:4860::8888]/',
  'https://[2a00:1450::1]:8443/path?q=1',
  'http://[::ffff:8.8.8.8]/',
  'http://[64:ff9b::8.8.8.8]/',
  'http://[2002:808:808::1]/',
  'http://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/', // Teredo client 8.8.8.8
  // Just outside each blocked range.
  'http://9.255.255.255/',
  'http://11.0.0.1/',
  'http://126.255.255.255/',
  'http://128.0.0.1/',
  'http://172.15.255.255/',
  'http://172.32.0.1/',
  'http://192.167.255.255/',
  'http://192.169.0.1/',
  'http://100.63.255.255/',
  'http://100.128.0.1/',
  'http://169.253.255.255/',
  'http://169.255.0.1/',
  'http://223.255.255.255/',
  'http://[fbff::1]/',
  'http://[fe7f::1]/',
  'http://192.0.1.255/',
  'http://192.0.3.0/',
  'http://192.88.98.255/',
  'http://198.17.255.255/',
  'http://198.20.0.0/',
  'http://198.51.99.255/',
  'http://198.51.101.0/',
  'http://203.0.112.255/',
  'http://203.0.114.0/',
  'http://168.63.129.15/',
  'http://168.63.129.17/',
  'http://[100:0:0:2::1]/',
  'http://[2001:db7:ffff::1]/',
  'http://[2001:db9::1]/',
  'http://[3fff:1000::1]/',
  'http://[2001:4::1]/',
  'http://[2001:40::1]/',
]

describe('checkUrl policy tables', () => {
  it('has at least 80 blocked and 20 allowed cases', () => {
    expect(BLOCKED_403.length + BLOCKED_400.length).toBeGreaterThanOrEqual(80)
    expect(ALLOWED.length).toBeGreaterThanOrEqual(20)
  })

  it.each(BLOCKED_403)('blocks %j with 403', async (url) => {
    const verdict = await checkUrl(url, { resolve: noDns })
    expect(verdict).toMatchObject({ ok: false, status: 403 })
  })

  it.each(BLOCKED_400)('rejects %j as an invalid URL (400)', async (url) => {
    const verdict = await checkUrl(url, { resolve: noDns })
    expect(verdict).toMatchObject({ ok: false, status: 400 })
  })

  it.each(ALLOWED)('allows %j', async (url) => {
    const verdict = await checkUrl(url, { resolve: noDns })
    expect(verdict.ok).toBe(true)
  })
})

describe('checkUrl details', () => {
  it('returns the normalised URL and the checked address', async () => {
    const verdict = await checkUrl('http://0x08080808/a b')
    expect(verdict).toEqual({
      ok: true,
      url: new URL('http://8.8.8.8/a%20b'),
      addresses: ['8.8.8.8'],
    })
    const v6 = await checkUrl('http://[2001:4860:4860:0:0:0:0:8888]/')
    expect(v6.ok && v6.addresses).toEqual(['2001:4860:4860::8888'])
  })

  it('names the reason', async () => {
    expect(await checkUrl('nope')).toEqual({ ok: false, status: 400, reason: 'invalid-url' })
    expect(await checkUrl('file:///x')).toEqual({
      ok: false,
      status: 400,
      reason: 'unsupported-protocol',
    })
    expect(await checkUrl('http://10.0.0.1/')).toEqual({
      ok: false,
      status: 403,
      reason: 'blocked-address',
    })
    expect(await checkUrl('http://localhost/')).toEqual({
      ok: false,
      status: 403,
      reason: 'blocked-hostname',
    })
  })

  it('accepts a URL object', async () => {
    expect((await checkUrl(new URL('http://127.0.0.1/'))).ok).toBe(false)
    expect((await checkUrl(new URL('http://8.8.8.8/'))).ok).toBe(true)
  })

  it('validates its options', () => {
    expect(() => checkUrl('http://8.8.8.8/', { blockList: ['10.0.0.0/33'] })).toThrow(
      /^checkUrl: invalid IP or CIDR "10\.0\.0\.0\/33" in "blockList"/,
    )
    expect(() =>
      checkUrl('http://8.8.8.8/', { allowPrivate: 'yes' as unknown as boolean }),
    ).toThrow(/^checkUrl: "allowPrivate"/)
    expect(() => checkUrl('http://8.8.8.8/', { blocklist: [] } as never)).toThrow(
      /^checkUrl: unknown option "blocklist"/,
    )
  })
})

describe('checkUrl with DNS', () => {
  const resolverFor =
    (answers: Record<string, string[]>): SsrfResolver =>
    async (hostname) => {
      const found = answers[hostname]
      if (!found) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' })
      return found
    }
  const resolve = resolverFor({
    'public.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    'internal.example': ['10.0.0.5'],
    'mixed.example': ['93.184.215.14', '127.0.0.1'],
    'mapped.example': ['::ffff:169.254.169.254'],
    'nat64.example': ['64:ff9b::a9fe:a9fe'],
    'ula.example': ['fd00::1'],
    'imds6.example': ['fd00:ec2::254'],
    'empty.example': [],
    'garbage.example': ['not-an-ip'],
    'dotted.example.': ['8.8.8.8'],
  })

  it('allows a hostname whose every address is public and reports them', async () => {
    const verdict = await checkUrl('https://public.example/x', { resolve })
    expect(verdict).toMatchObject({
      ok: true,
      addresses: ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    })
  })

  it.each([
    ['internal.example', 'blocked-address'],
    ['mixed.example', 'blocked-address'],
    ['mapped.example', 'blocked-address'],
    ['nat64.example', 'blocked-address'],
    ['ula.example', 'blocked-address'],
    ['garbage.example', 'blocked-address'],
    ['missing.example', 'dns-failure'],
    ['empty.example', 'dns-failure'],
  ])('blocks %s (%s)', async (host, reason) => {
    expect(await checkUrl(`http://${host}/`, { resolve })).toEqual({
      ok: false,
      status: 403,
      reason,
    })
  })

  it('resolves the hostname exactly as written, trailing dot included', async () => {
    expect((await checkUrl('http://dotted.example./', { resolve })).ok).toBe(true)
  })

  it('never resolves IP literals or reserved names', async () => {
    const spy = vi.fn(noDns)
    await checkUrl('http://8.8.8.8/', { resolve: spy })
    await checkUrl('http://[::1]/', { resolve: spy })
    await checkUrl('http://localhost/', { resolve: spy })
    await checkUrl('http://metadata.google.internal/', { resolve: spy })
    expect(spy).not.toHaveBeenCalled()
  })

  it.each([
    ['resolveTimeout', 250, { resolveTimeout: 250 }],
    ['the default of 3000 ms', 3000, {}],
  ])(
    'blocks a resolver that never answers after %s, with reason dns-timeout',
    async (_, ms, opts) => {
      vi.useFakeTimers()
      try {
        const never: SsrfResolver = () => new Promise(() => {})
        const pending = checkUrl('http://hang.example/', { resolve: never, ...opts })
        let settled = false
        pending.then(() => {
          settled = true
        })
        await vi.advanceTimersByTimeAsync(ms - 1)
        expect(settled).toBe(false)
        await vi.advanceTimersByTimeAsync(1)
        expect(await pending).toEqual({ ok: false, status: 403, reason: 'dns-timeout' })
        expect(vi.getTimerCount()).toBe(0)
      } finally {
        vi.useRealTimers()
      }
    },
  )

  it('clears its timer when the resolver answers in time', async () => {
    vi.useFakeTimers()
    try {
      const verdict = await checkUrl('http://public.example/', { resolve })
      expect(verdict.ok).toBe(true)
      expect(vi.getTimerCount()).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })

  it('ignores a late rejection of a resolver that already timed out', async () => {
    const unhandled = vi.fn()
    process.on('unhandledRejection', unhandled)
    try {
      const late: SsrfResolver = () =>
        new Promise((_, fail) => setTimeout(() => fail(new Error('late')), 30))
      const verdict = await checkUrl('http://late.example/', { resolve: late, resolveTimeout: 5 })
      expect(verdict).toMatchObject({ reason: 'dns-timeout' })
      await new Promise((r) => setTimeout(r, 60))
      expect(unhandled).not.toHaveBeenCalled()
    } finally {
      process.off('unhandledRejection', unhandled)
    }
  })

  it('blocks when the resolver throws synchronously', async () => {
    const throwing = (() => {
      throw new Error('sync')
    }) as unknown as SsrfResolver
    expect(await checkUrl('http://public.example/', { resolve: throwing })).toMatchObject({
      status: 403,
      reason: 'dns-failure',
    })
  })

  it('blocks when the resolver rejects, e.g. on a timeout (fail closed)', async () => {
    const slow: SsrfResolver = () => Promise.reject(new Error('ETIMEOUT'))
    expect(await checkUrl('http://public.example/', { resolve: slow })).toMatchObject({
      status: 403,
    })
  })
})

describe('checkUrl allowPrivate', () => {
  const opts = {
    allowPrivate: true,
    resolve: async (h: string) => (h === 'ula.example' ? ['fd00::1'] : ['fd00:ec2::254']),
  }

  it.each([
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://[fd12::1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://[64:ff9b::c0a8:101]/',
    'http://198.18.0.1/',
    'http://198.19.255.255/',
    'http://ula.example/',
  ])('opens the private destination %s', async (url) => {
    expect((await checkUrl(url, opts)).ok).toBe(true)
  })

  it.each([
    'http://127.0.0.1/',
    'http://0.0.0.0/',
    'http://169.254.169.254/',
    'http://100.100.100.200/',
    'http://192.0.0.192/',
    'http://168.63.129.16/',
    'http://192.0.2.1/',
    'http://224.0.0.1/',
    'http://[::1]/',
    'http://[::]/',
    'http://[fe80::1]/',
    'http://[fd00:ec2::254]/',
    'http://[100::1]/',
    'http://[2001:db8::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[2002:a9fe:a9fe::]/',
    'http://localhost/',
    'http://metadata.google.internal/',
    'http://imds.example/',
  ])('keeps loopback, link-local and metadata blocked: %s', async (url) => {
    expect(await checkUrl(url, opts)).toMatchObject({ ok: false, status: 403 })
  })
})

describe('checkUrl blockList', () => {
  const opts = {
    blockList: ['93.184.215.0/24', '2606:4700::/32', '8.8.8.8'],
    resolve: async () => ['8.8.8.8'],
  }

  it.each([
    'http://93.184.215.14/',
    'http://[::ffff:93.184.215.14]/',
    'http://[64:ff9b::5db8:d70e]/',
    'http://[2606:4700:4700::1111]/',
    'http://dns.example/',
  ])('blocks %s', async (url) => {
    expect(await checkUrl(url, opts)).toMatchObject({ ok: false, status: 403 })
  })

  it('still blocks the defaults and allows the rest', async () => {
    expect((await checkUrl('http://127.0.0.1/', opts)).ok).toBe(false)
    expect((await checkUrl('http://1.1.1.1/', opts)).ok).toBe(true)
  })

  it('applies even with allowPrivate', async () => {
    expect(
      (await checkUrl('http://10.1.1.1/', { allowPrivate: true, blockList: ['10.1.0.0/16'] })).ok,
    ).toBe(false)
    expect(
      (await checkUrl('http://10.2.1.1/', { allowPrivate: true, blockList: ['10.1.0.0/16'] })).ok,
    ).toBe(true)
  })
})

function appWith(options?: SsrfGuardOptions) {
  const app = new Hono()
  app.post('/fetch', ssrfGuard({ resolve: noDns, ...options }), async (c) => {
    const body = await c.req.text()
    return c.text(`handler saw ${body}`)
  })
  return app
}

const post = (app: Hono, body: string, contentType: string | null = 'application/json') =>
  app.request('/fetch', {
    method: 'POST',
    body,
    headers: contentType ? { 'content-type': contentType } : {},
  })

describe('ssrfGuard middleware', () => {
  it('says when the refusal is a failed or slow DNS lookup, not a blocked address', async () => {
    const failing: SsrfResolver = async () => {
      throw new Error('ENOTFOUND')
    }
    const failed = await post(
      appWith({ resolve: failing }),
      JSON.stringify({ url: 'https://nxdomain.example/' }),
    )
    expect(failed.status).toBe(403)
    expect(await failed.text()).toBe('Forbidden URL: DNS lookup of the hostname failed')
    const slow: SsrfResolver = () => new Promise(() => {})
    const timedOut = await post(
      appWith({ resolve: slow, resolveTimeout: 20 }),
      JSON.stringify({ url: 'https://slow.example/' }),
    )
    expect(await timedOut.text()).toBe('Forbidden URL: DNS lookup of the hostname timed out')
    // A message of one's own is sent as is, whatever the reason.
    const own = await post(
      appWith({ resolve: failing, message: 'Nope' }),
      JSON.stringify({ url: 'https://nxdomain.example/' }),
    )
    expect(await own.text()).toBe('Nope')
  })

  it('refuses a compressed body with 415 and Accept-Encoding: identity (its url would pass unseen to a handler that decodes it)', async () => {
    const gzipped = await gzippedPost(
      JSON.stringify({ url: 'http://169.254.169.254/latest/meta-data/' }),
    )
    const handler = vi.fn((c) => c.text('fetched'))
    const app = new Hono()
    app.post('/', ssrfGuard({ resolve: noDns }), handler)
    const res = await app.request('/', gzipped)
    expect(res.status).toBe(415)
    expect(res.headers.get('accept-encoding')).toBe('identity')
    expect(await res.text()).toBe('Unsupported Media Type: send the body without a content coding')
    expect(handler).not.toHaveBeenCalled()
    // However the header spells a coding (case, spaces, `identity` before it, a repeated
    // header joined by the platform), it is refused; `identity` alone is no coding, and the
    // url is checked as usual.
    for (const coding of ['GZIP', ' gzip ', 'identity, gzip', 'gzip, identity', 'x-unknown']) {
      const spelled = await app.request('/', {
        ...gzipped,
        headers: { 'content-type': 'application/json', 'content-encoding': coding },
      })
      expect([coding, spelled.status]).toEqual([coding, 415])
    }
    const repeated = new Headers({ 'content-type': 'application/json' })
    repeated.append('content-encoding', 'identity')
    repeated.append('content-encoding', 'gzip')
    expect((await app.request('/', { ...gzipped, headers: repeated })).status).toBe(415)
    const plain = await app.request('/', {
      method: 'POST',
      body: JSON.stringify({ url: 'http://169.254.169.254/latest/meta-data/' }),
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
    })
    expect(plain.status).toBe(403)
    expect(handler).not.toHaveBeenCalled()
    // An extractUrl of one's own reads what it reads: the body's coding is its business.
    const custom = new Hono()
    custom.post('/', ssrfGuard({ resolve: noDns, extractUrl: () => null }), handler)
    const passed = await custom.request('/', gzipped)
    expect(passed.status).toBe(200)
  })

  it('rejects a blocked url field with 403 text/plain "Forbidden URL"', async () => {
    const res = await post(appWith(), JSON.stringify({ url: 'http://169.254.169.254/' }))
    expect(res.status).toBe(403)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await res.text()).toBe('Forbidden URL')
  })

  it('uses message for 403 but keeps "Invalid URL" for 400', async () => {
    const app = appWith({ message: 'Nope' })
    expect(await (await post(app, '{"url":"http://10.0.0.1"}')).text()).toBe('Nope')
    const bad = await post(app, '{"url":"gopher://x"}')
    expect(bad.status).toBe(400)
    expect(await bad.text()).toBe('Invalid URL')
  })

  it('lets a public url through and leaves the body readable for the handler', async () => {
    const body = JSON.stringify({ url: 'https://8.8.8.8/hook', other: 1 })
    const res = await post(appWith(), body)
    expect(res.status).toBe(200)
    expect(await res.text()).toBe(`handler saw ${body}`)
  })

  it('leaves c.req.raw readable too', async () => {
    const app = new Hono()
    app.post('/', ssrfGuard(), async (c) => c.json(await c.req.raw.json()))
    const res = await app.request('/', {
      method: 'POST',
      body: '{"url":"http://8.8.8.8/"}',
      headers: { 'content-type': 'application/json' },
    })
    expect(await res.json()).toEqual({ url: 'http://8.8.8.8/' })
  })

  it.each([
    ['a body without url', '{"name":"x"}', 'application/json'],
    ['a null url', '{"url":null}', 'application/json'],
    ['malformed JSON', '{"url":"http://127.0.0.1/"', 'application/json'],
    ['a JSON array', '[{"url":"http://127.0.0.1/"}]', 'application/json'],
    ['plain text', 'http://127.0.0.1/', 'text/plain'],
    ['an inherited url only', '{"__proto__":{"url":"http://127.0.0.1/"}}', 'application/json'],
  ])('passes %s untouched', async (_label, body, type) => {
    expect((await post(appWith(), body, type)).status).toBe(200)
  })

  it('passes a request without a body', async () => {
    const app = new Hono()
    app.get('/', ssrfGuard(), (c) => c.text('ok'))
    expect((await app.request('/')).status).toBe(200)
  })

  it.each([
    ['a number', '{"url":2130706433}'],
    ['an array (fetch would coerce it to a string)', '{"url":["http://127.0.0.1/"]}'],
    ['an object', '{"url":{"href":"http://127.0.0.1/"}}'],
  ])('rejects a url field that is %s with 400', async (_label, body) => {
    expect((await post(appWith(), body)).status).toBe(400)
  })

  it.each([
    ['text/plain', 'text/plain'],
    ['no Content-Type', null],
    ['application/merge-patch+json', 'application/merge-patch+json'],
    ['application/json; charset=utf-8', 'application/json; charset=utf-8'],
  ])('reads a JSON body sent as %s (c.req.json() would parse it too)', async (_label, type) => {
    expect((await post(appWith(), '{"url":"http://127.0.0.1/"}', type)).status).toBe(403)
  })

  it('checks every url field of a urlencoded or multipart form', async () => {
    const app = appWith()
    const form = 'url=https%3A%2F%2F8.8.8.8%2F&url=http%3A%2F%2F127.0.0.1%2F'
    expect((await post(app, form, 'application/x-www-form-urlencoded')).status).toBe(403)
    expect(
      (await post(app, 'url=https%3A%2F%2F8.8.8.8%2F', 'application/x-www-form-urlencoded')).status,
    ).toBe(200)
    const multipart = new FormData()
    multipart.append('url', 'http://[::1]/')
    const res = await app.request('/fetch', { method: 'POST', body: multipart })
    expect(res.status).toBe(403)
  })

  // c.req.json() ignores the Content-Type, so a JSON body labelled as a form is still a JSON body
  // to the handler: the guard must not look only for form fields there.
  it.each([
    ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
    ['multipart/form-data with a boundary', 'multipart/form-data; boundary=x'],
  ])('checks a JSON body sent with a form Content-Type (%s)', async (_label, type) => {
    const app = new Hono()
    app.post('/fetch', ssrfGuard(), async (c) => c.text((await c.req.json()).url))
    const res = await post(app, '{"url":"http://169.254.169.254/latest/meta-data/"}', type)
    expect(res.status).toBe(403)
  })

  it('uses extractUrl, and a null result passes', async () => {
    const app = new Hono()
    app.get('/proxy', ssrfGuard({ extractUrl: (c) => c.req.query('target') ?? null }), (c) =>
      c.text('ok'),
    )
    expect((await app.request('/proxy?target=http://127.0.0.1/')).status).toBe(403)
    expect((await app.request('/proxy?target=ftp://x/')).status).toBe(400)
    expect((await app.request('/proxy?target=https://8.8.8.8/')).status).toBe(200)
    expect((await app.request('/proxy')).status).toBe(200)
  })

  it('blocks a hostname that resolves to a private address and one whose lookup fails', async () => {
    const resolve: SsrfResolver = async (h) => {
      if (h === 'rebind.example') return ['10.1.2.3']
      if (h === 'ok.example') return ['8.8.4.4']
      throw new Error('SERVFAIL')
    }
    const app = appWith({ resolve })
    expect((await post(app, '{"url":"http://rebind.example/"}')).status).toBe(403)
    expect((await post(app, '{"url":"http://nxdomain.example/"}')).status).toBe(403)
    expect((await post(app, '{"url":"http://ok.example/"}')).status).toBe(200)
  })

  it('answers 403 instead of hanging when the resolver never answers', async () => {
    const handler = vi.fn((c) => c.text('ok'))
    const app = new Hono()
    // The resolver is asked, then never answers; `asked` is the barrier the clock waits for.
    let markAsked = () => {}
    const asked = new Promise<void>((resolve) => {
      markAsked = resolve
    })
    const never: SsrfResolver = () => {
      markAsked()
      return new Promise(() => {})
    }
    app.post('/fetch', ssrfGuard({ resolve: never, resolveTimeout: 20 }), handler)
    // A fake clock instead of a stopwatch: the answer comes when resolveTimeout has passed, and
    // not a millisecond before, however loaded the machine is.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      let answered: Response | undefined
      const pending = Promise.resolve(post(app, '{"url":"http://hang.example/"}')).then((res) => {
        answered = res
        return res
      })
      await asked
      expect(vi.getTimerCount()).toBe(1) // the lookup's deadline, started with the lookup
      await vi.advanceTimersByTimeAsync(19)
      expect(answered).toBeUndefined()
      await vi.advanceTimersByTimeAsync(1)
      const res = await pending
      expect(res.status).toBe(403)
      expect(await res.text()).toBe('Forbidden URL: DNS lookup of the hostname timed out')
      expect(vi.getTimerCount()).toBe(0) // the race's timer is cleared, nothing left behind
    } finally {
      vi.useRealTimers()
    }
    expect(handler).not.toHaveBeenCalled()
  })

  it('does not run the handler when it rejects', async () => {
    const handler = vi.fn((c) => c.text('ok'))
    const app = new Hono()
    app.post('/', ssrfGuard(), handler)
    await app.request('/', { method: 'POST', body: '{"url":"http://localhost/"}' })
    expect(handler).not.toHaveBeenCalled()
  })

  it('validates options at construction', () => {
    expect(() => ssrfGuard({ blockList: ['1.2.3'] })).toThrow(
      /^ssrfGuard: invalid IP or CIDR "1\.2\.3"/,
    )
    expect(() => ssrfGuard({ blockList: 'x' as never })).toThrow(/^ssrfGuard: "blockList"/)
    expect(() => ssrfGuard({ extractUrl: 'url' as never })).toThrow(/^ssrfGuard: "extractUrl"/)
    expect(() => ssrfGuard({ resolve: 1 as never })).toThrow(/^ssrfGuard: "resolve"/)
    expect(() => ssrfGuard({ message: '' })).toThrow(/^ssrfGuard: "message"/)
    expect(() => ssrfGuard({ resolveTimeout: 0 })).toThrow(/^ssrfGuard: "resolveTimeout"/)
    expect(() => ssrfGuard({ resolveTimeout: 2 ** 31 })).toThrow(/^ssrfGuard: "resolveTimeout"/)
    expect(() => ssrfGuard({ resolveTimeout: '5s' as never })).toThrow(/"resolveTimeout"/)
    expect(() => ssrfGuard({ allowprivate: true } as never)).toThrow(/^ssrfGuard: unknown option/)
  })
})
