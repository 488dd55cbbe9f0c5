// Cookies and signed values through sessions' public behaviour only (its internals and the
// cookie signer are being reworked in parallel): any Cookie header is answered without a 5xx,
// a cookie the middleware did not sign never opens a session, and one it signed round-trips.
import fc from 'fast-check'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { base64urlText, headerValue } from '../../test/arbitraries'
import { sessions } from './index'

const SECRET = 'property-test-session-secret-0123456789abcdef'

function app() {
  const a = new Hono()
  a.use('*', sessions({ secret: SECRET }))
  a.get('/read', (c) => c.json({ user: c.get('session').get('user') ?? null }))
  a.get('/login', (c) => {
    c.get('session').set('user', c.req.query('user'))
    return c.text('ok')
  })
  return a
}

const sidOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((line) => /^sid=([^;]*)/.exec(line)?.[1])
    .find((v) => v)

describe('sessions cookie parsing: properties', () => {
  it('answers any Cookie header with a 200 and an empty session', async () => {
    const a = app()
    await fc.assert(
      fc.asyncProperty(headerValue(), async (cookie) => {
        const res = await a.request('/read', { headers: { cookie } })
        expect(res.status).toBe(200)
        expect(await res.json()).toEqual({ user: null })
      }),
    )
  })

  it('never opens a session for a forged sid of the signed shape', async () => {
    const a = app()
    const forged = fc
      .tuple(base64urlText(60), base64urlText(60), fc.constantFrom('.', '', '..', '%2E'))
      .map(([id, sig, dot]) => `${id}${dot}${sig}`)
    await fc.assert(
      fc.asyncProperty(forged, async (sid) => {
        const res = await a.request('/read', { headers: { cookie: `sid=${sid}` } })
        expect(res.status).toBe(200)
        expect(await res.json()).toEqual({ user: null })
      }),
    )
  })

  it('round-trips: a cookie it signed opens the same session, any change to it does not', async () => {
    const a = app()
    const user = fc.stringMatching(/^[A-Za-z0-9]{1,20}$/)
    await fc.assert(
      fc.asyncProperty(user, fc.nat(), async (name, at) => {
        const sid = sidOf(await a.request(`/login?user=${name}`))
        expect(sid).toBeTruthy()
        const ok = await a.request('/read', { headers: { cookie: `sid=${sid}` } })
        expect(await ok.json()).toEqual({ user: name })
        const s = sid as string
        const i = at % s.length
        const flipped = `${s.slice(0, i)}${s[i] === 'A' ? 'B' : 'A'}${s.slice(i + 1)}`
        const bad = await a.request('/read', { headers: { cookie: `sid=${flipped}` } })
        expect(await bad.json()).toEqual({ user: null })
      }),
      { numRuns: 40 },
    )
  })
})
