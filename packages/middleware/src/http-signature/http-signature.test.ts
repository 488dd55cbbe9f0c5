import { getMiddlewareDescription } from '@palisade/shared/describe'
import { Hono } from 'hono'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type JwksServer, startJwksServer } from '../../test/jwks-server'
import { Rejection } from '../internal/outcomes/rejection'
import { MemoryNonceStore, type NonceStore } from '../internal/stores/nonce-store'
import type { SignatureAlgorithm } from './algorithms'
import { type HttpSignatureOptions, httpSignature } from './http-signature'
import { signRequest } from './sign-request'

type Pair = { privateKey: CryptoKey; publicKey: CryptoKey }
const GEN: Record<SignatureAlgorithm, () => Promise<Pair>> = {
  ed25519: () =>
    crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']) as Promise<Pair>,
  'ecdsa-p256-sha256': () =>
    crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']),
  'rsa-pss-sha512': () =>
    crypto.subtle.generateKey(
      {
        name: 'RSA-PSS',
        modulusLength: 2048,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: 'SHA-512',
      },
      true,
      ['sign', 'verify'],
    ),
  'rsa-v1_5-sha256': () =>
    crypto.subtle.generateKey(
      {
        name: 'RSASSA-PKCS1-v1_5',
        modulusLength: 2048,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: 'SHA-256',
      },
      true,
      ['sign', 'verify'],
    ),
  'hmac-sha256': async () => {
    const key = await crypto.subtle.generateKey(
      { name: 'HMAC', hash: 'SHA-256', length: 256 },
      true,
      ['sign', 'verify'],
    )
    return { privateKey: key, publicKey: key }
  },
}

const keys = new Map<string, Pair>()
beforeAll(async () => {
  for (const [alg, gen] of Object.entries(GEN)) keys.set(alg, await gen())
  keys.set('other-ed25519', await GEN.ed25519())
})
const pair = (name: string) => keys.get(name) as Pair
const lookup = (keyid: string) => keys.get(keyid)?.publicKey

function appWith(options: Partial<HttpSignatureOptions> = {}) {
  const app = new Hono()
  app.use('/api/*', httpSignature({ keys: lookup, ...options }))
  app.all('/api/*', async (c) =>
    c.json({ signature: c.get('signature'), body: await c.req.text() }),
  )
  app.onError((err, c) =>
    err instanceof Rejection
      ? c.json(
          { code: err.code, message: err.message },
          err.status,
          Object.fromEntries(err.getResponse().headers),
        )
      : c.json({ code: 'crash', message: String(err) }, 500),
  )
  return app
}
const codeOf = async (res: Response) => ((await res.json()) as { code?: string }).code

const URL_BASE = 'https://api.example/api/orders?page=2'
const body = JSON.stringify({ amount: 5, currency: 'EUR' })
const post = (url = URL_BASE, init: RequestInit = {}) =>
  new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    ...init,
  })

const send = (app: Hono, request: Request) => app.request(request)

describe('httpSignature: round trips with signRequest', () => {
  for (const alg of Object.keys(GEN) as SignatureAlgorithm[]) {
    it(`accepts a POST signed with ${alg}, the body still readable by the handler`, async () => {
      const signed = await signRequest(post(), {
        key: pair(alg).privateKey,
        keyid: alg,
        tag: 'orders',
      })
      expect(signed.headers.get('content-digest')).toMatch(/^sha-256=:/)
      const res = await send(appWith(), signed)
      expect(res.status).toBe(200)
      const json = (await res.json()) as { signature: Record<string, unknown>; body: string }
      expect(json.body).toBe(body)
      expect(json.signature).toMatchObject({ keyid: alg, alg, label: 'sig1', tag: 'orders' })
      expect(typeof json.signature.created).toBe('number')
    })
  }

  it('accepts JWKs on both sides (private JWK to sign, public JWKS object to verify)', async () => {
    const { privateKey, publicKey } = pair('ed25519')
    const priv = { ...(await crypto.subtle.exportKey('jwk', privateKey)) }
    const pub = { ...(await crypto.subtle.exportKey('jwk', publicKey)), kid: 'partner-1' }
    const signed = await signRequest(post(), { key: priv as never, keyid: 'partner-1' })
    const res = await send(appWith({ keys: { keys: [pub as never] } }), signed)
    expect(res.status).toBe(200)
  })

  it('accepts a GET with no body and no content-digest', async () => {
    const signed = await signRequest(new Request(URL_BASE), {
      key: pair('ed25519').privateKey,
      keyid: 'ed25519',
    })
    expect(signed.headers.has('content-digest')).toBe(false)
    expect((await send(appWith(), signed)).status).toBe(200)
  })

  it('picks the signature named by label among several on one message', async () => {
    const first = await signRequest(post(), {
      key: pair('other-ed25519').privateKey,
      keyid: 'unknown',
      label: 'proxy',
    })
    const both = await signRequest(first, {
      key: pair('ed25519').privateKey,
      keyid: 'ed25519',
      label: 'client',
    })
    expect(both.headers.get('signature-input')).toMatch(/^proxy=.*, client=/)
    expect((await send(appWith({ label: 'client' }), both.clone())).status).toBe(200)
    expect(await codeOf(await send(appWith({ label: 'proxy' }), both.clone()))).toBe(
      'signature_invalid',
    )
    expect(await codeOf(await send(appWith({ label: 'nope' }), both.clone()))).toBe(
      'signature_missing',
    )
  })

  it('requires the tag when one is set: another tag is no signature for this policy', async () => {
    const signed = await signRequest(post(), {
      key: pair('ed25519').privateKey,
      keyid: 'ed25519',
      tag: 'billing',
    })
    expect((await send(appWith({ tag: 'billing' }), signed.clone())).status).toBe(200)
    expect(await codeOf(await send(appWith({ tag: 'orders' }), signed))).toBe('signature_missing')
  })
})

/** A request signed with ed25519 by default, then changed by `tamper`. */
async function tampered(tamper: (r: Request) => Request | Promise<Request>, options = {}) {
  const signed = await signRequest(post(), {
    key: pair('ed25519').privateKey,
    keyid: 'ed25519',
    ...options,
  })
  return tamper(signed)
}
const rebuild = (
  r: Request,
  init: { url?: string; method?: string; body?: string; headers?: Record<string, string> },
) => {
  const headers = new Headers(r.headers)
  for (const [k, v] of Object.entries(init.headers ?? {})) headers.set(k, v)
  return new Request(init.url ?? r.url, {
    method: init.method ?? r.method,
    headers,
    body: init.body ?? body,
  })
}

describe('httpSignature: attacks', () => {
  const now = Math.floor(Date.now() / 1000)
  const cases: Array<[string, () => Promise<Request>, number, string]> = [
    [
      'a tampered method',
      () => tampered((r) => rebuild(r, { method: 'PUT' })),
      401,
      'signature_invalid',
    ],
    [
      'a tampered path',
      () => tampered((r) => rebuild(r, { url: 'https://api.example/api/refunds?page=2' })),
      401,
      'signature_invalid',
    ],
    [
      'a tampered query',
      () => tampered((r) => rebuild(r, { url: 'https://api.example/api/orders?page=3' })),
      401,
      'signature_invalid',
    ],
    [
      'another host',
      () => tampered((r) => rebuild(r, { url: 'https://evil.example/api/orders?page=2' })),
      401,
      'signature_invalid',
    ],
    [
      'a tampered body',
      () => tampered((r) => rebuild(r, { body: body.replace('5', '500') })),
      400,
      'digest_mismatch',
    ],
    [
      'a tampered Content-Digest (matching the new body)',
      async () => {
        const other = JSON.stringify({ amount: 500 })
        const digest = `sha-256=:${btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(other)))))}:`
        return tampered((r) => rebuild(r, { body: other, headers: { 'content-digest': digest } }))
      },
      401,
      'signature_invalid',
    ],
    [
      'created in the future',
      () => tampered((r) => r, { created: now + 600 }),
      401,
      'signature_invalid',
    ],
    [
      'created too long ago (past maxAgeSeconds and the clock skew)',
      () => tampered((r) => r, { created: now - 310 }),
      401,
      'signature_invalid',
    ],
    [
      'expires passed',
      () => tampered((r) => r, { created: now - 20, expires: now - 10 }),
      401,
      'signature_invalid',
    ],
    ['an unknown keyid', () => tampered((r) => r, { keyid: 'nobody' }), 401, 'signature_invalid'],
    [
      'a key of another algorithm (signed with ed25519, keyid names the ECDSA key)',
      () => tampered((r) => r, { keyid: 'ecdsa-p256-sha256' }),
      401,
      'signature_invalid',
    ],
    [
      'another ed25519 key under the same keyid',
      () => signRequest(post(), { key: pair('other-ed25519').privateKey, keyid: 'ed25519' }),
      401,
      'signature_invalid',
    ],
    [
      'alg naming HMAC over a public key (algorithm confusion)',
      async () => {
        // The attacker knows the public key and "signs" with HMAC keyed by its bytes.
        const raw = await crypto.subtle.exportKey('raw', pair('ed25519').publicKey)
        const hmac = await crypto.subtle.importKey(
          'raw',
          raw,
          { name: 'HMAC', hash: 'SHA-256' },
          false,
          ['sign'],
        )
        return signRequest(post(), { key: hmac, keyid: 'ed25519', includeAlg: true })
      },
      401,
      'signature_invalid',
    ],
    [
      'a body without content-digest coverage',
      () =>
        signRequest(post(), {
          key: pair('ed25519').privateKey,
          keyid: 'ed25519',
          components: ['@method', '@target-uri'],
        }).then((r) => {
          const headers = new Headers(r.headers)
          headers.delete('content-digest')
          return new Request(r.url, { method: 'POST', headers, body })
        }),
      401,
      'signature_invalid',
    ],
    [
      'coverage narrower than the policy (no @method)',
      () =>
        signRequest(post(), {
          key: pair('ed25519').privateKey,
          keyid: 'ed25519',
          components: ['@target-uri'],
        }),
      401,
      'signature_invalid',
    ],
    ['no signature at all', async () => post(), 401, 'signature_missing'],
    [
      'Signature without Signature-Input',
      () =>
        tampered((r) => {
          const h = new Headers(r.headers)
          h.delete('signature-input')
          return new Request(r.url, { method: 'POST', headers: h, body })
        }),
      401,
      'signature_invalid',
    ],
    [
      'a malformed Signature-Input',
      () =>
        tampered((r) =>
          rebuild(r, { headers: { 'signature-input': 'sig1=("@method" ;created=1' } }),
        ),
      401,
      'signature_invalid',
    ],
    [
      'a Signature that is no byte sequence',
      () => tampered((r) => rebuild(r, { headers: { signature: 'sig1="abc"' } })),
      401,
      'signature_invalid',
    ],
    [
      'created as a string',
      () =>
        tampered((r) =>
          rebuild(r, {
            headers: { 'signature-input': `sig1=("@method");created="${now}";keyid="ed25519"` },
          }),
        ),
      401,
      'signature_invalid',
    ],
    [
      'a duplicated Signature field (a second line with another signature)',
      () =>
        tampered((r) => {
          const h = new Headers(r.headers)
          h.append('signature', 'sig1=:AAAA:')
          return new Request(r.url, { method: 'POST', headers: h, body })
        }),
      401,
      'signature_invalid',
    ],
    [
      'a duplicated Signature-Input field',
      () =>
        tampered((r) => {
          const h = new Headers(r.headers)
          h.append('signature-input', 'sig1=("@method");created=1;keyid="ed25519"')
          return new Request(r.url, { method: 'POST', headers: h, body })
        }),
      401,
      'signature_invalid',
    ],
    [
      'an unsupported Content-Digest algorithm',
      () => tampered((r) => rebuild(r, { headers: { 'content-digest': 'md5=:AAAA:' } })),
      401,
      'signature_invalid',
    ],
    [
      'a huge Signature-Input',
      () =>
        tampered((r) =>
          rebuild(r, { headers: { 'signature-input': `sig1=(${'"a" '.repeat(4000)})` } }),
        ),
      401,
      'signature_invalid',
    ],
  ]
  it.each(cases)('refuses %s', async (_name, make, status, code) => {
    const res = await send(appWith(), await make())
    expect(res.status).toBe(status)
    const json = (await res.json()) as { code: string; message: string }
    expect(json.code).toBe(code)
    expect(json.message.length).toBeGreaterThan(10)
  })

  it('gives every invalid signature the same message and Accept-Signature, never the failed check', async () => {
    const messages = new Set<string>()
    for (const make of [
      () => tampered((r) => rebuild(r, { method: 'PUT' })),
      () => tampered((r) => r, { keyid: 'nobody' }),
      () => tampered((r) => r, { created: Math.floor(Date.now() / 1000) - 1000 }),
    ]) {
      const res = await send(appWith(), await make())
      expect(res.headers.get('accept-signature')).toBe('sig1=("@method" "@target-uri");created')
      messages.add(((await res.json()) as { message: string }).message)
    }
    expect(messages.size).toBe(1)
    expect([...messages][0]).toMatch(/RFC 9421/)
  })

  it('refuses a replayed nonce within its window, accepts a fresh one', async () => {
    const app = appWith({ nonce: new MemoryNonceStore() })
    const signed = await signRequest(post(), { key: pair('ed25519').privateKey, keyid: 'ed25519' })
    expect((await send(app, signed.clone())).status).toBe(200)
    expect(await codeOf(await send(app, signed))).toBe('signature_invalid')
    const fresh = await signRequest(post(), { key: pair('ed25519').privateKey, keyid: 'ed25519' })
    expect((await send(app, fresh)).status).toBe(200)
  })

  it('requires a nonce when a nonce store is set', async () => {
    const signed = await signRequest(post(), {
      key: pair('ed25519').privateKey,
      keyid: 'ed25519',
      nonce: false,
    })
    expect(await codeOf(await send(appWith({ nonce: new MemoryNonceStore() }), signed))).toBe(
      'signature_invalid',
    )
  })

  it('answers 503 store_unavailable when the nonce store fails (fail closed)', async () => {
    const broken: NonceStore = {
      claim: async () => {
        throw new Error('down')
      },
    }
    const signed = await signRequest(post(), { key: pair('ed25519').privateKey, keyid: 'ed25519' })
    const res = await send(appWith({ nonce: broken }), signed)
    expect(res.status).toBe(503)
    expect(await codeOf(res)).toBe('store_unavailable')
  })
})

describe('httpSignature: keys from a JWKS URL (loopback server)', () => {
  let server: JwksServer
  afterEach(async () => {
    await server?.close()
  })

  it('fetches the key by kid, verifies, and answers 503 jwks_unavailable when the server is down', async () => {
    const { privateKey, publicKey } = pair('ecdsa-p256-sha256')
    const jwk = { ...(await crypto.subtle.exportKey('jwk', publicKey)), kid: 'ec-1' }
    server = await startJwksServer([jwk as never])
    const app = appWith({ keys: server.jwksUrl })
    const signed = await signRequest(post(), { key: privateKey, keyid: 'ec-1' })
    expect((await send(app, signed)).status).toBe(200)
    const unknown = await signRequest(post(), { key: privateKey, keyid: 'ec-2' })
    expect(await codeOf(await send(app, unknown))).toBe('signature_invalid')

    server.mode = 'down'
    const other = appWith({
      keys: server.jwksUrl,
      jwksCache: { maxAgeMs: 1, maxStaleMs: 1, cooldownMs: 1 },
    })
    await new Promise((r) => setTimeout(r, 5))
    const res = await send(other, await signRequest(post(), { key: privateKey, keyid: 'ec-1' }))
    expect(res.status).toBe(503)
    expect(await codeOf(res)).toBe('jwks_unavailable')
  })

  it('never uses an RSA key whose JWK names no alg (the header would pick PSS or v1.5)', async () => {
    const { privateKey, publicKey } = pair('rsa-pss-sha512')
    const { alg: _alg, ...jwk } = {
      ...(await crypto.subtle.exportKey('jwk', publicKey)),
      kid: 'rsa-1',
    }
    server = await startJwksServer([jwk as never])
    const signed = await signRequest(post(), { key: privateKey, keyid: 'rsa-1', includeAlg: true })
    expect(await codeOf(await send(appWith({ keys: server.jwksUrl }), signed))).toBe(
      'signature_invalid',
    )
  })
})

describe('httpSignature: options and description', () => {
  it('signRequest refuses a key that disagrees with alg, an RSA JWK without alg, a missing keyid', async () => {
    const ed = pair('ed25519').privateKey
    await expect(signRequest(post(), { key: ed, keyid: 'k', alg: 'hmac-sha256' })).rejects.toThrow(
      /signRequest: "alg" is "hmac-sha256" but the key is for ed25519/,
    )
    const rsa = await crypto.subtle.exportKey('jwk', pair('rsa-pss-sha512').privateKey)
    const { alg: _alg, ...bare } = rsa
    await expect(signRequest(post(), { key: bare as never, keyid: 'k' })).rejects.toThrow(
      /RSA JWK needs "alg"/,
    )
    await expect(signRequest(post(), { key: ed, keyid: '' })).rejects.toThrow(/keyid/)
    const components = ['@method', '@target-uri']
    await signRequest(post(), { key: ed, keyid: 'k', components })
    expect(components).toEqual(['@method', '@target-uri'])
  })

  it('refuses bad options at construction', () => {
    expect(() => httpSignature({} as never)).toThrow(/httpSignature: "keys" is required/)
    expect(() => httpSignature({ keys: 42 } as never)).toThrow(/"keys" must be/)
    expect(() => httpSignature({ keys: lookup, maxAge: 3 } as never)).toThrow(/httpSignature/)
    expect(() => httpSignature({ keys: lookup, jwksCache: {} })).toThrow(
      /only when "keys" is a JWKS URL/,
    )
    expect(() => httpSignature({ keys: 'http://example.com/jwks.json' })).toThrow(/https/)
    expect(() => httpSignature({ keys: lookup, algorithms: ['none' as never] })).toThrow(
      /algorithms/,
    )
    expect(() =>
      httpSignature({ keys: { keys: [{ kty: 'RSA', kid: 'r', n: 'x', e: 'AQAB' }] } }),
    ).toThrow(/alg/)
    expect(() =>
      httpSignature({ keys: { keys: [{ kty: 'OKP', crv: 'Ed25519', x: 'a', d: 'b', kid: 'p' }] } }),
    ).toThrow(/private/)
    expect(() => httpSignature({ keys: lookup, components: ['@query-param;name='] })).toThrow(
      /components\[0\]/,
    )
    expect(() => httpSignature({ keys: lookup, dryRun: true } as never)).toThrow(/dryRun/)
  })

  it('describes itself: an apiKey scheme on Signature naming RFC 9421, and its answers', () => {
    const d = getMiddlewareDescription(
      httpSignature({ keys: lookup, nonce: { claim: async () => true } }),
    )
    const scheme = d?.security?.[0]?.[0]
    expect(scheme?.scheme).toMatchObject({ type: 'apiKey', in: 'header', name: 'Signature' })
    expect((scheme?.scheme as { description?: string } | undefined)?.description).toMatch(
      /RFC 9421/,
    )
    expect(d?.responses?.map((r) => [r.status, r.codes])).toEqual([
      [400, ['digest_mismatch']],
      [401, ['signature_missing', 'signature_invalid']],
      [503, ['store_unavailable']],
    ])
  })
})
