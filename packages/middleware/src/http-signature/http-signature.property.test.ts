/**
 * Robustness of the header parsing: whatever a client puts in Signature, Signature-Input and
 * Content-Digest (arbitrary text, or structured text built to look almost right), httpSignature
 * answers 400 or 401 with a code, never a 500 or a crash. And a signature made by signRequest over
 * arbitrary paths, queries, bodies and covered headers verifies, and stops verifying when one
 * byte of the body changes.
 */
import fc from 'fast-check'
import { Hono } from 'hono'
import { beforeAll, describe, expect, it } from 'vitest'
import { headerValue } from '../../test/arbitraries'
import { Rejection } from '../internal/outcomes/rejection'
import { httpSignature } from './http-signature'
import { parseSignatures, SignatureSyntaxError } from './parse'
import { signRequest } from './sign-request'

let pair: CryptoKeyPair
beforeAll(async () => {
  pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
})

function app() {
  const a = new Hono()
  a.all('/*', httpSignature({ keys: () => pair.publicKey }), (c) => c.text('ok'))
  a.onError((err, c) =>
    c.text(err instanceof Rejection ? `${err.status} ${err.code}` : `crash ${String(err)}`, 500),
  )
  return a
}

/** Text shaped like a Signature-Input member, with random parts. */
const almostInput = fc
  .tuple(
    fc.constantFrom('sig1', 'a', 'sig-b21', 'x*', ''),
    fc.array(
      fc.constantFrom(
        '"@method"',
        '"@path"',
        '"@query-param";name="a"',
        '"content-digest"',
        '"x";key="y"',
        '"@status"',
        '"date";sf',
        '@path',
        '1',
        '"@query-param"',
      ),
      { maxLength: 5 },
    ),
    fc.array(
      fc.constantFrom(
        ';created=1700000000',
        `;created=${Math.floor(Date.now() / 1000)}`,
        ';created="1"',
        ';created=1.5',
        ';keyid="k"',
        ';keyid=k',
        ';expires=1',
        ';nonce="n"',
        ';alg="ed25519"',
        ';tag=?1',
        ';',
      ),
      { maxLength: 5 },
    ),
  )
  .map(([label, items, params]) => `${label}=(${items.join(' ')})${params.join('')}`)

const almostSignature = fc
  .tuple(
    fc.constantFrom('sig1', 'a', ''),
    fc.constantFrom(':AAAA:', ':', '"x"', ':!!:', '?1', '(:AA==:)', ''),
  )
  .map(([label, value]) => `${label}=${value}`)

describe('httpSignature header parsing (property)', () => {
  it('answers 400 or 401 with a code to any Signature / Signature-Input / Content-Digest', async () => {
    const a = app()
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(headerValue(), almostInput),
        fc.oneof(headerValue(), almostSignature),
        fc.option(
          fc.oneof(headerValue(), fc.constantFrom('sha-256=:AAAA:', 'sha-512=:', 'sha-256=?0')),
          { nil: undefined },
        ),
        fc.boolean(),
        async (input, signature, digest, withBody) => {
          const headers: Record<string, string> = { 'signature-input': input, signature }
          if (digest !== undefined) headers['content-digest'] = digest
          const res = await a.request('https://api.example/p?q=1', {
            method: withBody ? 'POST' : 'GET',
            headers,
            ...(withBody ? { body: 'hello' } : {}),
          })
          const text = await res.text()
          expect(text).toMatch(/^(400 digest_mismatch|401 signature_(invalid|missing))$/)
        },
      ),
      { numRuns: 400 },
    )
  })

  it('parseSignatures throws nothing but SignatureSyntaxError', () => {
    fc.assert(
      fc.property(
        fc.oneof(headerValue(), almostInput),
        fc.oneof(headerValue(), almostSignature),
        (input, signature) => {
          try {
            parseSignatures(input, signature)
          } catch (err) {
            expect(err).toBeInstanceOf(SignatureSyntaxError)
          }
        },
      ),
      { numRuns: 3000 },
    )
  })
})

const pathSegment = fc.string({
  unit: fc.constantFrom(...'abcXYZ019-._~%20é'.split(''), 'ü', '+', '=', '&'),
  minLength: 1,
  maxLength: 8,
})

describe('signRequest → httpSignature (property)', () => {
  it('verifies any signed path, query, body and covered header, and refuses a changed body byte', async () => {
    const a = app()
    await fc.assert(
      fc.asyncProperty(
        fc.array(pathSegment, { minLength: 1, maxLength: 3 }),
        fc.array(fc.tuple(pathSegment, pathSegment), { maxLength: 3 }),
        fc.uint8Array({ minLength: 1, maxLength: 300 }),
        headerValue(40).filter((v) => v.trim() === v && v.length > 0),
        async (segments, query, body, headerText) => {
          const search = new URLSearchParams(query).toString()
          const url = `https://api.example/${segments.map(encodeURIComponent).join('/')}${search ? `?${search}` : ''}`
          const request = new Request(url, {
            method: 'PUT',
            headers: { 'x-meta': headerText },
            body,
          })
          const signed = await signRequest(request, {
            key: pair.privateKey,
            keyid: 'k',
            components: ['@method', '@target-uri', 'x-meta'],
          })
          const ok = await a.request(signed.clone())
          expect(await ok.text()).toBe('ok')
          const changed = new Uint8Array(body)
          changed[0] = (changed[0] as number) ^ 1
          const tampered = new Request(signed.url, {
            method: 'PUT',
            headers: signed.headers,
            body: changed,
          })
          expect(await (await a.request(tampered)).text()).toBe('400 digest_mismatch')
        },
      ),
      { numRuns: 150 },
    )
  })
})
