import fc from 'fast-check'
import { Hono } from 'hono'
import { describe, expect, it, vi } from 'vitest'
import { clientIp } from '../client-ip'
import { type Decision, installDecisions } from '../internal/outcomes/decisions'
import { type BotGuardOptions, type BotInfo, type BotResolver, botGuard } from './index'

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const GPTBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)'
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
const GOOGLE_IP = '66.249.66.1'
const GOOGLE_NAME = 'crawl-66-249-66-1.googlebot.com'
const RENTED = '203.0.113.5'

/** A DNS zone in a map, with a log of what was asked. */
function zone(ptr: Record<string, string[]>, a: Record<string, string[]>) {
  const asked: string[] = []
  const resolver: BotResolver = {
    async reverse(ip) {
      asked.push(`PTR ${ip}`)
      const names = ptr[ip]
      if (names) return names
      throw Object.assign(new Error(`queryPtr ENOTFOUND ${ip}`), { code: 'ENOTFOUND' })
    },
    async lookup(name) {
      asked.push(`A ${name}`)
      const addresses = a[name]
      if (addresses) return addresses
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' })
    },
  }
  return { resolver, asked }
}

const google = () =>
  zone(
    {
      [GOOGLE_IP]: [GOOGLE_NAME],
      [RENTED]: ['host-5.rented.example.net'],
      '198.51.100.7': ['crawl-66-249-66-1.googlebot.com'],
      '198.51.100.8': ['crawl.googlebot.com.rented.example.net'],
      '198.51.100.9': ['evilgooglebot.com'],
      '2001:4860:4801:10::1': ['crawl-2001-4860-4801-10--1.googlebot.com.'],
    },
    {
      [GOOGLE_NAME]: ['2001:db8::1', GOOGLE_IP],
      'crawl-2001-4860-4801-10--1.googlebot.com.': ['2001:4860:4801:10:0:0:0:1'],
    },
  )

type Seen = { bot: BotInfo; decisions: Decision[] }

function appWith(options: BotGuardOptions, before?: Parameters<Hono['use']>[1]) {
  const seen: Seen[] = []
  const app = new Hono()
  app.use('*', async (c, next) => {
    const record = installDecisions(c)
    await next()
    seen.push({ bot: c.get('bot'), decisions: record.decisions })
  })
  if (before) app.use('*', before)
  app.use('*', botGuard(options))
  app.get('/', (c) => c.json(c.get('bot')))
  return { app, seen }
}

/** A request as @hono/node-server delivers it: the socket address in `env.incoming`. */
function from(app: Hono, ip: string | undefined, userAgent?: string, headers?: HeadersInit) {
  const h = new Headers(headers)
  if (userAgent !== undefined) h.set('user-agent', userAgent)
  return app.request('/', { headers: h }, { incoming: { socket: { remoteAddress: ip } } })
}

describe('botGuard options', () => {
  it.each([
    [{ deny: ['robots'] }, /^botGuard: unknown category "robots" in "deny"/],
    [{ allow: ['browser'], deny: ['spoofed'] }, /^botGuard: give "allow" or "deny", not both/],
    [{ ranges: { Gooblebot: ['66.249.64.0/19'] } }, /^botGuard: unknown crawler "Gooblebot"/],
    [{ ranges: { Googlebot: ['66.249.64.0/33'] } }, /invalid IP or CIDR "66\.249\.64\.0\/33"/],
    [{ ranges: { Googlebot: '66.249.64.0/19' } }, /^botGuard: "ranges.Googlebot" must be an array/],
    [{ ranges: ['66.249.64.0/19'] }, /^botGuard: "ranges" must be an object/],
    [{ resolver: { reverse: () => [] } }, /^botGuard: "resolver.lookup" must be a function/],
    [{ resolver: true }, /^botGuard: "resolver" must be/],
    [{ dnsTimeout: 0 }, /^botGuard: "dnsTimeout" must be a positive integer/],
    [{ dnsTimeout: 2 ** 31 }, /^botGuard: "dnsTimeout" must be at most/],
    [{ unverifiable: 'deny' }, /^botGuard: "unverifiable" must be one of/],
    [{ dryrun: true }, /^botGuard: unknown option "dryrun"/],
    [{ message: '' }, /^botGuard: "message"/],
  ])('throws a TypeError for %j', (options, pattern) => {
    expect(() => botGuard(options as unknown as BotGuardOptions)).toThrow(TypeError)
    expect(() => botGuard(options as unknown as BotGuardOptions)).toThrow(pattern)
  })

  it('takes no options at all (deny spoofed, platform DNS)', () => {
    expect(() => botGuard()).not.toThrow()
  })
})

describe('botGuard crawler claims by reverse DNS', () => {
  it('lets a verified Googlebot through and tells the handler', async () => {
    const { resolver, asked } = google()
    const { app, seen } = appWith({ resolver })
    const res = await from(app, GOOGLE_IP, GOOGLEBOT)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      category: 'search-engine',
      name: 'Googlebot',
      verified: true,
    })
    expect(asked).toEqual([`PTR ${GOOGLE_IP}`, `A ${GOOGLE_NAME}`])
    expect(seen[0]?.decisions[0]).toMatchObject({
      middleware: 'botGuard',
      outcome: 'allow',
      category: 'search-engine',
      cause: 'Googlebot claim: reverse-dns',
    })
  })

  it('verifies an IPv6 crawler (PTR name with a trailing dot, forward answer in long form)', async () => {
    const { resolver } = google()
    const res = await from(appWith({ resolver }).app, '2001:4860:4801:10::1', GOOGLEBOT)
    expect(await res.json()).toMatchObject({ name: 'Googlebot', verified: true })
  })

  it('denies a Googlebot from a rented server as spoofed, 403 bot_denied, naming nothing', async () => {
    const { resolver } = google()
    const { app, seen } = appWith({ resolver })
    const res = await from(app, RENTED, GOOGLEBOT)
    expect(res.status).toBe(403)
    expect(await res.text()).toBe('Access denied')
    expect(seen[0]?.bot).toEqual({ category: 'spoofed', name: 'Googlebot', verified: false })
    expect(seen[0]?.decisions[0]).toMatchObject({
      outcome: 'reject',
      code: 'bot_denied',
      status: 403,
      category: 'spoofed',
      cause: 'Googlebot claim: ptr-outside-domains',
    })
  })

  it.each([
    ['a PTR name that does not resolve back to the address', '198.51.100.7', 'forward-mismatch'],
    ['a PTR name that only starts like Google’s', '198.51.100.8', 'ptr-outside-domains'],
    ['a PTR name that only ends in the same letters', '198.51.100.9', 'ptr-outside-domains'],
    ['an address without a PTR record', '192.0.2.44', 'no-ptr'],
  ])('calls %s spoofed', async (_label, ip, reason) => {
    const { resolver } = google()
    const { app, seen } = appWith({ resolver })
    expect((await from(app, ip, GOOGLEBOT)).status).toBe(403)
    expect(seen[0]?.decisions[0]?.cause).toBe(`Googlebot claim: ${reason}`)
  })

  it('calls an empty PTR answer spoofed', async () => {
    const resolver: BotResolver = { reverse: async () => [], lookup: async () => [GOOGLE_IP] }
    expect((await from(appWith({ resolver }).app, GOOGLE_IP, GOOGLEBOT)).status).toBe(403)
  })

  it('does not let a forged X-Forwarded-For verify a crawler', async () => {
    const { resolver, asked } = google()
    const { app } = appWith({ resolver })
    const res = await from(app, RENTED, GOOGLEBOT, { 'x-forwarded-for': GOOGLE_IP })
    expect(res.status).toBe(403)
    expect(asked).toEqual([`PTR ${RENTED}`])
    // Without a socket address the right-most entry counts, never the client's left-most one.
    const noSocket = await app.request('/', {
      headers: { 'user-agent': GOOGLEBOT, 'x-forwarded-for': `${GOOGLE_IP}, ${RENTED}` },
    })
    expect(noSocket.status).toBe(403)
  })

  it('reads the address of a declared clientIp() platform, and only there', async () => {
    const { resolver } = google()
    const { app } = appWith({ resolver }, clientIp({ platform: 'vercel' }))
    const ok = await app.request('/', {
      headers: { 'user-agent': GOOGLEBOT, 'x-real-ip': GOOGLE_IP, 'x-forwarded-for': RENTED },
    })
    expect(ok.status).toBe(200)
  })

  it('remembers a verdict per crawler and address, and asks once for concurrent claims', async () => {
    const { resolver, asked } = google()
    const { app } = appWith({ resolver })
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => from(app, GOOGLE_IP, GOOGLEBOT)),
    )
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200])
    await from(app, RENTED, GOOGLEBOT)
    await from(app, RENTED, GOOGLEBOT)
    expect(asked).toEqual([`PTR ${GOOGLE_IP}`, `A ${GOOGLE_NAME}`, `PTR ${RENTED}`])
  })

  it('asks again once a verdict is an hour old, and after 30 s for an unverifiable one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const { resolver, asked } = google()
      let down = true
      const flaky: BotResolver = {
        reverse: (ip) => (down ? Promise.reject(new Error('SERVFAIL')) : resolver.reverse(ip)),
        lookup: (name) => resolver.lookup(name),
      }
      const { app, seen } = appWith({ resolver: flaky })
      await from(app, GOOGLE_IP, GOOGLEBOT)
      down = false
      vi.advanceTimersByTime(29_000)
      await from(app, GOOGLE_IP, GOOGLEBOT)
      vi.advanceTimersByTime(2_000)
      await from(app, GOOGLE_IP, GOOGLEBOT)
      expect(seen.map((x) => x.bot.verified)).toEqual([false, false, true])
      vi.advanceTimersByTime(3_599_000)
      await from(app, GOOGLE_IP, GOOGLEBOT)
      expect(asked).toEqual([`PTR ${GOOGLE_IP}`, `A ${GOOGLE_NAME}`])
      vi.advanceTimersByTime(2_000)
      await from(app, GOOGLE_IP, GOOGLEBOT)
      expect(asked).toEqual([
        `PTR ${GOOGLE_IP}`,
        `A ${GOOGLE_NAME}`,
        `PTR ${GOOGLE_IP}`,
        `A ${GOOGLE_NAME}`,
      ])
    } finally {
      vi.useRealTimers()
    }
  })

  it('asks no DNS for a browser or a bot that claims no verifiable crawler', async () => {
    const { resolver, asked } = google()
    const { app } = appWith({ resolver })
    expect(await (await from(app, RENTED, CHROME)).json()).toEqual({
      category: 'browser',
      verified: false,
    })
    expect(await (await from(app, RENTED, 'curl/8.4.0')).json()).toEqual({
      category: 'library',
      name: 'curl',
      verified: false,
    })
    expect(asked).toEqual([])
  })
})

describe('botGuard when DNS gives no answer (fails closed)', () => {
  const hanging: BotResolver = { reverse: () => new Promise(() => {}), lookup: async () => [] }
  const broken: BotResolver = {
    reverse: async () => {
      throw Object.assign(new Error('queryPtr ESERVFAIL'), { code: 'ESERVFAIL' })
    },
    lookup: async () => [],
  }
  const throwsSync: BotResolver = {
    reverse: () => {
      throw new Error('not a promise')
    },
    lookup: async () => [],
  }
  const forwardFails: BotResolver = {
    reverse: async () => [GOOGLE_NAME],
    lookup: async () => {
      throw Object.assign(new Error('getaddrinfo EAI_AGAIN'), { code: 'EAI_AGAIN' })
    },
  }
  const garbage = {
    reverse: async () => 'crawl.googlebot.com',
    lookup: async () => [],
  } as unknown as BotResolver

  it.each([
    ['a resolver that never answers', hanging, 'dns-timeout'],
    ['a resolver error', broken, 'dns-error'],
    ['a resolver that throws synchronously', throwsSync, 'dns-error'],
    ['a forward lookup error', forwardFails, 'dns-error'],
    ['a resolver answering a string, not a list', garbage, 'no-ptr'],
  ])('never verifies on %s', async (_label, resolver, reason) => {
    const { app, seen } = appWith({ resolver, dnsTimeout: 20 })
    const res = await from(app, GOOGLE_IP, GOOGLEBOT)
    const unverified = reason !== 'no-ptr'
    expect(res.status).toBe(unverified ? 200 : 403)
    expect(seen[0]?.bot.verified).toBe(false)
    expect(seen[0]?.decisions[0]?.cause).toBe(`Googlebot claim: ${reason}`)
    if (unverified) {
      expect(seen[0]?.bot).toEqual({
        category: 'search-engine',
        name: 'Googlebot',
        verified: false,
      })
      // unverifiable: 'spoofed' refuses what cannot be checked.
      const strict = appWith({ resolver, dnsTimeout: 20, unverifiable: 'spoofed' })
      expect((await from(strict.app, GOOGLE_IP, GOOGLEBOT)).status).toBe(403)
      expect(strict.seen[0]?.bot.category).toBe('spoofed')
    }
  })

  it('treats a claim without a client address as unverifiable', async () => {
    const { resolver, asked } = google()
    const { app, seen } = appWith({ resolver })
    expect((await from(app, undefined, GOOGLEBOT)).status).toBe(200)
    expect(seen[0]?.decisions[0]?.cause).toBe('Googlebot claim: no-address')
    expect(asked).toEqual([])
  })

  it('refuses further lookups while 64 are in flight, instead of queueing them', async () => {
    let calls = 0
    const resolver: BotResolver = {
      reverse: () => {
        calls++
        return new Promise(() => {})
      },
      lookup: async () => [],
    }
    const { app, seen } = appWith({ resolver, dnsTimeout: 200 })
    const held = Array.from({ length: 64 }, (_, i) => from(app, `192.0.2.${i + 1}`, GOOGLEBOT))
    await new Promise((r) => setTimeout(r, 10))
    const res = await from(app, '192.0.2.100', GOOGLEBOT)
    expect(res.status).toBe(200)
    expect(seen[0]?.decisions[0]?.cause).toBe('Googlebot claim: dns-busy')
    expect(calls).toBe(64)
    await Promise.all(held)
  })
})

describe('botGuard crawler claims by published ranges', () => {
  const ranges = { GPTBot: ['20.171.206.0/24'], Googlebot: ['66.249.64.0/19'] }

  it('verifies a range-only crawler inside its ranges and calls it spoofed outside', async () => {
    const { app, seen } = appWith({ ranges, resolver: false })
    expect(await (await from(app, '20.171.206.9', GPTBOT)).json()).toEqual({
      category: 'ai-crawler',
      name: 'GPTBot',
      verified: true,
    })
    expect((await from(app, RENTED, GPTBOT)).status).toBe(403)
    expect(seen[1]?.decisions[0]?.cause).toBe('GPTBot claim: not-in-ranges')
  })

  it('verifies by range without asking DNS, and asks DNS outside the ranges', async () => {
    const { resolver, asked } = google()
    const { app } = appWith({ ranges: { Googlebot: ['66.249.64.0/27'] }, resolver })
    expect(await (await from(app, '66.249.64.3', GOOGLEBOT)).json()).toMatchObject({
      verified: true,
    })
    expect(asked).toEqual([])
    expect(await (await from(app, GOOGLE_IP, GOOGLEBOT)).json()).toMatchObject({ verified: true })
    expect(asked).toEqual([`PTR ${GOOGLE_IP}`, `A ${GOOGLE_NAME}`])
  })

  it('leaves a claim without ranges and without DNS unverified (not spoofed)', async () => {
    const { app, seen } = appWith({ resolver: false })
    expect((await from(app, GOOGLE_IP, GOOGLEBOT)).status).toBe(200)
    expect((await from(app, '20.171.206.9', GPTBOT)).status).toBe(200)
    expect(seen.map((s) => s.bot.verified)).toEqual([false, false])
    expect(seen[0]?.decisions[0]?.cause).toBe('Googlebot claim: no-dns')
  })
})

describe('botGuard allow, deny and dry run', () => {
  it('denies the categories in deny', async () => {
    const { app } = appWith({ deny: ['library', 'ai-crawler'], resolver: false })
    expect((await from(app, RENTED, 'curl/8.4.0')).status).toBe(403)
    expect((await from(app, RENTED, 'python-requests/2.31.0')).status).toBe(403)
    expect((await from(app, RENTED, GPTBOT)).status).toBe(403)
    expect((await from(app, RENTED, CHROME)).status).toBe(200)
    // deny replaces the default: a spoofed claim passes unless listed.
    const { resolver } = google()
    expect((await from(appWith({ deny: [], resolver }).app, RENTED, GOOGLEBOT)).status).toBe(200)
  })

  it('lets only the bot categories in allow through, and browsers always', async () => {
    const { resolver } = google()
    const { app } = appWith({ allow: ['search-engine'], resolver })
    expect((await from(app, RENTED, CHROME)).status).toBe(200)
    expect((await from(app, GOOGLE_IP, GOOGLEBOT)).status).toBe(200)
    expect((await from(app, RENTED, GOOGLEBOT)).status).toBe(403)
    expect((await from(app, RENTED, 'curl/8.4.0')).status).toBe(403)
    expect((await from(app, RENTED, undefined)).status).toBe(403)
    const none = appWith({ allow: [], resolver }).app
    expect((await from(none, GOOGLE_IP, GOOGLEBOT)).status).toBe(403)
    expect((await from(none, RENTED, CHROME)).status).toBe(200)
  })

  it('denies browsers too when deny lists them (an API for machines)', async () => {
    const { app } = appWith({ deny: ['browser', 'spoofed'], resolver: false })
    expect((await from(app, RENTED, CHROME)).status).toBe(403)
    expect((await from(app, RENTED, 'curl/8.4.0')).status).toBe(200)
  })

  it('records a dry run with the category and lets the request through', async () => {
    const { resolver } = google()
    const { app, seen } = appWith({ resolver, dryRun: true, deny: ['spoofed', 'library'] })
    expect((await from(app, RENTED, GOOGLEBOT)).status).toBe(200)
    expect((await from(app, RENTED, 'Wget/1.21.4')).status).toBe(200)
    expect((await from(app, RENTED, CHROME)).status).toBe(200)
    expect(seen.map((s) => s.decisions[0])).toMatchObject([
      { outcome: 'dry-run', code: 'bot_denied', status: 403, category: 'spoofed' },
      { outcome: 'dry-run', code: 'bot_denied', status: 403, category: 'library' },
      { outcome: 'allow', category: 'browser' },
    ])
  })

  it('uses a custom message and lets app.onError reshape the rejection', async () => {
    const app = new Hono()
    app.use('*', botGuard({ deny: ['library'], message: 'No scripts' }))
    app.get('/', (c) => c.text('ok'))
    expect(await (await from(app, RENTED, 'curl/8')).text()).toBe('No scripts')
    app.onError((err, c) => c.json({ code: (err as { code?: string }).code }, 403))
    expect(await (await from(app, RENTED, 'curl/8')).json()).toEqual({ code: 'bot_denied' })
  })
})

describe('botGuard hostile user agents', () => {
  const { app, seen } = appWith({ deny: ['spoofed', 'unknown-bot'], resolver: false })

  it.each([
    ['a missing user agent', undefined, 'unknown-bot'],
    ['an empty user agent', '', 'unknown-bot'],
    [
      'a 100 KB user agent, even one naming Googlebot',
      `${CHROME} ${'Googlebot '.repeat(10_000)}`,
      'unknown-bot',
    ],
    ['control characters', `${CHROME}\x01\x1b[31m\x7f`, 'browser'],
    ['a tab-separated curl', 'curl/8.4.0\tx', 'library'],
    // Header values are bytes: UTF-8 arrives as Latin-1 characters.
    ['non-ASCII bytes', 'Mozilla/5.0 (\u00c3\u009cn\u00ef\u00ff) Firefox/120.0', 'browser'],
  ])('classifies %s without failing', async (_label, userAgent, category) => {
    seen.length = 0
    const res = await from(app, RENTED, userAgent)
    expect(res.status).toBe(category === 'unknown-bot' ? 403 : 200)
    expect(seen[0]?.bot.category).toBe(category)
  })

  it('answers 200 or 403, never an error, for any user agent a header can carry', async () => {
    const { resolver } = google()
    const guarded = appWith({ resolver, deny: ['spoofed', 'library'] })
    // Header values: Latin-1 without NUL, CR, LF; trimmed by Headers, as on the wire.
    const value = fc
      .array(
        fc.integer({ min: 1, max: 255 }).filter((n) => n !== 10 && n !== 13),
        { maxLength: 300 },
      )
      .map((codes) => String.fromCharCode(...codes))
    const withClaim = fc
      .tuple(value, fc.constantFrom('Googlebot/2.1', 'bingbot', 'curl/8', ''), value)
      .map(([a, t, b]) => `${a}${t}${b}`)
    await fc.assert(
      fc.asyncProperty(fc.oneof(value, withClaim), fc.ipV4(), async (ua, ip) => {
        const res = await from(guarded.app, ip, ua)
        expect([200, 403]).toContain(res.status)
      }),
      { numRuns: 300 },
    )
  })

  it('reads a duplicated header as one joined value: a browser plus a crawler claim is a claim', async () => {
    const h = new Headers()
    h.append('user-agent', CHROME)
    h.append('user-agent', GOOGLEBOT)
    const { resolver } = google()
    const guarded = appWith({ resolver })
    expect((await from(guarded.app, RENTED, undefined, h)).status).toBe(403)
    expect(guarded.seen[0]?.bot.category).toBe('spoofed')
  })
})

describe('botGuard on the cached path', () => {
  it('answers each address on its own when a verified and a rented one alternate', async () => {
    const { resolver } = google()
    const { app } = appWith({ resolver })
    for (let round = 0; round < 3; round++) {
      expect((await from(app, GOOGLE_IP, GOOGLEBOT)).status).toBe(200)
      expect((await from(app, RENTED, GOOGLEBOT)).status).toBe(403)
      expect((await from(app, `::ffff:${GOOGLE_IP}`, GOOGLEBOT)).status).toBe(200)
      expect((await from(app, undefined, GOOGLEBOT)).status).toBe(200)
      expect(await (await from(app, undefined, GOOGLEBOT)).json()).toEqual({
        category: 'search-engine',
        name: 'Googlebot',
        verified: false,
      })
    }
  })

  it('classifies and checks a changed user agent or address anew on one instance', async () => {
    const { resolver, asked } = google()
    const { app, seen } = appWith({ resolver })
    const BINGBOT = 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'
    // No connection info: the right-most X-Forwarded-For entry is the address, as in the bench.
    const via = (xff: string, userAgent: string) =>
      app.request('/', { headers: { 'x-forwarded-for': xff, 'user-agent': userAgent } })
    const steps: [string, string, number, string][] = [
      [GOOGLE_IP, GOOGLEBOT, 200, 'search-engine'],
      [GOOGLE_IP, GOOGLEBOT, 200, 'search-engine'],
      [GOOGLE_IP, CHROME, 200, 'browser'],
      [GOOGLE_IP, GOOGLEBOT, 200, 'search-engine'],
      [RENTED, GOOGLEBOT, 403, 'spoofed'],
      [RENTED, GOOGLEBOT, 403, 'spoofed'],
      [GOOGLE_IP, GOOGLEBOT, 200, 'search-engine'],
      [`${RENTED}, ${GOOGLE_IP}`, GOOGLEBOT, 200, 'search-engine'],
      [`${GOOGLE_IP}, ${RENTED}`, GOOGLEBOT, 403, 'spoofed'],
      [GOOGLE_IP, BINGBOT, 403, 'spoofed'],
      [GOOGLE_IP, BINGBOT, 403, 'spoofed'],
      [GOOGLE_IP, GOOGLEBOT, 200, 'search-engine'],
      [` ${GOOGLE_IP} `, GOOGLEBOT, 200, 'search-engine'],
    ]
    for (const [xff, userAgent, status, category] of steps) {
      expect([xff, userAgent, (await via(xff, userAgent)).status]).toEqual([xff, userAgent, status])
      expect(seen.at(-1)?.bot.category).toBe(category)
    }
    expect(seen.filter((x) => x.bot.verified)).toHaveLength(7)
    expect(asked).toEqual([
      `PTR ${GOOGLE_IP}`,
      `A ${GOOGLE_NAME}`,
      `PTR ${RENTED}`,
      // The same address claiming Bing: checked for Bing's domains, not served Google's verdict.
      `PTR ${GOOGLE_IP}`,
    ])
  })

  it('checks a verified claim again once its hour is up, and then refuses a changed zone', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const { resolver, asked } = google()
      let rented = false
      const changing: BotResolver = {
        reverse: (ip) =>
          rented ? Promise.resolve(['host-1.rented.example.net']) : resolver.reverse(ip),
        lookup: (name) => resolver.lookup(name),
      }
      const { app, seen } = appWith({ resolver: changing })
      expect((await from(app, GOOGLE_IP, GOOGLEBOT)).status).toBe(200)
      rented = true
      for (let n = 0; n < 3; n++) {
        vi.advanceTimersByTime(1_000_000)
        expect((await from(app, GOOGLE_IP, GOOGLEBOT)).status).toBe(200)
      }
      vi.advanceTimersByTime(600_000)
      expect((await from(app, GOOGLE_IP, GOOGLEBOT)).status).toBe(403)
      expect((await from(app, GOOGLE_IP, GOOGLEBOT)).status).toBe(403)
      expect(seen.map((x) => x.bot.category)).toEqual([
        'search-engine',
        'search-engine',
        'search-engine',
        'search-engine',
        'spoofed',
        'spoofed',
      ])
      expect(asked).toEqual([`PTR ${GOOGLE_IP}`, `A ${GOOGLE_NAME}`])
    } finally {
      vi.useRealTimers()
    }
  })

  it('gives the chain undefined, and a handler error reaches onError, from a cached verdict', async () => {
    const { resolver } = google()
    const app = new Hono()
    const results: unknown[] = []
    app.use('*', async (c, next) => {
      results.push(await botGuard({ resolver })(c, next))
    })
    app.get('/', () => {
      throw new Error('boom')
    })
    app.onError((err, c) => c.text(err.message, 500))
    const res = await from(app, GOOGLE_IP, GOOGLEBOT)
    expect([res.status, await res.text()]).toEqual([500, 'boom'])
    expect(results).toEqual([undefined])
  })
})
