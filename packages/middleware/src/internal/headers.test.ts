import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { editResponseHeaders, HEADER_VALUE, setResponseHeader, TOKEN } from './headers'

describe('editResponseHeaders', () => {
  it('edits the current response in place', async () => {
    const app = new Hono()
    app.use('*', async (c, next) => {
      await next()
      editResponseHeaders(c, (h) => h.set('x-added', '1'))
    })
    app.get('/', (c) => c.text('body', 201))
    const res = await app.request('/')
    expect(res.status).toBe(201)
    expect(res.headers.get('x-added')).toBe('1')
    expect(await res.text()).toBe('body')
  })

  it('copies a response with immutable headers once, keeping status, headers and body', async () => {
    const app = new Hono()
    app.use('*', async (c, next) => {
      await next()
      editResponseHeaders(c, (h) => h.set('x-added', '1'))
    })
    app.get('/', () => Response.redirect('https://example.com/there', 307))
    const res = await app.request('/')
    expect(res.status).toBe(307)
    expect(res.headers.get('location')).toBe('https://example.com/there')
    expect(res.headers.get('x-added')).toBe('1')
  })

  it('does not swallow errors other than the immutable-headers TypeError', async () => {
    const app = new Hono()
    let caught: unknown
    app.use('*', async (c, next) => {
      await next()
      try {
        editResponseHeaders(c, () => {
          throw new RangeError('mine')
        })
      } catch (err) {
        caught = err
      }
    })
    app.get('/', (c) => c.text('ok'))
    await app.request('/')
    expect(caught).toBeInstanceOf(RangeError)
  })
})

describe('setResponseHeader', () => {
  it('sets the header in place, or on a copy of a response with immutable headers', async () => {
    const app = new Hono()
    app.use('*', async (c, next) => {
      await next()
      setResponseHeader(c, 'x-added', '1')
    })
    app.get('/', (c) => c.text('body', 201))
    app.get('/away', () => Response.redirect('https://example.com/there', 307))
    const res = await app.request('/')
    expect(res.status).toBe(201)
    expect(res.headers.get('x-added')).toBe('1')
    expect(await res.text()).toBe('body')
    const moved = await app.request('/away')
    expect(moved.status).toBe(307)
    expect(moved.headers.get('location')).toBe('https://example.com/there')
    expect(moved.headers.get('x-added')).toBe('1')
  })
})

describe('TOKEN and HEADER_VALUE', () => {
  it.each(['GET', 'X-Request-ID', 'content-type', "a!#$%&'*+.^_`|~z"])('TOKEN accepts %j', (v) => {
    expect(TOKEN.test(v)).toBe(true)
  })

  it.each(['', 'a b', 'a:b', 'a\r\nb', 'a,b', 'a;b', 'é', '(a)'])('TOKEN rejects %j', (v) => {
    expect(TOKEN.test(v)).toBe(false)
  })

  it.each(["default-src 'self'", 'a\tb', '', 'caf\u00e9'])('HEADER_VALUE accepts %j', (v) => {
    expect(HEADER_VALUE.test(v)).toBe(true)
  })

  it.each(['a\rb', 'a\nb', 'a\u0000b', 'a\u007fb', '\u0100'])('HEADER_VALUE rejects %j', (v) => {
    expect(HEADER_VALUE.test(v)).toBe(false)
  })
})
