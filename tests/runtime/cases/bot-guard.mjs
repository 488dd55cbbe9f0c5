const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'

export default {
  name: 'botGuard',
  from: '@palisade/middleware/bot-guard',
  exports: ['botGuard'],
  async run({ mod: { botGuard }, Hono, t }) {
    // A fake zone: the matrix runs offline, and workerd has no DNS.
    const resolver = {
      reverse: async (ip) => {
        if (ip === '66.249.66.1') return ['crawl-66-249-66-1.googlebot.com']
        if (ip === '203.0.113.5') return ['host.rented.example.net']
        throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' })
      },
      lookup: async (name) => (name === 'crawl-66-249-66-1.googlebot.com' ? ['66.249.66.1'] : []),
    }
    const app = new Hono()
    app.use(
      '*',
      botGuard({ resolver, deny: ['spoofed', 'library'], ranges: { GPTBot: ['20.171.206.0/24'] } }),
    )
    app.get('/', (c) => {
      const bot = c.get('bot')
      return c.text(`${bot.category} ${bot.name ?? '-'} ${bot.verified}`)
    })
    // app.request carries no connection address: the right-most X-Forwarded-For entry is the client.
    const from = (ip, ua) =>
      app.request('/', { headers: { 'x-forwarded-for': ip, 'user-agent': ua } })

    await t.status('browser passes', await from('198.51.100.1', CHROME), 200, 'browser - false')
    await t.status(
      'Googlebot confirmed by reverse DNS passes',
      await from('66.249.66.1', GOOGLEBOT),
      200,
      'search-engine Googlebot true',
    )
    await t.status(
      'Googlebot from a rented server → 403 Access denied',
      await from('203.0.113.5', GOOGLEBOT),
      403,
      'Access denied',
    )
    await t.status(
      'forged left-most X-Forwarded-For verifies nothing',
      await from('66.249.66.1, 203.0.113.5', GOOGLEBOT),
      403,
    )
    await t.status(
      'GPTBot inside its ranges passes',
      await from('20.171.206.9', 'GPTBot/1.2'),
      200,
      'ai-crawler GPTBot true',
    )
    await t.status('curl denied by category', await from('198.51.100.1', 'curl/8.4.0'), 403)

    // The platform DNS path: node:dns where the runtime has it, none in workerd. Without a client
    // address nothing is looked up and the claim stays unverified (fails closed, not spoofed).
    const platform = new Hono()
    platform.use('*', botGuard({ dnsTimeout: 500 }))
    platform.get('/', (c) => c.text(`${c.get('bot').category} ${c.get('bot').verified}`))
    await t.status(
      'default resolver: a claim without an address is unverified',
      await platform.request('/', { headers: { 'user-agent': GOOGLEBOT } }),
      200,
      'search-engine false',
    )
  },
}
