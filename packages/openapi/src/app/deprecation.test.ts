// openapi.deprecated at run time: the RFC 9745 / RFC 8594 headers on every answer of the route,
// the Link appended, 410 `gone` from the sunset's second on under sunsetMode 'enforce', under a
// base path and a mounted sub-app, and what the document says.
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { expectValidOpenAPI } from '../../../../tests/openapi/validate'
import { openapi } from './openapi'

const info = { title: 'Test API', version: '1.0.0' }
const since = new Date('2026-06-01T00:00:00Z')
const sunset = new Date('2027-12-01T00:00:00Z')
const SUNSET_MS = sunset.getTime()
const link = 'https://example.com/changelog#v1-pets'

/** An app whose clock the test sets; `/v1/pets` deprecated with every field. */
function app(mode?: 'announce' | 'enforce', hono = new Hono()) {
  let clock = SUNSET_MS - 86_400_000
  const api = openapi(hono, {
    info,
    ...(mode ? { sunsetMode: mode } : {}),
    now: () => clock,
  })
  api.get(
    '/v1/pets',
    (c) => {
      c.header('Link', '</v1/pets?page=2>; rel="next"')
      return c.json([{ name: 'Rex' }])
    },
    {
      openapi: {
        operationId: 'listPetsV1',
        deprecated: { since, sunset, link },
        request: { query: z.object({ limit: z.coerce.number().int().max(50).optional() }) },
        responses: {
          200: { description: 'Pets', schema: z.array(z.object({ name: z.string() })) },
        },
      },
    },
  )
  api.get('/v2/pets', (c) => c.json([]), { openapi: { operationId: 'listPets' } })
  return { api, setClock: (ms: number) => (clock = ms) }
}

describe('deprecation headers', () => {
  it('sends Deprecation as @ and integer seconds, Sunset as an HTTP-date in GMT', async () => {
    const { api } = app()
    const res = await api.request('/v1/pets')
    expect(res.status).toBe(200)
    expect(res.headers.get('Deprecation')).toBe('@1780272000')
    expect(res.headers.get('Sunset')).toBe('Wed, 01 Dec 2027 00:00:00 GMT')
    expect(await res.json()).toEqual([{ name: 'Rex' }])
  })

  it('appends its Link values to the one the handler set', async () => {
    const { api } = app()
    const res = await api.request('/v1/pets')
    expect(res.headers.get('Link')).toBe(
      `</v1/pets?page=2>; rel="next", <${link}>; rel="deprecation", <${link}>; rel="sunset"`,
    )
  })

  it('sets them on the rejections of the route too (a validation 400)', async () => {
    const { api } = app()
    const res = await api.request('/v1/pets?limit=500')
    expect(res.status).toBe(400)
    expect(res.headers.get('Deprecation')).toBe('@1780272000')
    expect(res.headers.get('Sunset')).toBe('Wed, 01 Dec 2027 00:00:00 GMT')
  })

  it('leaves the other routes alone', async () => {
    const { api } = app()
    const res = await api.request('/v2/pets')
    expect(res.headers.get('Deprecation')).toBeNull()
    expect(res.headers.get('Sunset')).toBeNull()
    expect(res.headers.get('Link')).toBeNull()
  })

  it('reads dates to the second: milliseconds are dropped, never rounded up', async () => {
    const api = openapi(new Hono(), { info })
    api.get('/a', (c) => c.text('a'), {
      openapi: {
        deprecated: {
          since: new Date('2026-01-01T00:00:00.999Z'),
          sunset: new Date('2026-02-01T12:30:45.999Z'),
        },
      },
    })
    const res = await api.request('/a')
    expect(res.headers.get('Deprecation')).toBe('@1767225600')
    expect(res.headers.get('Sunset')).toBe('Sun, 01 Feb 2026 12:30:45 GMT')
    expect(api.spec().paths['/a']?.get?.['x-sunset']).toBe('2026-02-01T12:30:45Z')
  })

  it('sends no Deprecation without `since` (RFC 9745 has no value but a date), and no Link without `link`', async () => {
    const api = openapi(new Hono(), { info })
    api.get('/flag', (c) => c.text('x'), { openapi: { deprecated: true } })
    api.get('/sunset-only', (c) => c.text('x'), { openapi: { deprecated: { sunset } } })
    const flag = await api.request('/flag')
    expect([...flag.headers.keys()].filter((k) => /deprecation|sunset|link/.test(k))).toEqual([])
    const only = await api.request('/sunset-only')
    expect(only.headers.get('Deprecation')).toBeNull()
    expect(only.headers.get('Sunset')).toBe('Wed, 01 Dec 2027 00:00:00 GMT')
    expect(only.headers.get('Link')).toBeNull()
  })

  it('copies an answer whose headers cannot be changed', async () => {
    const api = openapi(new Hono(), { info })
    api.get('/frozen', () => Response.redirect('https://example.com/', 302), {
      openapi: { deprecated: { since } },
    })
    const res = await api.request('/frozen')
    expect(res.status).toBe(302)
    expect(res.headers.get('Location')).toBe('https://example.com/')
    expect(res.headers.get('Deprecation')).toBe('@1780272000')
  })
})

describe('sunset', () => {
  it("keeps answering after the sunset by default ('announce')", async () => {
    const { api, setClock } = app()
    setClock(SUNSET_MS + 365 * 86_400_000)
    const res = await api.request('/v1/pets')
    expect(res.status).toBe(200)
    expect(res.headers.get('Sunset')).toBe('Wed, 01 Dec 2027 00:00:00 GMT')
  })

  it("under 'enforce', answers until the millisecond before the sunset and 410 `gone` from it on", async () => {
    const { api, setClock } = app('enforce')
    setClock(SUNSET_MS - 1)
    expect((await api.request('/v1/pets')).status).toBe(200)
    setClock(SUNSET_MS)
    const gone = await api.request('/v1/pets')
    expect(gone.status).toBe(410)
    expect(gone.headers.get('Content-Type')).toBe('application/problem+json')
    expect(await gone.json()).toEqual({
      type: 'about:blank',
      title: 'Gone',
      status: 410,
      code: 'gone',
      detail: 'This operation was retired on Wed, 01 Dec 2027 00:00:00 GMT',
    })
    expect(gone.headers.get('Sunset')).toBe('Wed, 01 Dec 2027 00:00:00 GMT')
    expect(gone.headers.get('Deprecation')).toBe('@1780272000')
    expect(gone.headers.get('Link')).toBe(`<${link}>; rel="deprecation", <${link}>; rel="sunset"`)
    setClock(SUNSET_MS + 1)
    expect((await api.request('/v1/pets')).status).toBe(410)
  })

  it('enforces at the second the Sunset header announces, not at a later millisecond', async () => {
    let clock = 0
    const api = openapi(new Hono(), { info, sunsetMode: 'enforce', now: () => clock })
    api.get('/a', (c) => c.text('a'), {
      openapi: { deprecated: { sunset: new Date('2027-12-01T00:00:00.700Z') } },
    })
    clock = SUNSET_MS - 1
    expect((await api.request('/a')).status).toBe(200)
    clock = SUNSET_MS
    expect((await api.request('/a')).status).toBe(410)
  })

  it('answers 410 before the route middleware and the validator run', async () => {
    let clock = SUNSET_MS
    let ran = 0
    const api = openapi(new Hono(), { info, sunsetMode: 'enforce', now: () => clock })
    api.post('/a', (c) => c.json({ ok: true }), {
      middlewares: [
        async (_c, next) => {
          ran++
          await next()
        },
      ],
      openapi: {
        deprecated: { sunset },
        request: { body: z.object({ name: z.string() }) },
      },
    })
    const res = await api.request('/a', { method: 'POST', body: 'not json' })
    expect(res.status).toBe(410)
    expect(ran).toBe(0)
    clock = SUNSET_MS - 1000
    expect((await api.request('/a', { method: 'POST', body: 'not json' })).status).toBe(415)
    expect(ran).toBe(1)
  })

  it('a deprecation without a sunset is never gone', async () => {
    const api = openapi(new Hono(), { info, sunsetMode: 'enforce', now: () => 4e12 })
    api.get('/a', (c) => c.text('a'), { openapi: { deprecated: { since } } })
    expect((await api.request('/a')).status).toBe(200)
  })
})

describe('under a base path and in a mounted sub-app', () => {
  it('sets the headers and enforces the sunset under basePath()', async () => {
    const { api, setClock } = app('enforce', new Hono().basePath('/api'))
    const res = await api.request('/api/v1/pets')
    expect(res.status).toBe(200)
    expect(res.headers.get('Deprecation')).toBe('@1780272000')
    setClock(SUNSET_MS)
    expect((await api.request('/api/v1/pets')).status).toBe(410)
    expect(api.spec().paths['/api/v1/pets']?.get?.deprecated).toBe(true)
  })

  it('sets the headers and enforces the sunset in an app mounted with route()', async () => {
    const { api, setClock } = app('enforce')
    const parent = new Hono().route('/svc', api.app)
    const res = await parent.request('/svc/v1/pets')
    expect(res.status).toBe(200)
    expect(res.headers.get('Sunset')).toBe('Wed, 01 Dec 2027 00:00:00 GMT')
    setClock(SUNSET_MS)
    expect((await parent.request('/svc/v1/pets')).status).toBe(410)
  })
})

describe('the document', () => {
  it('marks the operation deprecated and describes the headers on every response', () => {
    const { api } = app()
    const doc = api.spec()
    expectValidOpenAPI(doc)
    const op = doc.paths['/v1/pets']?.get
    expect(op?.deprecated).toBe(true)
    // oasdiff's extension, read by `palisade diff` (api-removed-before-sunset, …).
    expect(op?.['x-sunset']).toBe('2027-12-01')
    expect(Object.keys(op?.responses ?? {})).toEqual(['200', '400'])
    for (const response of Object.values(op?.responses ?? {})) {
      expect(response.headers?.Deprecation?.schema).toEqual({
        type: 'string',
        const: '@1780272000',
      })
      expect(response.headers?.Sunset?.schema).toEqual({
        type: 'string',
        const: 'Wed, 01 Dec 2027 00:00:00 GMT',
      })
      expect(response.headers?.Link?.description).toContain(`<${link}>; rel="deprecation"`)
    }
    expect(doc.paths['/v2/pets']?.get?.deprecated).toBeUndefined()
  })

  it("documents the 410 only under 'enforce', and `deprecated: true` as before", () => {
    expect(app().api.spec().paths['/v1/pets']?.get?.responses['410']).toBeUndefined()
    const enforced = app('enforce').api.spec()
    expectValidOpenAPI(enforced)
    const gone = enforced.paths['/v1/pets']?.get?.responses['410']
    expect(gone?.content?.['application/problem+json']).toBeDefined()
    expect(gone?.headers?.Sunset).toBeDefined()
    const api = openapi(new Hono(), { info })
    api.get('/flag', (c) => c.text('x'), { openapi: { deprecated: true } })
    const flag = api.spec().paths['/flag']?.get
    expect(flag?.deprecated).toBe(true)
    expect(flag?.responses['200']?.headers).toBeUndefined()
  })
})

describe('checked at registration', () => {
  const cases: [string, unknown, RegExp][] = [
    ['a string', 'yes', /must be a boolean or/],
    ['an unknown field', { until: sunset }, /unknown openapi.deprecated field "until"/],
    ['a date string', { since: '2026-06-01' }, /since must be a valid Date/],
    ['an invalid Date', { sunset: new Date('nope') }, /sunset must be a valid Date/],
    ['a year past 9999', { sunset: new Date('+010000-01-01T00:00:00Z') }, /end of 9999/],
    ['a sunset before since', { since: sunset, sunset: since }, /not be earlier than since/],
    ['a link with a space', { link: 'https://e.com/a b' }, /link must be a URL/],
    ['a link closing the brackets', { link: 'https://e.com/>; rel="x' }, /link must be a URL/],
    ['a link with a line break', { link: 'https://e.com/\r\nX-Evil: 1' }, /link must be a URL/],
    ['an empty link', { link: '' }, /link must be a URL/],
  ]
  it.each(cases)('refuses %s', (_name, deprecated, message) => {
    const api = openapi(new Hono(), { info })
    expect(() =>
      api.get('/a', (c) => c.text('a'), { openapi: { deprecated: deprecated as never } }),
    ).toThrow(message)
  })

  it('refuses a bad sunsetMode and a clock that is not a function', () => {
    expect(() => openapi(new Hono(), { info, sunsetMode: 'strict' as never })).toThrow(
      /sunsetMode must be one of announce, enforce/,
    )
    expect(() => openapi(new Hono(), { info, now: 5 as never })).toThrow(/now must be a function/)
  })
})
