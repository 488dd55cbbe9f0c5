/**
 * jwtAuth with a JWKS against Hono's `jwk` middleware, the same JWKS served over loopback by a
 * node:http server that counts its fetches, and against the floor: a bare route plus one
 * `crypto.subtle.verify` with the already-imported public key. RS256 and ES256, a repeated token
 * and a new token every request; then how many JWKS fetches each made in 10,000 requests
 * (in batches of 100 concurrent ones).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Hono, type MiddlewareHandler } from 'hono'
import { jwk as honoJwk } from 'hono/jwk'
import { fmtRatio, measureAll, pairedRatio, settings } from '../lib/measure'
import { type Factory, loadPalisade } from '../lib/palisade'
import { addRow, addTarget, heading, skip } from '../lib/results'

const T = 'middleware'
const BASE = 'http://localhost'
const TOKENS = 2048

type Alg = 'RS256' | 'ES256'
const PARAMS: Record<Alg, { gen: RsaHashedKeyGenParams | EcKeyGenParams; sig: Algorithm }> = {
  RS256: {
    gen: {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    },
    sig: { name: 'RSASSA-PKCS1-v1_5' },
  },
  ES256: {
    gen: { name: 'ECDSA', namedCurve: 'P-256' },
    sig: { name: 'ECDSA', hash: 'SHA-256' } as EcdsaParams,
  },
}

const fromB64url = (s: string) =>
  Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))

/** A loopback JWKS server counting its fetches. */
async function jwksServer(keys: unknown[]) {
  let fetches = 0
  const server = createServer((_, res) => {
    fetches++
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`,
    get fetches() {
      return fetches
    },
    reset() {
      fetches = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function appWith(mw: MiddlewareHandler): Hono {
  const app = new Hono()
  app.use('*', mw)
  app.get('/', (c) => c.text('ok'))
  return app
}

export async function runJwks(): Promise<void> {
  const p = await loadPalisade()
  const jwtAuth = p.jwtAuth as Factory
  for (const alg of ['RS256', 'ES256'] as const) {
    const title = `jwtAuth (JWKS, ${alg}) ↔ hono/jwk ↔ subtle.verify floor`
    if (settings.filter && !settings.filter.test(title)) continue
    heading(title)
    if (!p.jwtAuth || !p.signJwt) {
      skip(`${title}: jwtAuth or signJwt not available`)
      continue
    }
    const { privateKey, publicKey } = (await crypto.subtle.generateKey(PARAMS[alg].gen, true, [
      'sign',
      'verify',
    ])) as CryptoKeyPair
    const jwk = { ...(await crypto.subtle.exportKey('jwk', publicKey)), kid: 'k1', alg, use: 'sig' }
    delete (jwk as { key_ops?: unknown }).key_ops
    delete (jwk as { ext?: unknown }).ext
    const server = await jwksServer([jwk])
    const exp = Math.floor(Date.now() / 1000) + 24 * 3600
    const sign = p.signJwt as unknown as (
      payload: unknown,
      key: CryptoKey,
      options: unknown,
    ) => Promise<string>
    const tokens: string[] = []
    for (let i = 0; i < TOKENS; i++) {
      tokens.push(await sign({ sub: `user-${i}`, exp }, privateKey, { algorithm: alg, kid: 'k1' }))
    }

    // The floor: what verifying costs with nothing else, the key imported once.
    const floor = new Hono()
    floor.get('/', async (c) => {
      const token = (c.req.header('authorization') ?? '').slice(7)
      const [h, b, s] = token.split('.') as [string, string, string]
      const ok = await crypto.subtle.verify(
        PARAMS[alg].sig,
        publicKey,
        fromB64url(s),
        new TextEncoder().encode(`${h}.${b}`),
      )
      return ok ? c.text('ok') : c.text('no', 401)
    })
    const bare = appWith(async (_, next) => next())
    const ours = appWith(jwtAuth({ jwks: server.url }))
    const hono = appWith(honoJwk({ jwks_uri: server.url, alg: [alg] }))

    for (const mode of ['same token', 'new token'] as const) {
      let k = 0
      const req =
        mode === 'same token'
          ? () => new Request(`${BASE}/`, { headers: { authorization: `Bearer ${tokens[0]}` } })
          : () =>
              new Request(`${BASE}/`, {
                headers: { authorization: `Bearer ${tokens[k++ % TOKENS]}` },
              })
      const sides: [string, Hono][] = [
        ['bare route', bare],
        [`subtle.verify floor (${alg})`, floor],
        [`palisade jwtAuth (JWKS), ${mode}`, ours],
        [`hono jwk, ${mode}`, hono],
      ]
      const cases: [string, () => Promise<Response>][] = []
      for (const [name, app] of sides) {
        const res = await app.fetch(req())
        if (res.status !== 200) skip(`${name}: answered ${res.status}`)
        else cases.push([name, () => app.fetch(req()) as Promise<Response>])
      }
      const timings = await measureAll(cases)
      const byName = new Map(timings.map((t) => [t.name, t]))
      const first = timings[0]
      for (const t of timings) {
        addRow({
          table: T,
          name: `${alg} ${t.name}`,
          ns: t.avg,
          ratio: first && t !== first ? t.avg / first.avg : undefined,
          vs: first?.name,
        })
      }
      const a = byName.get(`palisade jwtAuth (JWKS), ${mode}`)
      const f = byName.get(`subtle.verify floor (${alg})`)
      const h = byName.get(`hono jwk, ${mode}`)
      if (a && h) {
        const r = pairedRatio(a, h)
        addTarget({
          goal: `jwtAuth JWKS ${alg} (${mode}) no slower than hono/jwk`,
          measured: `${fmtRatio(r)} of Hono's time`,
          met: r <= 1.05,
        })
      }
      if (a && f && mode === 'new token') {
        const r = pairedRatio(a, f)
        addTarget({
          goal: `jwtAuth JWKS ${alg}, a new token, within 1.2x of a bare subtle.verify`,
          measured: `${fmtRatio(r)} of the floor per request`,
          met: r <= 1.2,
        })
      }
    }

    // JWKS fetches in 10,000 requests (100 batches of 100 concurrent), fresh middleware each.
    for (const [name, make] of [
      ['palisade jwtAuth (JWKS)', () => appWith(jwtAuth({ jwks: `${server.url}?fresh` }))],
      ['hono jwk', () => appWith(honoJwk({ jwks_uri: server.url, alg: [alg] }))],
    ] as const) {
      const app = make()
      server.reset()
      let ok = 0
      const start = performance.now()
      for (let batch = 0; batch < 100; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 100 }, (_, i) =>
            app.fetch(
              new Request(`${BASE}/`, {
                headers: { authorization: `Bearer ${tokens[(batch * 100 + i) % TOKENS]}` },
              }),
            ),
          ),
        )
        ok += answers.filter((r) => r.status === 200).length
      }
      const seconds = (performance.now() - start) / 1000
      addRow({
        table: T,
        name: `${alg} ${name}: JWKS fetches in 10,000 requests`,
        value: `${server.fetches} fetches, ${ok} × 200, ${seconds.toFixed(2)} s`,
      })
    }
    await server.close()
  }
}
