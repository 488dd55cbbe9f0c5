import fc from 'fast-check'
import { isbot } from 'isbot'
import { describe, expect, it } from 'vitest'
import { BOT_CATEGORIES, NAMED_BOTS } from './categories'
import { cachedClassifier, classifyUserAgent, MAX_USER_AGENT } from './classify'
import { CRAWLERS, underDomains } from './crawlers'

describe('the category lists are data on top of isbot', () => {
  // Each token as it appears in real user agents: alone, and inside a browser-like string.
  const samples = (token: string) => {
    const version = /[\s/(]$/.test(token) ? `${token}1.0` : `${token}/1.0`
    return [version, `Mozilla/5.0 (compatible; ${version}; +https://example.com/bot)`]
  }
  const entries = [
    ...NAMED_BOTS.flatMap(([category, bots]) => bots.map((b) => [category, b.token, b.name])),
    ...CRAWLERS.flatMap((c) => c.tokens.map((t) => [c.category, t, c.name])),
  ] as [string, string, string][]

  it.each(entries)('isbot recognises the %s token %j, and it names %s', (category, token, name) => {
    for (const ua of samples(token)) {
      expect(isbot(ua), ua).toBe(true)
      expect(classifyUserAgent(ua).info, ua).toEqual({ category, name, verified: false })
    }
  })

  it('has lower-case tokens, no token twice, and every crawler at least one domain or none by design', () => {
    const tokens = entries.map(([, t]) => t)
    expect(tokens.every((t) => t === t.toLowerCase())).toBe(true)
    expect(new Set(tokens).size).toBe(tokens.length)
    const rangesOnly = CRAWLERS.filter((c) => c.domains.length === 0).map((c) => c.name)
    expect(rangesOnly).toEqual(['DuckDuckBot', 'GPTBot', 'OAI-SearchBot', 'ChatGPT-User'])
  })
})

describe('classifyUserAgent', () => {
  it.each([
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
      'browser',
      undefined,
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
      'browser',
      undefined,
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
      'browser',
      undefined,
    ],
    [
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      'search-engine',
      'Bingbot',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
      'search-engine',
      'Applebot',
    ],
    ['DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)', 'search-engine', 'DuckDuckBot'],
    [
      'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)',
      'search-engine',
      'YandexBot',
    ],
    [
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
      'ai-crawler',
      'ClaudeBot',
    ],
    [
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
      'ai-crawler',
      'ChatGPT-User',
    ],
    ['CCBot/2.0 (https://commoncrawl.org/faq/)', 'ai-crawler', 'CCBot'],
    [
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'social-preview',
      'facebookexternalhit',
    ],
    ['Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 'social-preview', 'Slackbot'],
    ['TelegramBot (like TwitterBot)', 'social-preview', 'Twitterbot'],
    [
      'Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)',
      'monitor',
      'UptimeRobot',
    ],
    ['kube-probe/1.29', 'monitor', 'kube-probe'],
    ['curl/8.4.0', 'library', 'curl'],
    ['python-requests/2.31.0', 'library', 'python-requests'],
    ['Go-http-client/2.0', 'library', 'Go-http-client'],
    ['PostmanRuntime/7.36.0', 'library', 'PostmanRuntime'],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36',
      'unknown-bot',
      undefined,
    ],
    ['x', 'unknown-bot', undefined],
    ['', 'unknown-bot', undefined],
  ])('%j is %s (%s)', (ua, category, name) => {
    const { info } = classifyUserAgent(ua)
    expect(info.category).toBe(category)
    expect(info.name).toBe(name)
    expect(info.verified).toBe(false)
  })

  it('checks a crawler claim before the named lists (Googlebot in a facebook UA is a Google claim)', () => {
    const seen = classifyUserAgent('facebookexternalhit/1.1 Googlebot/2.1')
    expect(seen.crawler?.name).toBe('Googlebot')
    expect(classifyUserAgent('curl/8').crawler).toBeUndefined()
  })

  it('does not read a user agent past MAX_USER_AGENT characters', () => {
    expect(classifyUserAgent('a'.repeat(MAX_USER_AGENT + 1)).info.category).toBe('unknown-bot')
    expect(classifyUserAgent(`curl/8${' '.repeat(MAX_USER_AGENT - 6)}`).info.category).toBe(
      'library',
    )
  })
})

describe('cachedClassifier', () => {
  const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
  const CHROME =
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'

  it('classifies a changed user agent anew, and a returning one as before', () => {
    const cached = cachedClassifier(8)
    const sequence = [GOOGLEBOT, GOOGLEBOT, CHROME, CHROME, 'curl/8.4.0', GOOGLEBOT, CHROME]
    for (const ua of sequence) expect(cached(ua)).toBe(classifyUserAgent(ua))
    // The same text in a new string (a header read off another request) is the same agent.
    expect(
      cached(
        ['Mozilla/5.0 (compatible; Googlebot/2.1;', ' +http://www.google.com/bot.html)'].join(''),
      ),
    ).toBe(classifyUserAgent(GOOGLEBOT))
    // One character more is another agent.
    expect(cached(`${GOOGLEBOT} `)).toBe(classifyUserAgent(`${GOOGLEBOT} `))
    expect(cached(CHROME).info.category).toBe('browser')
  })

  it('answers a missing, empty or oversized user agent as unknown-bot whatever came before', () => {
    const cached = cachedClassifier(8)
    const oversized = `curl/8${' '.repeat(MAX_USER_AGENT)}`
    for (const ua of [undefined, '', GOOGLEBOT, undefined, CHROME, '', CHROME, oversized]) {
      const expected = ua === undefined ? 'unknown-bot' : classifyUserAgent(ua).info.category
      expect(cached(ua).info.category).toBe(expected)
    }
    expect(cached(oversized).info.category).toBe('unknown-bot')
    expect(cached(oversized.slice(0, MAX_USER_AGENT)).info.category).toBe('library')
  })

  it('keeps classifying right past its capacity (a one-entry LRU, agents alternating)', () => {
    const cached = cachedClassifier(1)
    for (let round = 0; round < 3; round++) {
      for (const ua of [GOOGLEBOT, CHROME, CHROME, 'curl/8.4.0', GOOGLEBOT, GOOGLEBOT]) {
        expect(cached(ua)).toBe(classifyUserAgent(ua))
      }
    }
  })
})

describe('classification properties', () => {
  const userAgents = fc.oneof(
    fc.string({ maxLength: 300 }),
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.string({ unit: 'grapheme-ascii', maxLength: MAX_USER_AGENT + 50 }),
    fc
      .tuple(
        fc.string({ maxLength: 40 }),
        fc.constantFrom(...CRAWLERS.flatMap((c) => c.tokens), 'curl/', 'bot', 'Chrome/', ''),
        fc.string({ maxLength: 40 }),
      )
      .map(([a, t, b]) => `${a}${t}${b}`),
  )

  it('never throws, always answers a known category, and the cache answers what the classifier does', () => {
    const cached = cachedClassifier(8)
    fc.assert(
      fc.property(userAgents, (ua) => {
        const seen = classifyUserAgent(ua)
        expect(BOT_CATEGORIES).toContain(seen.info.category)
        expect(seen.info.category).not.toBe('spoofed')
        expect(seen.info.verified).toBe(false)
        expect(cached(ua)).toBe(seen)
        expect(cached(ua)).toBe(seen)
        // isbot alone decides bot or browser (a missing or oversized user agent aside).
        if (ua && ua.length <= MAX_USER_AGENT) {
          expect(seen.info.category === 'browser').toBe(!isbot(ua))
        }
      }),
      { numRuns: 2000 },
    )
  })

  it('underDomains accepts only the domain and names below it', () => {
    fc.assert(
      fc.property(fc.domain(), fc.domain(), (label, other) => {
        expect(underDomains(`${label}.googlebot.com`, ['googlebot.com'])).toBe(true)
        expect(underDomains(`${label}.googlebot.com.`.toUpperCase(), ['googlebot.com'])).toBe(true)
        expect(underDomains(`${label}googlebot.com`, ['googlebot.com'])).toBe(label.endsWith('.'))
        const lower = other.toLowerCase()
        expect(underDomains(`crawl.googlebot.com.${other}`, ['googlebot.com'])).toBe(
          lower === 'googlebot.com' || lower.endsWith('.googlebot.com'),
        )
      }),
    )
  })
})
