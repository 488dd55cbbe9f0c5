import { type Context, Hono } from 'hono'
import { describe, expect, it, vi } from 'vitest'
import { type RequestIdOptions, requestId } from './index'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

function appWith(options?: RequestIdOptions) {
  const app = new Hono()
  app.use('*', requestId(options))
  app.get('/', (c) => c.text(String(c.get((options?.contextKey ?? 'requestId') as 'requestId'))))
  return app
}

async function idOf(res: Response, header = 'x-request-id') {
  const body = await res.text()
  expect(res.headers.get(header)).toBe(body)
  return body
}

describe('requestId: generation', () => {
  it('generates a UUID, stores it in the context and writes it to the response', async () => {
    const res = await appWith().request('/')
    expect(await idOf(res)).toMatch(UUID)
  })

  it('generates a different ID per request', async () => {
    const app = appWith()
    const a = await idOf(await app.request('/'))
    const b = await idOf(await app.request('/'))
    expect(a).not.toBe(b)
  })

  it('uses a custom generate function', async () => {
    let n = 0
    const app = appWith({ generate: () => `req-${++n}` })
    expect(await idOf(await app.request('/'))).toBe('req-1')
    expect(await idOf(await app.request('/'))).toBe('req-2')
  })

  it('does not call generate at construction', () => {
    const generate = vi.fn(() => 'x')
    requestId({ generate })
    expect(generate).not.toHaveBeenCalled()
  })

  it('does not draw randomness at construction', async () => {
    // Workers refuse random values outside a request; the default generator draws on first use.
    const random = vi.spyOn(crypto, 'getRandomValues')
    const uuid = vi.spyOn(crypto, 'randomUUID')
    const app = appWith()
    expect(random).not.toHaveBeenCalled()
    expect(uuid).not.toHaveBeenCalled()
    expect(await idOf(await app.request('/'))).toMatch(UUID)
    random.mockRestore()
    uuid.mockRestore()
  })

  it('does not call generate when a valid upstream ID is reused', async () => {
    const generate = vi.fn(() => 'fresh')
    const res = await appWith({ generate }).request('/', { headers: { 'x-request-id': 'up-1' } })
    expect(await idOf(res)).toBe('up-1')
    expect(generate).not.toHaveBeenCalled()
  })

  it.each<[string, unknown]>([
    ['an ID with CRLF', 'a\r\nb'],
    ['an empty ID', ''],
    ['an ID with a space', 'a b'],
    ['a 256-character ID', 'a'.repeat(256)],
    ['a non-string', 42],
  ])('fails loudly when generate returns %s', async (_, value) => {
    const app = new Hono()
    app.use('*', requestId({ generate: () => value as string }))
    app.get('/', (c) => c.text('reached'))
    const onError = vi.fn((err: Error, c) => c.text(err.message, 500))
    app.onError(onError)
    const res = await app.request('/')
    expect(res.status).toBe(500)
    expect(await res.text()).toMatch(/^requestId: generate\(\) must return/)
    expect(res.headers.get('x-request-id')).toBeNull()
  })
})

describe('requestId: the promise it returns (called directly, no async frame)', () => {
  /** A context with a request and a response whose headers requestId can set. */
  async function contextOf() {
    let captured: Context | undefined
    const app = new Hono()
    app.get('/', (c) => {
      captured = c
      return c.text('ok')
    })
    await app.request('/')
    return captured as Context
  }

  it('resolves to undefined once next() has, then writes the header', async () => {
    const c = await contextOf()
    let release: (() => void) | undefined
    const out = requestId({ generate: () => 'id-1' })(
      c,
      () =>
        new Promise<void>((r) => {
          release = r
        }),
    )
    expect(out).toBeInstanceOf(Promise)
    await Promise.resolve()
    expect(c.res.headers.get('x-request-id')).toBeNull()
    release?.()
    await expect(out).resolves.toBeUndefined()
    expect(c.res.headers.get('x-request-id')).toBe('id-1')
  })

  it('passes next()’s rejection on, without a header', async () => {
    const c = await contextOf()
    const error = new Error('downstream')
    const out = requestId({ generate: () => 'id-2' })(c, () => Promise.reject(error))
    await expect(out).rejects.toBe(error)
    expect(c.res.headers.get('x-request-id')).toBeNull()
  })

  it('turns a bad generator into a rejected promise, never a synchronous throw', async () => {
    const c = await contextOf()
    const next = vi.fn(async () => {})
    let out: Promise<void> | undefined
    expect(() => {
      out = requestId({ generate: () => 'a b' })(c, next) as Promise<void>
    }).not.toThrow()
    await expect(out).rejects.toThrow(/generate\(\) must return/)
    expect(next).not.toHaveBeenCalled()
  })
})

describe('requestId: upstream IDs', () => {
  it.each([
    'abc',
    'a',
    'a'.repeat(255),
    '0123456789',
    'A-Z_a.z:0=9+/x',
    'f47ac10b-58cc-4372-a567-0e02b2c3d479',
    'Root=1-67891233-abcdef012345678912345678',
    'dGVzdA==',
  ])('reuses a well-formed incoming ID %j', async (incoming) => {
    const res = await appWith().request('/', { headers: { 'x-request-id': incoming } })
    expect(await idOf(res)).toBe(incoming)
  })

  it.each([
    ['256 characters', 'a'.repeat(256)],
    ['a very long value', 'a'.repeat(10_000)],
    ['a space', 'abc def'],
    ['a tab', 'abc\tdef'],
    ['a double quote', 'abc"def'],
    ['a single quote', "abc'def"],
    ['angle brackets', '<script>alert(1)</script>'],
    ['a semicolon', 'a;b'],
    ['a comma', 'a,b'],
    ['a percent sign', 'a%0d%0ab'],
    ['a backslash', 'a\\b'],
    ['latin-1 characters', 'caf\u00e9'],
    ['only whitespace', '   '],
  ])('replaces an incoming ID with %s', async (_, incoming) => {
    const res = await appWith().request('/', { headers: { 'x-request-id': incoming } })
    const id = await idOf(res)
    expect(id).not.toBe(incoming)
    expect(id).toMatch(UUID)
  })

  it('replaces an incoming ID containing unicode (sent percent-encoded by a proxy or raw)', async () => {
    // Headers cannot carry raw non-latin-1 text; a client sending UTF-8 bytes arrives as latin-1.
    const utf8AsLatin1 = String.fromCharCode(...new TextEncoder().encode('id-\u{1F600}'))
    const res = await appWith().request('/', { headers: { 'x-request-id': utf8AsLatin1 } })
    expect(await idOf(res)).toMatch(UUID)
  })

  it('replaces an incoming ID containing CR/LF (header injection attempt)', async () => {
    // A Request cannot carry CR/LF in a header, so build the context the way a raw server would.
    const app = appWith()
    const req = new Request('http://localhost/')
    const headers = new Headers({ 'x-request-id': 'ok' })
    Object.defineProperty(req, 'headers', { value: headers })
    const get = headers.get.bind(headers)
    headers.get = (name: string) =>
      name.toLowerCase() === 'x-request-id' ? 'evil\r\nSet-Cookie: session=attacker' : get(name)
    const res = await app.fetch(req)
    const id = await idOf(res)
    expect(id).toMatch(UUID)
    expect(res.headers.get('set-cookie')).toBeNull()
  })

  it('replaces an empty incoming header', async () => {
    const res = await appWith().request('/', { headers: { 'x-request-id': '' } })
    expect(await idOf(res)).toMatch(UUID)
  })

  it('ignores the incoming ID when trustUpstream is false', async () => {
    const res = await appWith({ trustUpstream: false }).request('/', {
      headers: { 'x-request-id': 'client-chosen' },
    })
    const id = await idOf(res)
    expect(id).not.toBe('client-chosen')
    expect(id).toMatch(UUID)
  })

  it('reuses the incoming ID when trustUpstream is true explicitly', async () => {
    const res = await appWith({ trustUpstream: true }).request('/', {
      headers: { 'x-request-id': 'kept' },
    })
    expect(await idOf(res)).toBe('kept')
  })
})

describe('requestId: headerName and contextKey', () => {
  it('reads and writes a custom header name', async () => {
    const app = appWith({ headerName: 'X-Correlation-ID' })
    const res = await app.request('/', { headers: { 'x-correlation-id': 'corr-7' } })
    expect(await idOf(res, 'x-correlation-id')).toBe('corr-7')
    expect(res.headers.get('x-request-id')).toBeNull()
  })

  it('ignores the default header when a custom one is configured', async () => {
    const app = appWith({ headerName: 'X-Correlation-ID' })
    const res = await app.request('/', { headers: { 'x-request-id': 'wrong-header' } })
    expect(await idOf(res, 'x-correlation-id')).toMatch(UUID)
  })

  it('stores the ID under a custom contextKey', async () => {
    const app = new Hono<{ Variables: { traceId: string } }>()
    app.use('*', requestId({ contextKey: 'traceId' }))
    app.get('/', (c) => c.json({ traceId: c.get('traceId'), default: c.get('requestId') ?? null }))
    const res = await app.request('/', { headers: { 'x-request-id': 'trace-1' } })
    expect(await res.json()).toEqual({ traceId: 'trace-1', default: null })
  })

  it('makes the ID typed as string under requestId', async () => {
    const app = new Hono()
    app.use('*', requestId())
    app.get('/', (c) => {
      const id: string = c.get('requestId')
      return c.text(String(id.length))
    })
    expect(await (await app.request('/')).text()).toBe('36')
  })
})

describe('requestId: response header', () => {
  it('overrides an ID header the handler set, so the response matches the context', async () => {
    const app = new Hono()
    app.use('*', requestId())
    app.get('/', (c) => {
      c.header('X-Request-ID', 'handler-value')
      return c.text(c.get('requestId'))
    })
    const res = await app.request('/', { headers: { 'x-request-id': 'abc' } })
    expect(res.headers.get('x-request-id')).toBe('abc')
  })

  it('writes the header on error responses', async () => {
    const app = new Hono()
    app.use('*', requestId())
    app.get('/', () => {
      throw new Error('boom')
    })
    app.onError((_, c) => c.text('failed', 500))
    const res = await app.request('/', { headers: { 'x-request-id': 'err-1' } })
    expect(res.status).toBe(500)
    expect(res.headers.get('x-request-id')).toBe('err-1')
  })

  it('writes the header on 404 responses', async () => {
    const app = new Hono()
    app.use('*', requestId())
    const res = await app.request('/missing', { headers: { 'x-request-id': 'nf-1' } })
    expect(res.status).toBe(404)
    expect(res.headers.get('x-request-id')).toBe('nf-1')
  })

  it('writes the header on a response with immutable headers', async () => {
    const app = new Hono()
    app.use('*', requestId())
    app.get('/', () => Response.redirect('https://example.com/', 302))
    const res = await app.request('/', { headers: { 'x-request-id': 'redir-1' } })
    expect(res.headers.get('x-request-id')).toBe('redir-1')
  })
})

describe('requestId: option validation', () => {
  it.each<[string, unknown, RegExp]>([
    ['an unknown option', { header: 'X-Id' }, /unknown option "header"/],
    ['an empty headerName', { headerName: '' }, /"headerName" must be a non-empty string/],
    ['a headerName with a space', { headerName: 'X Request' }, /not a valid header name/],
    ['a headerName with a colon', { headerName: 'X-Id:' }, /not a valid header name/],
    ['a headerName with CRLF', { headerName: 'X-Id\r\n' }, /not a valid header name/],
    ['a non-function generate', { generate: 'uuid' }, /"generate" must be a function/],
    [
      'a non-boolean trustUpstream',
      { trustUpstream: 'false' },
      /"trustUpstream" must be a boolean/,
    ],
    ['an empty contextKey', { contextKey: '' }, /"contextKey" must be a non-empty string/],
    ['a numeric contextKey', { contextKey: 1 }, /"contextKey"/],
    ['null options', null, /options must be an object/],
  ])('throws a requestId TypeError for %s', (_, options, message) => {
    const make = () => requestId(options as RequestIdOptions)
    expect(make).toThrow(TypeError)
    expect(make).toThrow(/^requestId: /)
    expect(make).toThrow(message)
  })

  it('returns a named function', () => {
    expect(requestId().name).toBe('requestId')
  })
})
