import { Hono } from 'hono'
import { describe, expect, it, vi } from 'vitest'
import { readBodyText } from './json-body'
import { serveParsedJson } from './parsed-json'

describe('serveParsedJson', () => {
  /** An app whose middleware reads and parses the body, then hands the parse to c.req.json(). */
  function appSharingTheParse(after?: (c: Parameters<typeof readBodyText>[0]) => void) {
    const app = new Hono()
    app.use(async (c, next) => {
      const text = (await readBodyText(c)) as string
      serveParsedJson(c, JSON.parse(text))
      after?.(c)
      await next()
    })
    return app
  }
  const body = '{"b":[1,{"c":"x"}],"a":null,"__proto__":{"polluted":true}}'

  it('serves c.req.json() without parsing again: what JSON.parse of the text gives, keys in order', async () => {
    const app = appSharingTheParse()
    const parse = vi.spyOn(JSON, 'parse')
    app.post('/', async (c) => {
      const calls = parse.mock.calls.length
      const value = (await c.req.json()) as Record<string, unknown>
      return c.json({
        parsedAgain: parse.mock.calls.length > calls,
        keys: Object.keys(value),
        proto: Object.getPrototypeOf(value) === Object.prototype,
        ownProto: Object.hasOwn(value, '__proto__'),
        equal: JSON.stringify(value) === body,
      })
    })
    const res = await app.request('/', { method: 'POST', body })
    parse.mockRestore()
    expect(await res.json()).toEqual({
      parsedAgain: false,
      keys: ['b', 'a', '__proto__'],
      proto: true,
      ownProto: true,
      equal: true,
    })
  })

  it('hands each call its own copy: a handler that mutates its body changes no later read', async () => {
    const app = appSharingTheParse()
    app.post('/', async (c) => {
      const first = (await c.req.json()) as { b: unknown[] }
      first.b.push('mutated')
      const second = (await c.req.json()) as { b: unknown[] }
      return c.json({ second: second.b.length, same: first === second })
    })
    const res = await app.request('/', { method: 'POST', body })
    expect(await res.json()).toEqual({ second: 2, same: false })
  })

  it('hands the first call the parse itself, and parses the text again for a later call', async () => {
    const app = new Hono()
    let parsedByMiddleware: unknown
    app.use(async (c, next) => {
      const text = (await readBodyText(c)) as string
      parsedByMiddleware = JSON.parse(text)
      serveParsedJson(c, parsedByMiddleware)
      await next()
    })
    const parse = vi.spyOn(JSON, 'parse')
    app.post('/', async (c) => {
      const before = parse.mock.calls.length
      const first = await c.req.json()
      const afterFirst = parse.mock.calls.length
      const second = await c.req.json()
      return c.json({
        firstIsTheParse: first === parsedByMiddleware,
        firstParsed: afterFirst > before,
        secondParsed: parse.mock.calls.length > afterFirst,
        secondIsFresh: second !== first && JSON.stringify(second) === body,
      })
    })
    const res = await app.request('/', { method: 'POST', body })
    parse.mockRestore()
    expect(await res.json()).toEqual({
      firstIsTheParse: true,
      firstParsed: false,
      secondParsed: true,
      secondIsFresh: true,
    })
  })

  it('defines c.req.json instead of assigning it, so a read-only json is still served', async () => {
    // Assigning a function over a member of the request made V8 keep requests alive through
    // scavenges (bench/FINDINGS.md, "Garbage"). A read-only property tells the two apart: an
    // assignment throws in strict code, a definition does not.
    const app = new Hono()
    app.use(async (c, next) => {
      Object.defineProperty(c.req, 'json', {
        value: c.req.json,
        writable: false,
        configurable: true,
      })
      const text = (await readBodyText(c)) as string
      serveParsedJson(c, JSON.parse(text))
      await next()
    })
    app.post('/', async (c) => c.json({ keys: Object.keys((await c.req.json()) as object) }))
    const res = await app.request('/', { method: 'POST', body })
    expect([res.status, await res.json()]).toEqual([200, { keys: ['b', 'a', '__proto__'] }])
  })

  it('parses the cached text again once a later middleware replaced it', async () => {
    const app = appSharingTheParse((c) => {
      ;(c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve('{"replaced":true}')
    })
    app.post('/', async (c) => c.json(await c.req.json()))
    const res = await app.request('/', { method: 'POST', body })
    expect(await res.json()).toEqual({ replaced: true })
  })
})
