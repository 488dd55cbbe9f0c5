// The openapi side of the internals switch (issue 37, point 3; ARCHITECTURE.md "Borrowed
// internals"): with `globalThis.__PALISADE_NO_INTERNALS__ = true`, the same app built the same way
// gives the same document and the same answers (base path, error handler set through onError,
// the response check without the c.json override); what needs the internals says so (audit
// refuses, an error handler set before wrapping is named in a warning), never differs silently.
import { Hono } from 'hono'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { jwtAuth, problemHandler, rateLimit } from '../../packages/middleware/src'
import { openapi } from '../../packages/openapi/src'
import { audit } from '../../packages/openapi/src/audit'
import { internalsSwitchedOff } from '../../packages/shared/src/internals'

const info = { title: 'Switch', version: '1.0.0' }
const secret = 'a-development-secret-of-32-bytes!'
const initial = internalsSwitchedOff()

function setSwitch(off: boolean): void {
  Object.assign(globalThis, { __PALISADE_NO_INTERNALS__: off })
}
afterEach(() => setSwitch(initial))

/** `build()` run with the internals on, then switched off: both results. */
async function onAndOff<T>(build: () => Promise<T> | T): Promise<[T, T]> {
  setSwitch(false)
  const on = await build()
  setSwitch(true)
  const off = await build()
  return [on, off]
}

const User = z.object({ id: z.string(), name: z.string().min(1) })
const responses = {
  200: { description: 'user', schema: User },
  201: { description: 'made', schema: User },
}

/** The answers one app gives, as text: status, content type and body of each request. */
async function answers(api: { request: (path: string) => Promise<Response> | Response }) {
  const out: string[] = []
  for (const path of ['/v1/ok', '/v1/leaky', '/v1/broken', '/v1/status', '/v1/undeclared']) {
    const res = await api.request(path)
    out.push(`${path} ${res.status} ${res.headers.get('content-type')} ${await res.text()}`)
  }
  return out
}

function responseApp(mode: 'strip' | 'strict' | 'report') {
  const issues: string[] = []
  const api = openapi(new Hono().basePath('/v1'), {
    info,
    responseValidation: mode,
    onResponseValidationError: (issue) => {
      issues.push(`${issue.kind} ${issue.status} ${JSON.stringify(issue.errors)}`)
    },
  })
  const json = (c: { json: unknown }) => c.json as (body: unknown, status?: number) => Response
  const leaky = { id: 'u1', name: 'Ada', passwordHash: '$argon2id$secret' }
  api.get('/ok', (c) => c.json({ id: 'u1', name: 'Ada' }), { openapi: { responses } })
  api.get('/leaky', (c) => json(c)(leaky), { openapi: { responses } })
  api.get('/broken', (c) => json(c)({ id: 'u1', name: '' }), { openapi: { responses } })
  api.get(
    '/status',
    (c) => {
      c.status(201)
      return json(c)(leaky)
    },
    { openapi: { responses } },
  )
  api.get('/undeclared', (c) => json(c)(leaky, 202), { openapi: { responses } })
  return { api, issues }
}

describe('the internals switch, openapi side', () => {
  it.each(['strip', 'strict', 'report'] as const)(
    'the response check answers the same without the c.json override (%s)',
    async (mode) => {
      const [on, off] = await onAndOff(async () => {
        const { api, issues } = responseApp(mode)
        return { answers: await answers(api), issues }
      })
      expect(off).toEqual(on)
      // The check really ran: nothing undeclared left in strip, a 500 for the broken body.
      expect(on.answers.join('\n')).toContain('/v1/broken')
      if (mode !== 'report') {
        expect(on.answers.join('\n')).not.toContain('passwordHash')
        expect(on.answers.find((a) => a.startsWith('/v1/broken'))).toMatch(/ 500 /)
      } else expect(on.issues.length).toBeGreaterThan(0)
    },
  )

  it('the same document: base path, middleware before and after wrapping, onError after wrapping', async () => {
    const [on, off] = await onAndOff(() => {
      const hono = new Hono().basePath('/v1')
      hono.use('/admin/*', rateLimit({ max: 5 }))
      const api = openapi(hono, { info })
      api.use('/me', jwtAuth({ secret }))
      api.get('/admin/users', (c) => c.text('users'))
      api.get('/me', (c) => c.text('me'))
      const before = JSON.stringify(api.spec())
      hono.onError(problemHandler())
      const afterApp = JSON.stringify(api.spec())
      api.onError(problemHandler())
      return [before, afterApp, JSON.stringify(api.spec())]
    })
    expect(off).toEqual(on)
    const [before, afterApp] = on.map((json) => JSON.parse(json))
    expect(before.paths['/v1/admin/users'].get.responses).toHaveProperty('429')
    expect(before.paths['/v1/me'].get.responses['401'].content).toHaveProperty('text/plain')
    expect(afterApp.paths['/v1/me'].get.responses['401'].content).toHaveProperty(
      'application/problem+json',
    )
  })

  it('an error handler set before wrapping: read with the internals, named in a warning without', () => {
    setSwitch(false)
    const undescribed = new Hono()
    undescribed.onError((_e, c) => c.text('oops', 500))
    expect(() => openapi(undescribed, { info })).toThrow(/already has an error handler/)
    setSwitch(true)
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    try {
      const hono = new Hono()
      hono.onError(problemHandler())
      const api = openapi(hono, { info })
      api.get('/me', (c) => c.text('me'), { middlewares: [jwtAuth({ secret })] })
      // Not seen: the document falls back to Hono's default, and the warning said why (once
      // per process, so it may have been said by an earlier app of this file).
      expect(api.spec().paths['/me']?.get?.responses['401']?.content).toHaveProperty('text/plain')
      const said = warn.mock.calls.flat().join(' ')
      if (said !== '') expect(said).toMatch(/__PALISADE_NO_INTERNALS__.*api\.onError/)
    } finally {
      warn.mockRestore()
    }
  })

  it('audit refuses to run with the switch on, naming it, and runs with it off', () => {
    const api = openapi(new Hono(), { info })
    api.get('/ping', (c) => c.text('pong'))
    setSwitch(true)
    expect(() => audit(api)).toThrow(/__PALISADE_NO_INTERNALS__/)
    setSwitch(false)
    expect(audit(api).some((f) => f.method === 'GET' && f.path === '/ping')).toBe(true)
  })
})
