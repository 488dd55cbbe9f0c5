import { Hono } from 'hono'
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as crypto from '../internal/crypto'
import { csrf } from './index'

// The token comparison must go through the shared constant-time compare, never `===`:
// wrap the real function so the behaviour stays the same and the calls can be counted.
vi.mock('../internal/crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../internal/crypto')>()
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) }
})

function setup() {
  const app = new Hono()
  app.use(csrf())
  app.get('/form', (c) => c.text(c.get('csrfToken')))
  app.post('/submit', (c) => c.text('ok'))
  return app
}

async function tokenCookie(app: Hono) {
  const res = await app.request('/form')
  const token = await res.text()
  const cookie = (res.headers.getSetCookie()[0] ?? '').split(';')[0] as string
  return { token, cookie }
}

afterEach(() => {
  vi.mocked(crypto.timingSafeEqual).mockClear()
})

describe('csrf: constant-time comparison', () => {
  it('compares the sent token with the cookie through timingSafeEqual when they match', async () => {
    const app = setup()
    const { token, cookie } = await tokenCookie(app)
    const res = await app.request('/submit', {
      method: 'POST',
      headers: { Cookie: cookie, 'X-XSRF-Token': token },
    })
    expect(res.status).toBe(200)
    expect(crypto.timingSafeEqual).toHaveBeenCalledWith(token, token)
  })

  it('compares a mismatching token through timingSafeEqual and rejects it', async () => {
    const app = setup()
    const { token, cookie } = await tokenCookie(app)
    const forged = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`
    const res = await app.request('/submit', {
      method: 'POST',
      headers: { Cookie: cookie, 'X-XSRF-Token': forged },
    })
    expect(res.status).toBe(403)
    expect(crypto.timingSafeEqual).toHaveBeenCalledWith(forged, token)
  })
})
