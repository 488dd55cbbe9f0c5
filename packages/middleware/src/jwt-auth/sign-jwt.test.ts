import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { signJwt } from './index'

const SECRET = 'a-test-secret-that-is-at-least-64-bytes-long-for-hs512-0123456789'
const key = new TextEncoder().encode(SECRET)

afterEach(() => {
  vi.useRealTimers()
})

describe('signJwt', () => {
  it('signs with HS256 by default, sets iat and typ, and keeps the claims', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') })
    const token = await signJwt({ sub: 'u1', role: 'admin' }, SECRET)
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' })
    const claims = decodeJwt(token)
    expect(claims).toEqual({ sub: 'u1', role: 'admin', iat: 1767225600 })
    await expect(jwtVerify(token, key)).resolves.toBeTruthy()
  })

  it.each([
    ['2h', 7200],
    ['15m', 900],
    ['7d', 604800],
    ['30 seconds', 30],
    [7200, 7200],
    [0, 0],
  ])('sets exp from expiresIn %s', async (expiresIn, seconds) => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') })
    const claims = decodeJwt(await signJwt({}, SECRET, { expiresIn }))
    expect(claims.exp).toBe(1767225600 + seconds)
  })

  it('leaves exp unset when expiresIn is not given', async () => {
    expect(decodeJwt(await signJwt({ sub: 'u' }, SECRET)).exp).toBeUndefined()
  })

  it('sets nbf, iss and aud', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') })
    const claims = decodeJwt(
      await signJwt({}, SECRET, { notBefore: 60, issuer: 'me', audience: ['a', 'b'] }),
    )
    expect(claims).toMatchObject({ nbf: 1767225660, iss: 'me', aud: ['a', 'b'] })
  })

  it.each(['HS384', 'HS512'] as const)('signs with %s', async (algorithm) => {
    const token = await signJwt({}, SECRET, { algorithm })
    expect(decodeProtectedHeader(token).alg).toBe(algorithm)
    await expect(jwtVerify(token, key, { algorithms: [algorithm] })).resolves.toBeTruthy()
  })

  it('does not mutate the payload it was given', async () => {
    const payload = { sub: 'u' }
    await signJwt(payload, SECRET, { expiresIn: '1h' })
    expect(payload).toEqual({ sub: 'u' })
  })

  it.each([
    ['an empty secret', {}, '', {}, /must not be empty/],
    ['a 5-byte secret', {}, 'short', {}, /at least 32 bytes/],
    ['a 44-byte secret for HS512', {}, 'x'.repeat(44), { algorithm: 'HS512' }, /at least 64 bytes/],
    ['alg none', {}, SECRET, { algorithm: 'none' }, /HMAC only/],
    ['an asymmetric algorithm', {}, SECRET, { algorithm: 'RS256' }, /HMAC only/],
    ['a negative expiresIn', {}, SECRET, { expiresIn: -5 }, /expiresIn/],
    ['an "ago" duration', {}, SECRET, { expiresIn: '2h ago' }, /expiresIn/],
    ['a nonsense duration', {}, SECRET, { expiresIn: 'soon' }, /expiresIn/],
    ['an infinite expiresIn', {}, SECRET, { expiresIn: Number.POSITIVE_INFINITY }, /expiresIn/],
    ['an array payload', [], SECRET, {}, /claims object/],
    ['a null payload', null, SECRET, {}, /claims object/],
    ['an unknown option', {}, SECRET, { expires: '2h' }, /unknown option/],
  ])('rejects %s with a TypeError', async (_, payload, secret, options, message) => {
    // biome-ignore lint/suspicious/noExplicitAny: deliberately wrong input
    const call = signJwt(payload as any, secret as string, options as any)
    await expect(call).rejects.toThrow(TypeError)
    await expect(call).rejects.toThrow(message)
  })
})
