import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { problemHandler, problemNotFound } from '..'

describe('problemNotFound', () => {
  it('answers a request no route matches with 404 problem+json, as problemHandler answers rejections', async () => {
    const app = new Hono()
    app.onError(problemHandler())
    app.notFound(problemNotFound())
    app.get('/books', (c) => c.json([]))
    for (const [method, path] of [
      ['GET', '/nope'],
      ['POST', '/books'],
      ['DELETE', '/books/1?x=<script>'],
    ] as const) {
      const res = await app.request(path, { method })
      expect(res.status).toBe(404)
      expect(res.headers.get('content-type')).toBe('application/problem+json')
      const body = await res.json()
      expect(body).toEqual({
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: 'No route matches this method and path',
        code: 'not_found',
      })
      // Nothing of the request is echoed.
      expect(JSON.stringify(body)).not.toMatch(/nope|books|script/)
    }
    expect((await app.request('/books')).status).toBe(200)
  })

  it('names its type under typeBase, as problemHandler does', async () => {
    const app = new Hono()
    app.notFound(problemNotFound({ typeBase: 'https://errors.example.com/' }))
    expect(await (await app.request('/x')).json()).toMatchObject({
      type: 'https://errors.example.com/not_found',
      code: 'not_found',
    })
  })

  it('checks its options when called', () => {
    expect(() => problemNotFound({ typeBase: '' })).toThrow(/^problemNotFound: /)
    // @ts-expect-error: not an option
    expect(() => problemNotFound({ detail: 'x' })).toThrow(/^problemNotFound: .*detail/)
  })

  it('is exported from the root entry', async () => {
    const root = await import('@palisade/middleware')
    expect(root.problemNotFound).toBe(problemNotFound)
  })
})
