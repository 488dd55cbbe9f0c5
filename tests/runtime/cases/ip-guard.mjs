export default {
  name: 'ipGuard',
  from: '@palisade/middleware/ip-guard',
  exports: ['ipGuard'],
  async run({ mod: { ipGuard }, Hono, t }) {
    // app.request() has no connection address, so the client IP comes from X-Forwarded-For.
    const deny = new Hono()
    deny.use('*', ipGuard({ mode: 'deny', list: ['10.0.0.0/8', '2001:db8::/32'] }))
    deny.get('/', (c) => c.text('ok'))
    const allow = new Hono()
    allow.use('*', ipGuard({ mode: 'allow', list: ['192.0.2.0/24'], message: 'nope' }))
    allow.get('/', (c) => c.text('ok'))
    const from = (app, ip) => app.request('/', { headers: ip ? { 'X-Forwarded-For': ip } : {} })

    await t.status(
      'deny: listed IPv4 → 403 Access denied',
      await from(deny, '10.1.2.3'),
      403,
      'Access denied',
    )
    await t.status(
      'deny: IPv4-mapped IPv6 matches the IPv4 rule',
      await from(deny, '::ffff:10.0.0.1'),
      403,
    )
    await t.status('deny: IPv6 CIDR', await from(deny, '2001:0db8:0000::1'), 403)
    await t.status('deny: unlisted address passes', await from(deny, '198.51.100.7'), 200, 'ok')
    await t.status('deny: no address → 403 (fail closed)', await from(deny), 403)
    await t.status('deny: unparseable address → 403', await from(deny, 'not-an-ip'), 403)
    await t.status('allow: listed address passes', await from(allow, '192.0.2.55'), 200)
    await t.status(
      'allow: unlisted → 403 with message',
      await from(allow, '192.0.3.1'),
      403,
      'nope',
    )
    t.ok(
      'an invalid CIDR throws at construction',
      (() => {
        try {
          ipGuard({ list: ['10.0.0.0/33'] })
          return false
        } catch (e) {
          return e instanceof TypeError && /^ipGuard/.test(e.message)
        }
      })(),
    )
  },
}
