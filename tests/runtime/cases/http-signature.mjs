export default {
  name: 'httpSignature',
  from: '@palisade/middleware/http-signature',
  exports: ['httpSignature', 'signRequest', 'MemoryNonceStore'],
  async run({ mod: { httpSignature, signRequest, MemoryNonceStore }, Hono, t }) {
    const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify'])
    const ec = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
      'verify',
    ])
    const keys = { ed: pair.publicKey, ec: ec.publicKey }
    const app = new Hono()
    app.use(
      '/api/*',
      httpSignature({ keys: (keyid) => keys[keyid], nonce: new MemoryNonceStore() }),
    )
    app.post('/api/orders', async (c) =>
      c.json({ ...c.get('signature'), body: await c.req.json() }),
    )

    const request = () =>
      new Request('https://shop.example/api/orders?x=1', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sku: 'a-1' }),
      })
    const signed = await signRequest(request(), { key: pair.privateKey, keyid: 'ed' })
    t.ok(
      'signRequest adds Content-Digest',
      /^sha-256=:/.test(signed.headers.get('content-digest') ?? ''),
    )
    const res = await app.request(signed.clone())
    const json = res.status === 200 ? await res.json() : {}
    t.ok(
      'ed25519 signature → 200, body readable, signature in context',
      res.status === 200 &&
        json.keyid === 'ed' &&
        json.alg === 'ed25519' &&
        json.body?.sku === 'a-1',
      `${res.status} ${JSON.stringify(json)}`,
    )
    await t.status('replayed nonce → 401', await app.request(signed.clone()), 401)

    const ecSigned = await signRequest(request(), { key: ec.privateKey, keyid: 'ec' })
    await t.status('ecdsa-p256-sha256 → 200', await app.request(ecSigned), 200)

    const wrongKey = await signRequest(request(), { key: pair.privateKey, keyid: 'ec' })
    await t.status('key of another algorithm → 401', await app.request(wrongKey), 401)

    const tampered = await signRequest(request(), { key: pair.privateKey, keyid: 'ed' })
    await t.status(
      'tampered body → 400',
      await app.request(
        new Request(tampered.url, {
          method: 'POST',
          headers: tampered.headers,
          body: '{"sku":"b"}',
        }),
      ),
      400,
    )
    await t.status('no signature → 401', await app.request(request()), 401)
    await t.status(
      'malformed Signature-Input → 401',
      await app.request('https://shop.example/api/orders', {
        method: 'POST',
        headers: { 'signature-input': 'sig1=("@method"', signature: 'sig1=:AA==:' },
        body: '{}',
      }),
      401,
    )
  },
}
