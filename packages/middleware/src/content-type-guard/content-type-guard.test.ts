import { Hono } from 'hono'
import { describe, expect, it, vi } from 'vitest'
import { type ContentTypeGuardOptions, contentTypeGuard } from './index'

function setup(options: ContentTypeGuardOptions) {
  const app = new Hono()
  const handler = vi.fn((c) => c.text('ok'))
  app.use('*', contentTypeGuard(options))
  app.all('/r', handler)
  return { app, handler }
}

function send(method: string, contentType?: string) {
  const headers: Record<string, string> = {}
  if (contentType !== undefined) headers['content-type'] = contentType
  const body = method === 'GET' || method === 'HEAD' ? undefined : '{}'
  return new Request('http://localhost/r', { method, headers, body })
}

async function expect415(res: Response, message = 'Unsupported Media Type') {
  expect(res.status).toBe(415)
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
  expect(await res.text()).toBe(message)
}

describe('contentTypeGuard: matching', () => {
  it.each([
    ['application/json', ['application/json']],
    ['application/json; charset=utf-8', ['application/json']],
    ['Application/JSON', ['application/json']],
    ['application/json', ['APPLICATION/Json']],
    ['  application/json  ', ['application/json']],
    ['application/json;charset=UTF-8;foo="a;b"', ['application/json']],
    ['multipart/form-data; boundary=----x', ['multipart/*']],
    ['MULTIPART/mixed', ['multipart/*']],
    ['text/plain', ['application/json', 'text/plain']],
    ['application/vnd.api+json', ['application/vnd.api+json']],
    ['image/png', ['*/*']],
    ['x-custom/thing', ['*/*']],
  ])('accepts %j for required %j', async (contentType, required) => {
    const { app, handler } = setup({ required })
    const res = await app.request(send('POST', contentType))
    expect(res.status).toBe(200)
    expect(handler).toHaveBeenCalledOnce()
  })

  it.each([
    ['text/plain', ['application/json']],
    ['application/jsonp', ['application/json']],
    ['application/json-seq', ['application/json']],
    ['application/vnd.api+json', ['application/json']],
    ['application', ['application/json']],
    ['application/', ['application/json']],
    ['/json', ['application/json']],
    ['json', ['application/json']],
    ['text/json', ['application/*']],
    ['multipartx/form-data', ['multipart/*']],
    ['application/json, text/plain', ['application/json']],
    ['text/plain, application/json', ['application/json']],
    ['application/json\u00a0', ['application/json']],
    ['application /json', ['application/json']],
    ['*/*', ['application/json']],
    ['*/*', ['*/*']],
    ['application/*', ['application/*']],
    ['; charset=utf-8', ['*/*']],
    ['application/x-www-form-urlencoded', ['application/json', 'multipart/*']],
  ])('rejects %j for required %j with 415', async (contentType, required) => {
    const { app, handler } = setup({ required })
    await expect415(await app.request(send('POST', contentType)))
    expect(handler).not.toHaveBeenCalled()
  })

  it('rejects a guarded request without Content-Type', async () => {
    const { app, handler } = setup({ required: ['*/*'] })
    const req = new Request('http://localhost/r', { method: 'POST', body: new Uint8Array([1]) })
    expect(req.headers.get('content-type')).toBeNull()
    await expect415(await app.request(req))
    expect(handler).not.toHaveBeenCalled()
  })

  it('rejects a guarded request without a body and without Content-Type', async () => {
    const { app } = setup({ required: ['application/json'] })
    await expect415(await app.request('/r', { method: 'POST' }))
  })

  it('rejects an empty Content-Type', async () => {
    const { app } = setup({ required: ['*/*'] })
    await expect415(await app.request(send('POST', '')))
  })
})

describe('contentTypeGuard: methods', () => {
  it.each(['POST', 'PUT', 'PATCH', 'QUERY'])('guards %s by default', async (method) => {
    const { app } = setup({ required: ['application/json'] })
    await expect415(await app.request(send(method, 'text/plain')))
  })

  it.each(['GET', 'HEAD', 'DELETE', 'OPTIONS'])('does not guard %s by default', async (method) => {
    const { app, handler } = setup({ required: ['application/json'] })
    const res = await app.request(send(method))
    expect(res.status).toBe(200)
    expect(handler).toHaveBeenCalledOnce()
  })

  it('guards a lowercase patch, which fetch does not normalise', async () => {
    const { app } = setup({ required: ['application/json'] })
    await expect415(await app.request(send('patch', 'text/plain')))
  })

  it('guards only the configured methods', async () => {
    const { app } = setup({ required: ['application/json'], methods: ['DELETE'] })
    await expect415(await app.request(send('DELETE', 'text/plain')))
    const post = await app.request(send('POST', 'text/plain'))
    expect(post.status).toBe(200)
  })

  it('compares configured methods case-insensitively', async () => {
    const { app } = setup({ required: ['application/json'], methods: ['post'] })
    await expect415(await app.request(send('POST', 'text/plain')))
  })

  it('guards nothing with an empty methods list', async () => {
    const { app } = setup({ required: ['application/json'], methods: [] })
    expect((await app.request(send('POST', 'text/plain'))).status).toBe(200)
  })
})

describe('contentTypeGuard: message', () => {
  it('uses a custom message', async () => {
    const { app } = setup({ required: ['application/json'], message: 'JSON only, please' })
    await expect415(await app.request(send('POST', 'text/plain')), 'JSON only, please')
  })

  it('throws an HTTPException that app.onError can reshape', async () => {
    const { app } = setup({ required: ['application/json'] })
    app.onError((err, c) => c.json({ error: err.message }, 415))
    const res = await app.request(send('POST', 'text/xml'))
    expect(await res.json()).toEqual({ error: 'Unsupported Media Type' })
  })
})

describe('contentTypeGuard: option validation', () => {
  it.each<[string, unknown, RegExp]>([
    ['no options', undefined, /"required" must be given/],
    ['a missing required', {}, /"required" must be given/],
    ['an empty required', { required: [] }, /"required" must not be empty/],
    ['a string required', { required: 'application/json' }, /"required" must be an array/],
    ['an entry without a slash', { required: ['json'] }, /is not a media type/],
    [
      'an entry with parameters',
      { required: ['text/plain; charset=utf-8'] },
      /is not a media type/,
    ],
    ['an entry with spaces', { required: ['text / plain'] }, /is not a media type/],
    ['a subtype-only wildcard', { required: ['*/json'] }, /is not a media type/],
    ['a partial wildcard', { required: ['application/vnd.*'] }, /is not a media type/],
    ['a wildcard type prefix', { required: ['app*/json'] }, /is not a media type/],
    ['an entry with two slashes', { required: ['a/b/c'] }, /is not a media type/],
    ['an empty entry', { required: [''] }, /must be an array of non-empty strings/],
    ['a method with a space', { required: ['*/*'], methods: ['PO ST'] }, /not a method name/],
    ['methods not an array', { required: ['*/*'], methods: 'POST' }, /"methods" must be an array/],
    [
      'an empty message',
      { required: ['*/*'], message: '' },
      /"message" must be a non-empty string/,
    ],
    ['an unknown option', { required: ['*/*'], allow: [] }, /unknown option "allow"/],
  ])('throws a contentTypeGuard TypeError for %s', (_, options, message) => {
    const make = () => contentTypeGuard(options as ContentTypeGuardOptions)
    expect(make).toThrow(TypeError)
    expect(make).toThrow(/^contentTypeGuard: /)
    expect(make).toThrow(message)
  })

  it('returns a named function', () => {
    expect(contentTypeGuard({ required: ['application/json'] }).name).toBe('contentTypeGuard')
  })
})
