import { HTTPException } from 'hono/http-exception'

export default {
  name: 'logger',
  from: '@palisade/middleware/logger',
  exports: ['logger'],
  async run({ mod: { logger }, Hono, t }) {
    const lines = []
    const app = new Hono()
    app.use('*', logger({ exclude: ['/health', '/static/*'], sink: (l) => lines.push(l) }))
    app.get('/users', (c) => c.text('ok'))
    app.get('/health', (c) => c.text('ok'))
    app.get('/static/app.js', (c) => c.text('ok'))
    app.get('/boom', () => {
      throw new Error('boom')
    })
    app.get('/teapot', () => {
      throw new HTTPException(418, { message: 'short and stout' })
    })

    // Keeps Hono's default error printout out of the matrix output; statuses are unchanged.
    app.onError((err, c) =>
      typeof err.getResponse === 'function' ? err.getResponse() : c.text('error', 500),
    )

    await app.request('/users?token=secret')
    t.equal('one line per request', lines.length, 1)
    t.match('line is METHOD /path STATUS DURATIONms', lines[0], /^GET \/users 200 \d+(\.\d+)?ms$/)
    t.ok('query string is not logged', !lines[0]?.includes('secret'))

    await app.request('/health')
    await app.request('/static/app.js')
    t.equal('exact and prefix/* exclusions', lines.length, 1)

    await app.request('/boom')
    t.match('a thrown error logs 500', lines[1], /^GET \/boom 500 /)
    await app.request('/teapot')
    t.match('an HTTPException logs its status', lines[2], /^GET \/teapot 418 /)
  },
}
