export default {
  name: 'rateLimit',
  from: '@palisade/middleware/rate-limit',
  exports: ['rateLimit', 'MemoryRateLimitStore'],
  async run({ mod: { rateLimit, MemoryRateLimitStore }, Hono, t }) {
    const store = new MemoryRateLimitStore()
    const app = new Hono()
    app.use('/k/*', rateLimit({ max: 3, windowMs: 60_000, store, keyGenerator: () => 'fixed' }))
    app.use('/ip/*', rateLimit({ max: 1, windowMs: 60_000 }))
    app.get('/k/x', (c) => c.text('ok'))
    app.get('/ip/x', (c) => c.text('ok'))

    const statuses = []
    let last
    for (let i = 0; i < 4; i++) {
      last = await app.request('/k/x')
      statuses.push(last.status)
    }
    t.equal('request max passes, max + 1 → 429', statuses.join(','), '200,200,200,429')
    t.equal('429 body is the default message', await last.text(), 'Too many requests')
    t.match('Retry-After in seconds on 429', last.headers.get('retry-after'), /^\d+$/)
    t.equal('RateLimit-Limit header', last.headers.get('ratelimit-limit'), '3')
    t.equal('RateLimit-Remaining header', last.headers.get('ratelimit-remaining'), '0')

    const concurrent = new Hono()
    concurrent.use('*', rateLimit({ max: 10, keyGenerator: () => 'burst' }))
    concurrent.get('/', (c) => c.text('ok'))
    const burst = await Promise.all(Array.from({ length: 50 }, () => concurrent.request('/')))
    t.equal(
      '50 concurrent requests against max 10 → exactly 10 pass',
      burst.filter((r) => r.status === 200).length,
      10,
    )

    const xff = (ip) => app.request('/ip/x', { headers: { 'X-Forwarded-For': ip } })
    await t.status('default key = client IP: first request from A', await xff('203.0.113.1'), 200)
    await t.status('second request from A → 429', await xff('203.0.113.1'), 429)
    await t.status('client B has its own counter', await xff('203.0.113.2'), 200)

    // A store that throws: fail closed (503) by default, pass with failOpen.
    const broken = { increment: async () => Promise.reject(new Error('store down')) }
    const warnings = []
    const closed = new Hono()
    closed.use(
      '*',
      rateLimit({ store: broken, keyGenerator: () => 'k', onStoreError: (e) => warnings.push(e) }),
    )
    closed.get('/', (c) => c.text('ok'))
    const open = new Hono()
    open.use(
      '*',
      rateLimit({ store: broken, failOpen: true, keyGenerator: () => 'k', onStoreError: () => {} }),
    )
    open.get('/', (c) => c.text('ok'))
    await t.status('failing store → 503 (fail closed)', await closed.request('/'), 503)
    t.equal('the store error reaches onStoreError', warnings.length, 1)
    await t.status('failing store with failOpen → request passes', await open.request('/'), 200)
    store.destroy?.()
  },
}
