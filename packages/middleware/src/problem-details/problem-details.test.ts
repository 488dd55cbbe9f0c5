import { formatWithOptions } from 'node:util'
import { getMiddlewareDescription } from '@palisade/shared/describe'
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { describe, expect, it, vi } from 'vitest'
import { Rejection } from '../internal/outcomes/rejection'
import { jwtAuth } from '../jwt-auth'
import { rateLimit } from '../rate-limit'
import { PROBLEM_SCHEMA, problemHandler } from './problem-details'

function appWith(throwing: () => never, options?: Parameters<typeof problemHandler>[0]) {
  const app = new Hono()
  app.onError(problemHandler(options))
  app.get('/', () => throwing())
  return app
}

describe('problemHandler', () => {
  it('renders a Palisade rejection as problem+json with its code, keeping its headers', async () => {
    const app = new Hono()
    app.onError(problemHandler())
    app.get('/', rateLimit({ max: 1 }), (c) => c.text('ok'))
    await app.request('/')
    const res = await app.request('/')
    expect(res.status).toBe(429)
    expect(res.headers.get('content-type')).toBe('application/problem+json')
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(res.headers.get('ratelimit-remaining')).toBe('0')
    expect(await res.json()).toEqual({
      type: 'about:blank',
      title: 'Too Many Requests',
      status: 429,
      detail: 'Too many requests',
      code: 'rate_limited',
    })
  })

  it('keeps the WWW-Authenticate challenge of a 401', async () => {
    const app = new Hono()
    app.onError(problemHandler())
    app.get('/', jwtAuth({ secret: 'k'.repeat(32) }), (c) => c.text('ok'))
    const res = await app.request('/', { headers: { authorization: 'Bearer nope' } })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api", error="invalid_token"')
    expect(await res.json()).toMatchObject({ code: 'token_invalid', title: 'Unauthorized' })
  })

  it('gives a plain HTTPException a code from its status', async () => {
    const res = await appWith(() => {
      throw new HTTPException(404, { message: 'No such book' })
    }).request('/')
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'No such book',
      code: 'not_found',
    })
  })

  it('ignores a code that is not snake_case (it could be anything an app put there)', async () => {
    const err = Object.assign(new HTTPException(400), { code: 'Bad <Code>' })
    const res = await appWith(() => {
      throw err
    }).request('/')
    expect(await res.json()).toMatchObject({ code: 'bad_request' })
  })

  it('carries field errors of a validation failure', async () => {
    const errors = [{ in: 'body', path: '/email', message: 'Invalid email' }]
    const res = await appWith(() => {
      throw Object.assign(new Rejection(400, 'Invalid request', 'validation_failed'), { errors })
    }).request('/')
    expect(await res.json()).toMatchObject({ code: 'validation_failed', errors })
  })

  it('keeps only { in, path, message } of each field error a foreign exception carries', async () => {
    const errors = [
      {
        in: 'body',
        path: '/email',
        message: 'Invalid email',
        instance: { passwordHash: '$2b$10$secret' },
        stack: 'Error: at db.ts:12',
      },
      { in: 'somewhere', path: '/x', message: 'm', value: 'leak' },
    ]
    const res = await appWith(() => {
      throw Object.assign(new HTTPException(422, { message: 'Invalid' }), { errors })
    }).request('/')
    const text = await res.text()
    expect(text).not.toMatch(/passwordHash|secret|stack|leak|somewhere/)
    expect(JSON.parse(text).errors).toEqual([
      { in: 'body', path: '/email', message: 'Invalid email' },
      { path: '/x', message: 'm' },
    ])
  })

  it('lists at most 100 field errors', async () => {
    const errors = Array.from({ length: 5000 }, (_, i) => ({
      in: 'body',
      path: `/${i}`,
      message: 'Required',
    }))
    const res = await appWith(() => {
      throw Object.assign(new Rejection(400, 'Invalid request', 'validation_failed'), { errors })
    }).request('/')
    expect((await res.json()).errors).toHaveLength(100)
  })

  it('never copies the Content-Length or Content-Encoding of a custom HTTPException onto the problem', async () => {
    const res = await appWith(() => {
      throw new HTTPException(418, {
        res: new Response('short', {
          status: 418,
          headers: {
            'Content-Length': '5',
            'Content-Encoding': 'gzip',
            'Content-Type': 'text/plain',
            'X-Kept': 'yes',
          },
        }),
      })
    }).request('/')
    expect(res.headers.get('content-encoding')).toBeNull()
    expect(res.headers.get('content-type')).toBe('application/problem+json')
    expect(res.headers.get('x-kept')).toBe('yes')
    const text = await res.text()
    const length = res.headers.get('content-length')
    if (length !== null) expect(Number(length)).toBe(new TextEncoder().encode(text).length)
    expect(JSON.parse(text)).toMatchObject({ status: 418 })
  })

  it('passes through a response that already is problem+json', async () => {
    const body = { type: 'about:blank', title: 'Bad Request', status: 400, errors: [] }
    const res = await appWith(() => {
      throw new HTTPException(400, {
        res: new Response(JSON.stringify(body), {
          status: 400,
          headers: { 'content-type': 'application/problem+json' },
        }),
      })
    }).request('/')
    expect(await res.json()).toEqual(body)
  })

  it('answers 500 without the message for any other error, and reports it', async () => {
    const seen: unknown[] = []
    const res = await appWith(
      () => {
        throw new Error('db password is hunter2')
      },
      { onUnexpected: (err) => seen.push(err) },
    ).request('/')
    expect(res.status).toBe(500)
    const text = await res.text()
    expect(text).not.toContain('hunter2')
    expect(JSON.parse(text)).toEqual({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      code: 'internal_error',
    })
    expect(seen).toHaveLength(1)
  })

  it('logs unexpected errors with console.error by default, and survives a throwing reporter', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {})
    const res = await appWith(() => {
      throw new Error('boom')
    }).request('/')
    expect(res.status).toBe(500)
    expect(spy).toHaveBeenCalledOnce()
    spy.mockRestore()
    const res2 = await appWith(
      () => {
        throw new Error('boom')
      },
      {
        onUnexpected: () => {
          throw new Error('reporter down')
        },
      },
    ).request('/')
    expect(res2.status).toBe(500)
  })

  it('logs an unexpected error by default without the secrets an HTTP client attached to it', async () => {
    // As axios attaches them: the request's config (headers in any case, a Headers object), and a
    // cause carrying the same. The stack is printed as text; the rest is a scrubbed copy.
    const lines: string[] = []
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      lines.push(formatWithOptions({ depth: Number.POSITIVE_INFINITY }, ...args))
    })
    const err = Object.assign(new Error('Request failed with status code 502'), {
      config: {
        url: 'https://upstream.example.com/v1',
        headers: { Authorization: 'Bearer sekret-token-1', 'X-API-KEY': 'sekret-key-2' },
      },
      response: { headers: new Headers({ 'set-cookie': 'sid=sekret-cookie-3' }) },
      cause: { request: { headers: [['proxy-authorization', 'Basic sekret-4']] } },
    })
    try {
      const res = await appWith(() => {
        throw err
      }).request('/')
      expect(res.status).toBe(500)
    } finally {
      spy.mockRestore()
    }
    expect(lines).toHaveLength(1)
    const line = lines[0] as string
    expect(line).toContain('Request failed with status code 502')
    expect(line).toContain('https://upstream.example.com/v1')
    expect(line).not.toMatch(/sekret/)
    expect(line).toContain('[redacted]')
  })

  it('builds type from typeBase and the code', async () => {
    const thrown = await appWith(
      () => {
        throw new Rejection(403, 'Access denied', 'ip_denied')
      },
      { typeBase: 'https://errors.example.com/' },
    ).request('/')
    expect(await thrown.json()).toMatchObject({ type: 'https://errors.example.com/ip_denied' })
  })

  it('validates its options at construction', () => {
    expect(() => problemHandler({ typeBase: '' })).toThrow(/^problemHandler: /)
    expect(() => problemHandler({ typebase: 'x' } as never)).toThrow(/^problemHandler: /)
    expect(() => problemHandler({ onUnexpected: 'x' as never })).toThrow(TypeError)
  })

  it('describes the body it renders, for the openapi package', () => {
    expect(getMiddlewareDescription(problemHandler())?.rejectionBody).toEqual({
      mediaType: 'application/problem+json',
      schemaName: 'Problem',
      schema: PROBLEM_SCHEMA,
    })
  })
})
