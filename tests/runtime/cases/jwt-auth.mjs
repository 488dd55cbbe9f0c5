const b64url = (obj) =>
  btoa(JSON.stringify(obj)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')

export default {
  name: 'jwtAuth',
  from: '@palisade/middleware/jwt-auth',
  exports: ['jwtAuth', 'signJwt'],
  async run({ mod: { jwtAuth, signJwt }, Hono, t }) {
    const secret = new TextEncoder().encode(
      'a-64-byte-long-secret-for-tests-long-enough-for-hs512-0123456789!',
    )
    const app = new Hono()
    app.use('/me', jwtAuth({ secret }))
    app.get('/me', (c) => c.json(c.get('jwtPayload')))
    const call = (auth) => app.request('/me', { headers: auth ? { Authorization: auth } : {} })

    const token = await signJwt({ sub: 'u1', role: 'admin' }, secret, { expiresIn: '2h' })
    t.equal('signJwt returns a compact JWS', token.split('.').length, 3)
    let res = await call(`Bearer ${token}`)
    t.equal('valid token → 200', res.status, 200)
    const body = await res.json()
    t.equal('payload in context (sub)', body.sub, 'u1')
    t.ok('expiresIn "2h" sets exp', body.exp - body.iat === 7200, `exp-iat=${body.exp - body.iat}`)
    await t.status('scheme is case-insensitive', await call(`bearer ${token}`), 200)

    res = await call()
    t.equal('no token → 401', res.status, 401)
    t.match('WWW-Authenticate challenge', res.headers.get('www-authenticate'), /^Bearer realm="/)

    const [h, p, s] = token.split('.')
    const none = `${b64url({ alg: 'none', typ: 'JWT' })}.${p}.`
    const noneCase = `${b64url({ alg: 'NoNe', typ: 'JWT' })}.${p}.`
    const hs512 = await signJwt({ sub: 'u1' }, secret, { algorithm: 'HS512' })
    const tampered = `${h}.${b64url({ sub: 'u1', role: 'root' })}.${s}`
    const expired = await signJwt({ sub: 'u1', exp: Math.floor(Date.now() / 1000) - 60 }, secret)
    const otherSecret = await signJwt(
      { sub: 'u1' },
      new TextEncoder().encode('another-64-byte-long-secret-here-long-enough-for-hs512-0123456789'),
    )
    const attacks = [
      ['alg none', none],
      ['alg NoNe', noneCase],
      ['HS512 when only HS256 is allowed', hs512],
      ['tampered payload', tampered],
      ['expired token', expired],
      ['wrong secret', otherSecret],
      ['4 segments', `${token}.x`],
      ['garbage base64url', 'a.b.c'],
      ['10 KB token', `${h}.${'A'.repeat(10_000)}.${s}`],
    ]
    for (const [label, bad] of attacks) {
      res = await call(`Bearer ${bad}`)
      t.ok(
        `${label} → 401 invalid_token`,
        res.status === 401 &&
          /error="invalid_token"/.test(res.headers.get('www-authenticate') ?? ''),
        `got ${res.status} ${res.headers.get('www-authenticate')}`,
      )
    }
  },
}
