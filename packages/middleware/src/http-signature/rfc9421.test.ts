/**
 * RFC 9421 Appendix B: every example's signature base is rebuilt exactly from the RFC's message,
 * and every example signature verifies with the RFC's public key (B.2.1–B.2.6); the request
 * examples also pass through the middleware where their coverage meets its policy.
 */
import { Hono } from 'hono'
import { parseDictionary } from 'structured-headers'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { algorithmOfJwk, importJwk, verifyBytes } from './algorithms'
import { signatureBase } from './components'
import { checkContentDigest } from './digest'
import { httpSignature } from './http-signature'
import { parseSignatures } from './parse'
import {
  RFC_EXAMPLES,
  RFC_PUBLIC_KEYS,
  RFC_REQUEST,
  RFC_RESPONSE,
  RFC_SHARED_SECRET,
} from './rfc9421-examples'

const encoder = new TextEncoder()

/** The verification key of an example: the RFC names RSA keys' algorithm in prose, so say it. */
function verificationJwk(keyid: string) {
  if (keyid === 'test-shared-secret') {
    const k = btoa(atob(RFC_SHARED_SECRET))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '')
    return { kty: 'oct', kid: keyid, k, alg: 'HS256' }
  }
  const jwk = RFC_PUBLIC_KEYS[keyid]
  if (!jwk) throw new Error(`no key ${keyid}`)
  return keyid === 'test-key-rsa-pss' ? { ...jwk, alg: 'PS512' } : jwk
}

const requestMessage = {
  method: RFC_REQUEST.method,
  url: new URL(RFC_REQUEST.url),
  headers: new Headers(RFC_REQUEST.headers),
}
const responseMessage = { status: RFC_RESPONSE.status, headers: new Headers(RFC_RESPONSE.headers) }

describe('RFC 9421 Appendix B.2', () => {
  for (const [name, example] of Object.entries(RFC_EXAMPLES)) {
    it(`${name}: rebuilds the signature base exactly and verifies the RFC's signature`, async () => {
      const [parsed] = parseSignatures(example.signatureInput, example.signature)
      expect(parsed).toBeDefined()
      if (!parsed) return
      const message = name === 'B.2.4' ? responseMessage : requestMessage
      const base = signatureBase(message, parsed.input)
      expect(base).toBe(example.base)
      const jwk = verificationJwk(example.keyid)
      const alg = algorithmOfJwk(jwk)
      expect(alg).toBeDefined()
      if (!alg) return
      const key = await importJwk(jwk, alg, 'verify')
      expect(await verifyBytes(alg, key, parsed.signature, encoder.encode(base))).toBe(true)
      // One changed byte of the base, and the same signature fails.
      const tampered = encoder.encode(base.replace('created=1618884473', 'created=1618884474'))
      expect(await verifyBytes(alg, key, parsed.signature, tampered)).toBe(false)
    })
  }

  it('B.2: the test messages carry the Content-Digest of their bodies (sha-512, RFC 9530)', async () => {
    expect(
      await checkContentDigest(
        RFC_REQUEST.headers['content-digest'] as string,
        encoder.encode(RFC_REQUEST.body),
      ),
    ).toBe('match')
    expect(
      await checkContentDigest(
        RFC_REQUEST.headers['content-digest'] as string,
        encoder.encode('{"hello": "World"}'),
      ),
    ).toBe('mismatch')
  })
})

describe('RFC 9421 Appendix B.2 through httpSignature', () => {
  beforeEach(() => {
    // The examples were created at 1618884473 (2021-04-20): the clock is set ten seconds later.
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime((1618884473 + 10) * 1000)
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  const keys = {
    keys: Object.keys(RFC_EXAMPLES).map((n) =>
      verificationJwk((RFC_EXAMPLES[n] as { keyid: string }).keyid),
    ),
  }
  const unique = {
    keys: keys.keys.filter((k, i) => keys.keys.findIndex((o) => o.kid === k.kid) === i),
  }

  // The same request without its body: a Content-Digest of the absent body would not match.
  const { 'content-digest': _digest, ...withoutDigest } = RFC_REQUEST.headers

  function send(name: string, mw: ReturnType<typeof httpSignature>) {
    const example = RFC_EXAMPLES[name] as { signatureInput: string; signature: string }
    const app = new Hono()
    app.post('/foo', mw, async (c) =>
      c.json({ signature: c.get('signature'), body: await c.req.json() }),
    )
    return app.request(RFC_REQUEST.url, {
      method: 'POST',
      headers: {
        ...RFC_REQUEST.headers,
        'signature-input': example.signatureInput,
        signature: example.signature,
      },
      body: RFC_REQUEST.body,
    })
  }

  it('B.2.3 (full coverage, rsa-pss-sha512) passes the default policy; the body stays readable', async () => {
    const res = await send('B.2.3', httpSignature({ keys: unique }))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      signature: {
        keyid: 'test-key-rsa-pss',
        alg: 'rsa-pss-sha512',
        created: 1618884473,
        label: 'sig-b23',
      },
      body: { hello: 'world' },
    })
  })

  it('B.2.2 (selective, tag header-example) passes a policy asking for @authority and the tag', async () => {
    const mw = httpSignature({
      keys: unique,
      components: ['@authority', '@query-param;name="Pet"'],
      tag: 'header-example',
    })
    const res = await send('B.2.2', mw)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { signature: { tag: string } }).signature.tag).toBe(
      'header-example',
    )
  })

  it('B.2.1, B.2.5 and B.2.6 verify, yet are refused: they do not cover content-digest of the body', async () => {
    for (const name of ['B.2.1', 'B.2.5', 'B.2.6']) {
      const res = await send(name, httpSignature({ keys: unique, components: [] }))
      expect(res.status, name).toBe(401)
    }
  })

  it('B.2.6 (ed25519) passes on the same request without a body, where content-digest is not needed', async () => {
    const example = RFC_EXAMPLES['B.2.6'] as { signatureInput: string; signature: string }
    const app = new Hono()
    app.on('POST', '/foo', httpSignature({ keys: unique }), (c) => c.json(c.get('signature')))
    const res = await app.request(RFC_REQUEST.url, {
      method: 'POST',
      headers: {
        ...withoutDigest,
        'signature-input': example.signatureInput,
        signature: example.signature,
      },
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ keyid: 'test-key-ed25519', alg: 'ed25519' })
  })

  it('B.2.5 (hmac-sha256) passes without a body under a policy of what it covers', async () => {
    const example = RFC_EXAMPLES['B.2.5'] as { signatureInput: string; signature: string }
    const app = new Hono()
    app.post('/foo', httpSignature({ keys: unique, components: ['@authority', 'date'] }), (c) =>
      c.json(c.get('signature')),
    )
    const res = await app.request(RFC_REQUEST.url, {
      method: 'POST',
      headers: {
        ...withoutDigest,
        'signature-input': example.signatureInput,
        signature: example.signature,
      },
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ alg: 'hmac-sha256' })
  })

  it('the fields parse as RFC 9651 Dictionaries with the library, as the middleware reads them', () => {
    for (const example of Object.values(RFC_EXAMPLES)) {
      expect(parseDictionary(example.signatureInput).size).toBe(1)
      expect(parseDictionary(example.signature).size).toBe(1)
    }
  })
})
