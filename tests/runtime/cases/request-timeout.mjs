export default {
  name: 'requestTimeout',
  from: '@palisade/middleware/request-timeout',
  exports: ['requestTimeout'],
  async run({ mod: { requestTimeout }, Hono, t }) {
    let aborted = false
    const app = new Hono()
    app.use('/slow', requestTimeout({ ms: 30, message: 'too slow' }))
    app.use('/fast', requestTimeout({ ms: 5000 }))
    app.use('/throws', requestTimeout({ ms: 5000 }))
    app.get('/slow', async (c) => {
      const signal = c.get('timeoutSignal')
      // Stops its own work when the signal fires, as a well-behaved handler should.
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 2000)
        signal.addEventListener('abort', () => {
          aborted = true
          clearTimeout(timer)
          resolve()
        })
      })
      return c.text('late')
    })
    app.get('/fast', (c) => c.text('fast'))
    app.get('/throws', () => {
      throw new Error('handler failed')
    })
    // Rejections are HTTPExceptions and keep their own response; other errors get a marker body.
    app.onError((err, c) =>
      typeof err.getResponse === 'function'
        ? err.getResponse()
        : c.text(`onError: ${err.message}`, 500),
    )

    await t.status('slow handler → 408 with message', await app.request('/slow'), 408, 'too slow')
    await new Promise((r) => setTimeout(r, 0))
    t.ok('handler signal is aborted on timeout', aborted)
    await t.status(
      'fast handler wins (and its timer is cleared)',
      await app.request('/fast'),
      200,
      'fast',
    )
    await t.status(
      'handler error still propagates',
      await app.request('/throws'),
      500,
      'onError: handler failed',
    )
  },
}
