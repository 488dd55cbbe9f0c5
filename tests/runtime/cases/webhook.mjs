export default {
  name: 'webhook',
  from: '@palisade/middleware/webhook',
  exports: ['webhook', 'signWebhook', 'MemoryNonceStore'],
  async run({ mod: { webhook, signWebhook }, Hono, t }) {
    const secret = `whsec_${btoa('runtime-matrix-webhook-secret-32b')}`
    const app = new Hono()
    app.post('/sw', webhook({ preset: 'standardWebhooks', secret }), async (c) =>
      c.json({ id: c.get('webhook').id, body: await c.req.json() }),
    )
    app.post('/gh', webhook({ preset: 'github', secret: 'runtime-matrix-github-secret' }), (c) =>
      c.text('ok'),
    )
    const signed = await signWebhook({ n: 1 }, { preset: 'standardWebhooks', secret, id: 'msg_rt' })
    let res = await app.request('/sw', {
      method: 'POST',
      headers: signed.headers,
      body: signed.body,
    })
    t.equal('signed Standard Webhooks message → 200', res.status, 200)
    const json = await res.json()
    t.ok('handler reads the id and the verified body', json.id === 'msg_rt' && json.body.n === 1)
    res = await app.request('/sw', { method: 'POST', headers: signed.headers, body: signed.body })
    t.equal('the same message again → 401 (replay)', res.status, 401)
    res = await app.request('/sw', { method: 'POST', headers: signed.headers, body: '{"n":2}' })
    t.equal('tampered body → 401', res.status, 401)

    // v1a: Ed25519 through the runtime's WebCrypto.
    const keys = await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])
    const ed = new Hono()
    ed.post('/', webhook({ preset: 'standardWebhooks', secret: keys.publicKey }), (c) =>
      c.text('ok'),
    )
    const v1a = await signWebhook('{}', { preset: 'standardWebhooks', secret: keys.privateKey })
    res = await ed.request('/', { method: 'POST', headers: v1a.headers, body: v1a.body })
    t.equal('v1a (Ed25519) message → 200', res.status, 200)

    const gh = await signWebhook('{}', { preset: 'github', secret: 'runtime-matrix-github-secret' })
    await t.status(
      'GitHub signature → 200',
      await app.request('/gh', { method: 'POST', headers: gh.headers, body: gh.body }),
      200,
    )
  },
}
