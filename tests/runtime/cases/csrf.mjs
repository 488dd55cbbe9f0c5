const cookieValue = (res, name) => {
  const m = (res.headers.get('set-cookie') ?? '').match(new RegExp(`(?:^|, )${name}=([^;]*)`))
  return m ? decodeURIComponent(m[1]) : null
}

export default {
  name: 'csrf',
  from: '@palisade/middleware/csrf',
  exports: ['csrf'],
  async run({ mod: { csrf }, Hono, t }) {
    const app = new Hono()
    app.use('*', csrf())
    app.get('/form', (c) => c.text(c.get('csrfToken')))
    app.post('/submit', (c) => c.text('accepted'))

    let res = await app.request('/form')
    const token = cookieValue(res, 'XSRF-TOKEN')
    t.ok('GET sets the XSRF-TOKEN cookie', typeof token === 'string' && token.length >= 16, token)
    t.equal('the token is exposed as csrfToken', await res.text(), token)
    t.ok(
      'the cookie is readable by scripts (not HttpOnly)',
      !/HttpOnly/i.test(res.headers.get('set-cookie') ?? ''),
    )

    const post = (headers, body, contentType) =>
      app.request('/submit', {
        method: 'POST',
        headers: { ...(contentType ? { 'Content-Type': contentType } : {}), ...headers },
        body,
      })
    const cookie = `XSRF-TOKEN=${encodeURIComponent(token)}`
    await t.status('POST without cookie or header → 403', await post({}), 403, 'Invalid CSRF token')
    await t.status('POST with cookie, no header → 403', await post({ Cookie: cookie }), 403)
    await t.status(
      'POST with a mismatching header → 403',
      await post({ Cookie: cookie, 'X-XSRF-Token': `${token}x` }),
      403,
    )
    await t.status(
      'POST with matching header → 200',
      await post({ Cookie: cookie, 'X-XSRF-Token': token }),
      200,
      'accepted',
    )
    await t.status(
      'POST with the token in a urlencoded _csrf field → 200',
      await post(
        { Cookie: cookie },
        `_csrf=${encodeURIComponent(token)}`,
        'application/x-www-form-urlencoded',
      ),
      200,
    )
    await t.status(
      'POST with the token in a JSON _csrf field → 200',
      await post({ Cookie: cookie }, JSON.stringify({ _csrf: token }), 'application/json'),
      200,
    )
    const form = new FormData()
    form.set('_csrf', token)
    await t.status(
      'POST with the token in a multipart _csrf field → 200',
      await post({ Cookie: cookie }, form),
      200,
    )

    // Signed tokens: a cookie this server did not sign (planted by a sibling subdomain) fails.
    const signed = new Hono()
    signed.use(
      '*',
      csrf({
        secret: 'runtime-matrix-csrf-secret-0123456789abcdef',
        origins: ['https://app.example'],
      }),
    )
    signed.get('/form', (c) => c.text(c.get('csrfToken')))
    signed.post('/submit', (c) => c.text('accepted'))
    res = await signed.request('/form')
    const good = cookieValue(res, 'XSRF-TOKEN') ?? ''
    t.match('with secret, tokens are <random>.<signature>', good, /^[^.]+\.[^.]+$/)
    const send = (tok, origin = 'https://app.example') =>
      signed.request('/submit', {
        method: 'POST',
        headers: {
          Cookie: `XSRF-TOKEN=${encodeURIComponent(tok)}`,
          'X-XSRF-Token': tok,
          Origin: origin,
        },
      })
    await t.status('signed token from an allowed Origin → 200', await send(good), 200)
    await t.status('planted unsigned token → 403', await send('planted-by-sibling-subdomain'), 403)
    const [rand] = good.split('.')
    await t.status('token with a forged signature → 403', await send(`${rand}.AAAA`), 403)
    await t.status('foreign Origin → 403', await send(good, 'https://evil.example'), 403)
  },
}
