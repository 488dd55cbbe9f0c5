import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { describe, expect, it } from 'vitest'
import { reject } from './reject'
import { Rejection } from './rejection'

function caught(fn: () => void): HTTPException {
  try {
    fn()
  } catch (err) {
    if (err instanceof HTTPException) return err
    throw err
  }
  throw new Error('did not throw')
}

describe('reject', () => {
  it('throws an HTTPException with the status and message', () => {
    const err = caught(() => reject(403, 'Access denied'))
    expect(err.status).toBe(403)
    expect(err.message).toBe('Access denied')
  })

  it('carries a text/plain response with the message as body', async () => {
    const res = caught(() => reject(413, 'Payload Too Large')).getResponse()
    expect(res.status).toBe(413)
    expect(res.headers.get('content-type')).toBe('text/plain; charset=UTF-8')
    expect(await res.text()).toBe('Payload Too Large')
  })

  it('adds extra headers to the response', () => {
    const res = caught(() =>
      reject(429, 'Too many requests', { 'Retry-After': '30' }),
    ).getResponse()
    expect(res.headers.get('retry-after')).toBe('30')
    expect(res.headers.get('content-type')).toBe('text/plain; charset=UTF-8')
  })

  it('lets an explicit content-type header win', () => {
    const res = caught(() =>
      reject(400, '{}', { 'content-type': 'application/json' }),
    ).getResponse()
    expect(res.headers.get('content-type')).toBe('application/json')
  })

  it('sends the message as-is, never interpreted as HTML', async () => {
    const res = caught(() => reject(400, '<script>alert(1)</script>')).getResponse()
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await res.text()).toBe('<script>alert(1)</script>')
  })

  it('becomes the response of an app without onError', async () => {
    const app = new Hono()
    app.get('/', () => reject(401, 'Unauthorized', { 'WWW-Authenticate': 'Bearer realm="api"' }))
    const res = await app.request('/')
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"')
    expect(await res.text()).toBe('Unauthorized')
  })

  it('reaches app.onError, which can reshape it', async () => {
    const app = new Hono()
    app.get('/', () => reject(403, 'Access denied'))
    app.onError((err, c) =>
      c.json({ error: err.message }, err instanceof HTTPException ? err.status : 500),
    )
    const res = await app.request('/')
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({ error: 'Access denied' })
  })

  it('carries its code on a Rejection, which is an HTTPException', () => {
    const err = caught(() =>
      reject(429, 'Too many requests', 'rate_limited', { 'Retry-After': '3' }),
    )
    expect(err).toBeInstanceOf(Rejection)
    expect((err as Rejection).code).toBe('rate_limited')
    expect(err.getResponse().headers.get('retry-after')).toBe('3')
  })

  it('takes a code from the status in the legacy form', () => {
    const err = caught(() => reject(403, 'Access denied', { 'X-A': '1' }))
    expect((err as Rejection).code).toBe('forbidden')
    expect(err.getResponse().headers.get('x-a')).toBe('1')
    expect((caught(() => reject(418 as never, 'teapot')) as Rejection).code).toBe('http_418')
  })

  it('still offers HTTPException.res, built when read, with the same answer each time', async () => {
    const err = caught(() => reject(429, 'Slow down', 'rate_limited', { 'Retry-After': '9' }))
    const res = err.res as Response
    expect(res).toBeInstanceOf(Response)
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('9')
    expect(res.headers.get('content-type')).toBe('text/plain; charset=UTF-8')
    // Each read and each getResponse() is a fresh, unread response.
    expect(await res.text()).toBe('Slow down')
    expect(await (err.res as Response).text()).toBe('Slow down')
    expect(await err.getResponse().text()).toBe('Slow down')
    expect(Object.keys(err)).toContain('res')
  })

  it('captures no stack frames, and leaves Error.stackTraceLimit as it found it', () => {
    const before = Error.stackTraceLimit
    const err = caught(() => reject(401, 'Unauthorized', 'token_missing'))
    expect(Error.stackTraceLimit).toBe(before)
    // The name and message line only: no "    at …" frames.
    expect(String(err.stack)).not.toMatch(/\n\s+at /)
    expect(String(err.stack)).toContain('Unauthorized')
    // Other errors keep their frames.
    expect(String(new Error('x').stack)).toMatch(/\n\s+at /)
  })

  it('still rejects where Error.stackTraceLimit cannot be written (a frozen Error)', async () => {
    const own = Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit')
    Object.defineProperty(Error, 'stackTraceLimit', {
      value: 7,
      writable: false,
      configurable: true,
    })
    try {
      const err = caught(() => reject(429, 'Too many requests', 'rate_limited'))
      expect(err).toBeInstanceOf(Rejection)
      expect(err.getResponse().status).toBe(429)
      expect(Error.stackTraceLimit).toBe(7)
      const app = new Hono()
      app.get('/', () => reject(403, 'Access denied', 'forbidden'))
      const res = await app.request('/')
      expect([res.status, await res.text()]).toEqual([403, 'Access denied'])
    } finally {
      if (own) Object.defineProperty(Error, 'stackTraceLimit', own)
    }
  })
})
