// jwtAuth with a JWKS on every runtime: public-key algorithms, one fetch for concurrent requests,
// kid rotation, max age, an outage (stale keys, then 503) and hostile providers (a hang, 10 MB,
// 10,000 keys), all bounded. The provider is a Hono app served on loopback by the runtime's own
// HTTP server; a Worker cannot listen or reach loopback, so there it answers through jwtAuth's
// `fetch` option (the outbound-fetch hook) in-process.
import { listen } from './server.mjs'

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

async function keyPair(alg, params) {
  const { privateKey, publicKey } = await crypto.subtle.generateKey(params, true, [
    'sign',
    'verify',
  ])
  return { alg, privateKey, publicKey, jwk: await crypto.subtle.exportKey('jwk', publicKey) }
}

export default {
  name: 'jwks',
  from: '@palisade/middleware/jwt-auth',
  exports: ['jwtAuth', 'signJwt'],
  async run({ mod: { jwtAuth, signJwt }, Hono, t, runtime }) {
    const rsa = await keyPair('RS256', {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    })
    const keys = [
      rsa,
      await keyPair('ES256', { name: 'ECDSA', namedCurve: 'P-256' }),
      await keyPair('ES384', { name: 'ECDSA', namedCurve: 'P-384' }),
      await keyPair('EdDSA', { name: 'Ed25519' }),
    ]
    // PS256 with the same RSA material, as its own JWKS entry.
    const rsaPrivate = await crypto.subtle.exportKey('jwk', rsa.privateKey)
    const published = (k, kid) => {
      const { kty, crv, x, y, n, e } = k.jwk
      return Object.fromEntries(
        Object.entries({ kty, crv, x, y, n, e, kid, alg: k.alg, use: 'sig' }).filter(
          ([, v]) => v !== undefined,
        ),
      )
    }
    const jwk = (k) => published(k, `kid-${k.alg}`)

    // The provider: counts JWKS fetches, and can be down, hang, or answer huge or many keys.
    const state = { keys: [...keys.map(jwk), { ...jwk(rsa), kid: 'kid-PS256', alg: 'PS256' }] }
    let mode = 'ok'
    let fetches = 0
    let movedFetches = 0
    const hung = []
    const provider = new Hono()
    // Where a redirecting provider points: a valid JWKS that must never be fetched.
    provider.get('/moved/jwks.json', (c) => {
      movedFetches++
      return c.json({ keys: state.keys })
    })
    provider.get('/jwks.json', (c) => {
      fetches++
      if (mode === 'down') return c.text('down', 503)
      if (mode === 'redirect') return c.redirect(`${base}/moved/jwks.json`, 302)
      if (mode === 'created') return c.json({ keys: state.keys }, 201)
      // Hangs until the case ends (Deno's graceful shutdown waits for every open request).
      if (mode === 'hang') return new Promise((resolve) => hung.push(() => resolve(c.text('late'))))
      if (mode === 'many') {
        return c.json({
          keys: Array.from({ length: 10_000 }, (_, i) => ({ ...jwk(rsa), kid: `k${i}` })),
        })
      }
      if (mode === 'huge') {
        let sent = 0
        const chunk = new TextEncoder().encode(`${'x'.repeat(65_535)},`)
        const body = new ReadableStream({
          pull(controller) {
            if (sent >= 10 * 1024 * 1024) return controller.close()
            sent += chunk.byteLength
            controller.enqueue(chunk)
          },
        })
        return new Response(body, { headers: { 'content-type': 'application/json' } })
      }
      return c.json({ keys: state.keys })
    })
    // OpenID discovery for the provider-shaped recipes below: the issuer is the path before the
    // well-known suffix (Auth0's issuer is the origin with a trailing slash).
    provider.get('*', (c) => {
      const suffix = '/.well-known/openid-configuration'
      if (!c.req.path.endsWith(suffix)) return c.notFound()
      const prefix = c.req.path.slice(0, -suffix.length)
      return c.json({ issuer: `${base}${prefix || '/'}`, jwks_uri: `${base}/jwks.json?discovered` })
    })

    let server
    let base
    let viaHook
    if (runtime === 'workerd') {
      base = 'https://idp.example'
      viaHook = (url, init) => provider.fetch(new Request(url, init))
    } else {
      server = await listen(provider, runtime)
      base = `http://127.0.0.1:${server.port}`
    }
    let path = 0
    // A fresh URL per app: two apps on one URL (and settings) would share one cache.
    const appWith = (cache = {}, more = {}) => {
      const options = { jwks: `${base}/jwks.json?app=${path++}`, jwksCache: cache, ...more }
      if (viaHook) options.fetch = viaHook
      const app = new Hono()
      app.use('/me', jwtAuth(options))
      app.get('/me', (c) => c.json(c.get('jwtPayload')))
      return app
    }
    const call = (app, token) =>
      app.request('/me', { headers: { Authorization: `Bearer ${token}` } })
    const sign = (k, claims = {}, kid = `kid-${k.alg}`) =>
      signJwt({ sub: 'u1', ...claims }, k.privateKey, { kid, expiresIn: '5m' })

    try {
      let app = appWith()
      t.equal('nothing is fetched at construction', fetches, 0)
      for (const k of keys) {
        await t.status(`${k.alg} token verifies from the JWKS`, await call(app, await sign(k)), 200)
      }
      const ps = await signJwt(
        { sub: 'u1' },
        { ...rsaPrivate, alg: 'PS256' },
        {
          kid: 'kid-PS256',
          expiresIn: '5m',
        },
      )
      await t.status('PS256 token verifies from the JWKS', await call(app, ps), 200)
      t.equal('one JWKS fetch for all of them', fetches, 1)

      // HS256 MACed with the public key bytes, relabelled RS256 with the RSA kid: refused.
      const good = await sign(rsa)
      const [, body] = good.split('.')
      const hs = await signJwt({ sub: 'admin' }, new TextEncoder().encode(JSON.stringify(rsa.jwk)))
      const confused = [
        ['HS256 MACed with the public JWK bytes → 401', `${hs}`],
        [
          'the same MAC relabelled RS256 with the RSA kid → 401',
          `${btoa(JSON.stringify({ alg: 'RS256', kid: 'kid-RS256' })).replace(/=+$/, '')}.${body}.${hs.split('.')[2]}`,
        ],
      ]
      for (const [label, token] of confused) t.equal(label, (await call(app, token)).status, 401)

      // Tokens shaped like each identity provider's, verified with the docs' recipe for it
      // (packages/middleware/src/jwt-auth/providers.test.ts has the full table on Node).
      const [rs, es] = keys
      const providers = [
        {
          name: 'Auth0',
          key: rs,
          typ: 'at+jwt',
          options: {
            issuer: `${base}/`,
            discovery: true,
            audience: 'https://api.example.com',
            typ: 'at+jwt',
            scopes: ['read:items'],
          },
          claims: {
            iss: `${base}/`,
            aud: ['https://api.example.com', `${base}/userinfo`],
            azp: 'spa',
            scope: 'openid read:items',
          },
          bad: [
            'another audience',
            { iss: `${base}/`, aud: 'https://other.example.com', scope: 'read:items' },
            401,
          ],
        },
        {
          name: 'Clerk',
          key: rs,
          options: {
            jwks: `${base}/jwks.json?clerk`,
            issuer: 'https://clerk.example.com',
            azp: ['https://app.example.com'],
          },
          claims: {
            iss: 'https://clerk.example.com',
            azp: 'https://app.example.com',
            sid: 'sess_1',
          },
          bad: [
            'another origin (azp)',
            { iss: 'https://clerk.example.com', azp: 'https://evil.example' },
            401,
          ],
        },
        {
          name: 'Supabase',
          key: es,
          options: {
            jwks: `${base}/jwks.json?supabase`,
            issuer: 'https://ref.supabase.co/auth/v1',
            audience: 'authenticated',
          },
          claims: {
            iss: 'https://ref.supabase.co/auth/v1',
            aud: 'authenticated',
            role: 'authenticated',
          },
          bad: [
            'an anon token',
            { iss: 'https://ref.supabase.co/auth/v1', aud: 'anon', role: 'anon' },
            401,
          ],
        },
        {
          name: 'Cognito',
          key: rs,
          options: {
            jwks: `${base}/jwks.json?cognito`,
            issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_A',
            claims: { token_use: 'access', client_id: 'c1' },
            scopes: ['items/read'],
          },
          claims: {
            iss: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_A',
            token_use: 'access',
            client_id: 'c1',
            scope: 'aws.cognito.signin.user.admin items/read',
          },
          bad: [
            'an ID token (token_use id)',
            {
              iss: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_A',
              token_use: 'id',
              aud: 'c1',
              scope: 'items/read',
            },
            401,
          ],
        },
        {
          name: 'Firebase',
          key: rs,
          options: {
            jwks: `${base}/jwks.json?firebase`,
            issuer: 'https://securetoken.google.com/my-project',
            audience: 'my-project',
            requireExp: true,
          },
          claims: {
            iss: 'https://securetoken.google.com/my-project',
            aud: 'my-project',
            user_id: 'u1',
          },
          bad: [
            'another project',
            { iss: 'https://securetoken.google.com/other', aud: 'other' },
            401,
          ],
        },
        {
          name: 'Keycloak',
          key: rs,
          options: {
            issuer: `${base}/realms/acme`,
            discovery: true,
            azp: 'orders-frontend',
            scopes: ['orders'],
          },
          claims: {
            iss: `${base}/realms/acme`,
            aud: 'account',
            azp: 'orders-frontend',
            scope: 'openid orders',
          },
          bad: [
            'no orders scope',
            { iss: `${base}/realms/acme`, azp: 'orders-frontend', scope: 'openid' },
            403,
          ],
        },
        {
          name: 'Entra ID',
          key: rs,
          options: {
            issuer: `${base}/tenant-1/v2.0`,
            discovery: true,
            audience: 'api-1',
            scopes: ['access_as_user'],
          },
          claims: {
            iss: `${base}/tenant-1/v2.0`,
            aud: 'api-1',
            azp: 'client-1',
            scp: 'User.Read access_as_user',
            ver: '2.0',
          },
          bad: [
            'another tenant',
            { iss: `${base}/tenant-2/v2.0`, aud: 'api-1', scp: 'access_as_user' },
            401,
          ],
        },
      ]
      for (const p of providers) {
        const options = viaHook ? { ...p.options, fetch: viaHook } : p.options
        const papp = new Hono()
        papp.use('/me', jwtAuth(options))
        papp.get('/me', (c) => c.json(c.get('jwtPayload')))
        const tokenOf = (claims) =>
          signJwt(claims, p.key.privateKey, {
            kid: `kid-${p.key.alg}`,
            expiresIn: '5m',
            ...(p.typ ? { typ: p.typ } : {}),
          })
        await t.status(
          `${p.name}-shaped token verifies`,
          await call(papp, await tokenOf({ sub: 'u1', ...p.claims })),
          200,
        )
        const [label, claims, status] = p.bad
        t.equal(
          `${p.name}: ${label} → ${status}`,
          (await call(papp, await tokenOf({ sub: 'u1', ...claims }))).status,
          status,
        )
      }

      fetches = 0
      app = appWith()
      const token = await sign(keys[1])
      const results = await Promise.all(Array.from({ length: 20 }, () => call(app, token)))
      t.ok(
        '20 concurrent first requests all pass',
        results.every((r) => r.status === 200),
      )
      t.equal('20 concurrent first requests make one fetch', fetches, 1)

      // Rotation: a new kid is picked up with one fetch (after the cooldown).
      fetches = 0
      app = appWith({ cooldownMs: 20, maxAgeMs: 500 })
      await t.status('before rotation', await call(app, await sign(keys[1])), 200)
      const next = await keyPair('ES256', { name: 'ECDSA', namedCurve: 'P-256' })
      state.keys = [...state.keys, published(next, 'next')]
      await sleep(30)
      await t.status('a new kid verifies', await call(app, await sign(next, {}, 'next')), 200)
      t.equal('the new kid cost one fetch', fetches, 2)
      // Removal: a key the provider dropped stops verifying after max age.
      state.keys = [published(next, 'next')]
      const old = await sign(keys[1])
      await t.status('a removed key still verifies within max age', await call(app, old), 200)
      await sleep(550)
      await t.status('a removed key stops verifying after max age', await call(app, old), 401)

      // Outage: stale keys keep working up to maxStaleMs past max age, then 503.
      state.keys = keys.map(jwk)
      app = appWith({ maxAgeMs: 100, cooldownMs: 10, maxStaleMs: 600 })
      const stale = await sign(keys[3])
      await t.status('fresh keys', await call(app, stale), 200)
      mode = 'down'
      await sleep(150)
      await t.status('provider down: stale keys still verify', await call(app, stale), 200)
      await sleep(650)
      const down = await call(app, stale)
      t.equal('provider down past maxStaleMs → 503', down.status, 503)
      mode = 'ok'

      // Hostile providers: bounded, never a hang.
      for (const hostile of ['hang', 'huge', 'many']) {
        mode = hostile
        app = appWith({ timeoutMs: 300 })
        const start = Date.now()
        const res = await call(app, await sign(keys[1]))
        const ms = Date.now() - start
        t.ok(
          `a provider answering ${hostile} → 503 within 3 s`,
          res.status === 503 && ms < 3000,
          `${res.status} after ${ms} ms`,
        )
      }
      mode = 'ok'

      // Only a 200 from the URL itself: a redirect to a valid JWKS is never followed, a 201 with
      // one is refused, and the cause reaches onKeySetError (the client sees a bare 503).
      for (const [answer, status] of [
        ['redirect', '302'],
        ['created', '201'],
      ]) {
        mode = answer
        const causes = []
        app = appWith({}, { onKeySetError: (error) => causes.push(error.message) })
        const res = await call(app, await sign(keys[1]))
        t.equal(`a provider answering ${status} → 503`, res.status, 503)
        t.ok(
          `the ${status} is named to onKeySetError`,
          causes.length === 1 && causes[0].includes(`answered ${status}`),
          JSON.stringify(causes),
        )
      }
      t.equal('the redirect target is never fetched', movedFetches, 0)
      mode = 'ok'
    } finally {
      for (const release of hung) release()
      await server?.close()
    }
  },
}
