// bearer.ts at its edges: the exact answers of schemeToken for both schemes (the fast path's
// length check, tabs, a scheme with nothing after it), and what jwtAuth answers for duplicated
// Authorization headers, which a fetch Headers joins with ", ".
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { bearerToken, INVALID_REQUEST, schemeToken } from './bearer'
import { jwtAuth } from './index'

describe('schemeToken: exact answers', () => {
  it.each([
    ['Bearer t', 't'],
    ['Bearer\tt', 't'],
    ['Bearer \t t', 't'],
    ['Bearer t\t', 't'],
    ['\tBearer t', 't'],
    ['BEARER t', 't'],
    ['Bearer a,b', 'a,b'],
    ['Bearer  ', INVALID_REQUEST],
    ['Bearer\t', INVALID_REQUEST],
    ['Bearer a, Bearer b', INVALID_REQUEST],
    ['Bearer a\tb', INVALID_REQUEST],
    ['', undefined],
    [' ', undefined],
    ['Bearer:t', undefined],
    ['Bear t', undefined],
    ['DPoP t', undefined],
  ])('Bearer: %j → %s', (header, expected) => {
    expect(bearerToken(header)).toBe(expected)
    expect(schemeToken(header, 'bearer')).toBe(expected)
  })

  it.each([
    ['DPoP t', 't'],
    ['dpop t', 't'],
    ['DPOP  t', 't'],
    ['DPoP ', INVALID_REQUEST],
    ['DPoP', INVALID_REQUEST],
    ['DPoP a b', INVALID_REQUEST],
    ['DPoPt', undefined],
    ['Bearer t', undefined],
    ['DPo t', undefined],
  ])('DPoP: %j → %s', (header, expected) => {
    expect(schemeToken(header, 'dpop')).toBe(expected)
  })

  it('hands the token back exactly, however long, without whitespace of its own', () => {
    const token = 'a'.repeat(10_000)
    expect(bearerToken(`Bearer ${token}`)).toBe(token)
    expect(bearerToken(`bearer ${token} `)).toBe(token)
  })
})

describe('jwtAuth and the Authorization header', () => {
  const app = new Hono()
  app.use(jwtAuth({ secret: 'k'.repeat(32) }))
  app.get('/', (c) => c.text('ok'))
  const challenge = (res: Response) => res.headers.get('www-authenticate')

  it('answers invalid_request for two Authorization headers, however they are spelled', async () => {
    for (const pairs of [
      [
        ['authorization', 'Bearer a.b.c'],
        ['authorization', 'Bearer d.e.f'],
      ],
      [
        ['Authorization', 'Bearer a.b.c'],
        ['authorization', 'Bearer a.b.c'],
      ],
    ]) {
      const headers = new Headers()
      for (const [name, value] of pairs) headers.append(name as string, value as string)
      const res = await app.request('/', { headers })
      expect(res.status).toBe(401)
      expect(challenge(res)).toBe('Bearer realm="api", error="invalid_request"')
    }
  })

  it('answers invalid_token for a token with a comma in it, and no token for a DPoP scheme it does not take', async () => {
    const comma = await app.request('/', { headers: { Authorization: 'Bearer a.b.c,d' } })
    expect(comma.status).toBe(401)
    expect(challenge(comma)).toBe('Bearer realm="api", error="invalid_token"')
    const dpop = await app.request('/', { headers: { Authorization: 'DPoP a.b.c' } })
    expect(dpop.status).toBe(401)
    expect(challenge(dpop)).toBe('Bearer realm="api"')
  })
})
