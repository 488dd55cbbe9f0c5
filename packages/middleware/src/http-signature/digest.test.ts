/**
 * Content-Digest against the body read: sha-256 of a body up to 16 KiB is computed synchronously
 * in JavaScript, longer bodies and sha-512 through WebCrypto. Both paths must give WebCrypto's
 * answer, on either side of the limit.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkContentDigest, contentDigest } from './digest'

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))

async function field(name: 'sha-256' | 'sha-512', body: Uint8Array<ArrayBuffer>, flip = -1) {
  const hash = name === 'sha-256' ? 'SHA-256' : 'SHA-512'
  const digest = new Uint8Array(await crypto.subtle.digest(hash, body))
  if (flip >= 0) {
    const at = flip % digest.length
    digest[at] = (digest[at] as number) ^ 1
  }
  return `${name}=:${b64(digest)}:`
}

/** Bodies around the 16 KiB limit of the synchronous hash, and small ones. */
const bodies = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  fc
    .integer({ min: 16_384 - 70, max: 16_384 + 70 })
    .chain((n) => fc.uint8Array({ minLength: n, maxLength: n })),
)

describe('checkContentDigest', () => {
  it('matches the WebCrypto sha-256 of any body, and refuses it with one bit flipped', async () => {
    await fc.assert(
      fc.asyncProperty(bodies, fc.nat(), async (bytes, flip) => {
        const body = new Uint8Array(bytes)
        expect(await checkContentDigest(await field('sha-256', body), body)).toBe('match')
        expect(await checkContentDigest(await field('sha-256', body, flip), body)).toBe('mismatch')
      }),
      { numRuns: 60 },
    )
  })

  it('checks sha-512 and sha-256 together, each against the body', async () => {
    const body = new TextEncoder().encode('{"hello": "world"}')
    const both = `${await field('sha-256', body)}, ${await field('sha-512', body)}`
    expect(await checkContentDigest(both, body)).toBe('match')
    const bad512 = `${await field('sha-256', body)}, ${await field('sha-512', body, 3)}`
    expect(await checkContentDigest(bad512, body)).toBe('mismatch')
  })

  it('checks a body over the synchronous limit through WebCrypto', async () => {
    const body = new Uint8Array(100_000).fill(7)
    expect(await checkContentDigest(await contentDigest(body), body)).toBe('match')
    const other = body.slice()
    other[99_999] = 8
    expect(await checkContentDigest(await contentDigest(body), other)).toBe('mismatch')
  })

  it('matches the RFC 9530 example', async () => {
    const body = new TextEncoder().encode('{"hello": "world"}')
    expect(
      await checkContentDigest('sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:', body),
    ).toBe('match')
  })
})
