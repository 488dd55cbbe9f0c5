export default {
  name: 'securityHeaders',
  from: '@palisade/middleware/security-headers',
  exports: ['securityHeaders'],
  async run({ mod: { securityHeaders }, Hono, t }) {
    const app = new Hono()
    app.use('*', securityHeaders())
    app.get('/', (c) => c.text('ok'))
    app.get('/own-csp', (c) => {
      c.header('Content-Security-Policy', "default-src 'none'")
      return c.text('ok')
    })
    let res = await app.request('/')
    t.equal('X-Content-Type-Options', res.headers.get('x-content-type-options'), 'nosniff')
    t.equal('X-Frame-Options', res.headers.get('x-frame-options'), 'DENY')
    t.equal(
      'Strict-Transport-Security',
      res.headers.get('strict-transport-security'),
      'max-age=63072000; includeSubDomains',
    )
    t.equal('default CSP', res.headers.get('content-security-policy'), "default-src 'self'")
    res = await app.request('/own-csp')
    t.equal(
      'a CSP the handler set is kept',
      res.headers.get('content-security-policy'),
      "default-src 'none'",
    )

    const custom = new Hono()
    custom.use('*', securityHeaders({ contentSecurityPolicy: "default-src 'self'; img-src *" }))
    custom.get('/', (c) => c.text('ok'))
    res = await custom.request('/')
    t.equal(
      'contentSecurityPolicy option',
      res.headers.get('content-security-policy'),
      "default-src 'self'; img-src *",
    )
  },
}
