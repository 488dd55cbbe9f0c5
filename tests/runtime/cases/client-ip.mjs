export default {
  name: 'clientIp',
  from: '@palisade/middleware',
  exports: ['clientIp', 'ipGuard'],
  async run({ mod: { clientIp, ipGuard }, Hono, t }) {
    // cf-connecting-ip is Cloudflare's: without the cf object it is whatever the client sent.
    const guarded = new Hono()
    guarded.use('*', ipGuard({ mode: 'allow', list: ['10.0.0.0/8'] }))
    guarded.get('/', (c) => c.text('ok'))
    await t.status(
      'a client-sent cf-connecting-ip is ignored without the cf object',
      await guarded.request('/', {
        headers: { 'cf-connecting-ip': '10.0.0.1', 'x-forwarded-for': '198.51.100.7' },
      }),
      403,
    )
    const worker = new Request('http://worker.test/', {
      headers: { 'cf-connecting-ip': '10.0.0.1' },
    })
    Object.defineProperty(worker, 'cf', { value: { colo: 'FRA' } })
    await t.status(
      'cf-connecting-ip is read on a Workers request',
      await guarded.fetch(worker),
      200,
    )
    await t.status(
      'an empty right-most X-Forwarded-For entry fails closed',
      await guarded.request('/', { headers: { 'x-forwarded-for': '10.0.0.1, ' } }),
      403,
    )

    const vercel = new Hono()
    vercel.use('*', clientIp({ platform: 'vercel' }))
    vercel.get('/', (c) => c.text(c.get('clientIp') ?? 'none'))
    const ip = await vercel.request('/', {
      headers: { 'x-real-ip': '198.51.100.8', 'x-forwarded-for': '10.0.0.1' },
    })
    await t.status("clientIp({ platform: 'vercel' }) reads x-real-ip", ip, 200, '198.51.100.8')
  },
}
