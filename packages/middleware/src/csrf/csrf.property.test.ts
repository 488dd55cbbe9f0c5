// Cookies, signed tokens and the header through csrf's public behaviour only (its internals
// are being reworked in parallel): any cookie/header pair is answered with 2xx or 403, never
// a 5xx, and a token csrf issued round-trips.
import fc from 'fast-check'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { base64urlText, headerValue } from '../../test/arbitraries'
import { csrf } from './index'

const SECRET = 'property-test-csrf-secret-0123456789abcdef'

function app() {
  const a = new Hono()
  a.use('*', csrf({ secret: SECRET }))
  a.get('/', (c) => c.text(c.get('csrfToken')))
  a.post('/', (c) => c.text('done'))
  return a
}

const post = (a: Hono, cookie: string, token: string) =>
  a.request('http://localhost/', {
    method: 'POST',
    body: '{}',
    headers: { cookie, 'x-xsrf-token': token, 'content-type': 'application/json' },
  })

describe('csrf cookie and token parsing: properties', () => {
  it('answers any Cookie and X-XSRF-Token pair with 200 or 403, never 5xx', async () => {
    const a = app()
    await fc.assert(
      fc.asyncProperty(headerValue(), headerValue(), async (cookie, token) => {
        expect([200, 403]).toContain((await post(a, cookie, token)).status)
      }),
    )
  })

  it('refuses matching cookie and header values it did not sign', async () => {
    const a = app()
    const forged = fc.tuple(base64urlText(50), base64urlText(50)).map(([v, s]) => `${v}.${s}`)
    await fc.assert(
      fc.asyncProperty(fc.oneof(forged, base64urlText(80)), async (token) => {
        fc.pre(token.length > 0)
        expect((await post(a, `XSRF-TOKEN=${token}`, token)).status).toBe(403)
      }),
    )
  })

  it('round-trips: the token it issued passes, a changed one does not', async () => {
    const a = app()
    await fc.assert(
      fc.asyncProperty(fc.nat(), async (at) => {
        const res = await a.request('http://localhost/')
        const token = await res.text()
        const cookie = `XSRF-TOKEN=${encodeURIComponent(token)}`
        expect((await post(a, cookie, token)).status).toBe(200)
        const i = at % token.length
        const changed = `${token.slice(0, i)}${token[i] === 'A' ? 'B' : 'A'}${token.slice(i + 1)}`
        expect((await post(a, `XSRF-TOKEN=${encodeURIComponent(changed)}`, changed)).status).toBe(
          403,
        )
      }),
      { numRuns: 40 },
    )
  })
})
