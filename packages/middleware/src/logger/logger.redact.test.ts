import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { type LoggerOptions, logger } from './index'

// Everything a handler logs through c.get('log') is scrubbed of secret header values, whatever
// shape carries them. Every secret below contains "SECRET"; no written line may.

type Fields = Record<string, unknown>

/** Logs `fields` from a handler; returns the lines written (the request line last). */
async function logged(
  fields: () => unknown,
  options: Omit<LoggerOptions, 'sink'> = { format: 'json' },
  init?: RequestInit,
) {
  const lines: string[] = []
  const app = new Hono()
  app.use('*', logger({ ...options, sink: (line) => lines.push(line) }))
  app.get('/', (c) => {
    c.get('log').info(fields() as Fields, 'logged')
    return c.text('ok')
  })
  const res = await app.request('/', init)
  return { res, lines, entry: () => JSON.parse(lines[0] as string) as Fields }
}

const SECRET_REQUEST = {
  headers: {
    authorization: 'Bearer SECRET-A',
    'proxy-authorization': 'Basic SECRET-P',
    cookie: 'sid=SECRET-C',
    'x-api-key': 'SECRET-K',
    accept: 'text/plain',
  },
}

describe('logger redaction: the shapes that carry headers', () => {
  it('redacts header pairs, as [...c.req.raw.headers] gives them', async () => {
    const lines: string[] = []
    const app = new Hono()
    app.use('*', logger({ format: 'json', sink: (line) => lines.push(line) }))
    app.get('/', (c) => {
      c.get('log').info({ headers: [...c.req.raw.headers] }, 'pairs')
      return c.text('ok')
    })
    await app.request('/', SECRET_REQUEST)
    const entry = JSON.parse(lines[0] as string)
    expect(entry.headers).toContainEqual(['accept', 'text/plain'])
    expect(entry.headers).toContainEqual(['authorization', '[redacted]'])
    expect(lines.join('\n')).not.toContain('SECRET')
  })

  it("redacts an HTTP client's error properties (err.config.headers, as axios attaches them)", async () => {
    const { lines, entry } = await logged(() => {
      const err = Object.assign(new Error('Request failed with status code 401'), {
        name: 'AxiosError',
        code: 'ERR_BAD_REQUEST',
        config: {
          url: 'https://api.example/v1',
          headers: { Accept: 'application/json', Authorization: 'Bearer SECRET-AXIOS' },
        },
        response: { status: 401, headers: { 'set-cookie': ['sid=SECRET-SET'] } },
      })
      return { err }
    })
    expect(entry().err).toMatchObject({
      type: 'AxiosError',
      message: 'Request failed with status code 401',
      code: 'ERR_BAD_REQUEST',
      config: { headers: { Accept: 'application/json', Authorization: '[redacted]' } },
      response: { status: 401, headers: { 'set-cookie': '[redacted]' } },
    })
    expect((entry().err as Fields).stack).toContain('Request failed')
    expect(lines.join('\n')).not.toContain('SECRET')
  })

  it("redacts an error's cause and an AggregateError's errors (own, not enumerable)", async () => {
    const { lines, entry } = await logged(() => {
      const inner = Object.assign(new Error('inner'), { headers: { cookie: 'SECRET-INNER' } })
      const cause = { request: { headers: new Headers({ authorization: 'Bearer SECRET-CAUSE' }) } }
      const err = new AggregateError([inner], 'all failed', { cause })
      return { err }
    })
    expect(entry().err).toMatchObject({
      type: 'AggregateError',
      cause: { request: { headers: { authorization: '[redacted]' } } },
      errors: [{ type: 'Error', message: 'inner', headers: { cookie: '[redacted]' } }],
    })
    expect(lines.join('\n')).not.toContain('SECRET')
  })

  it("logs an Error given as the fields under err, its message the line's, as pino does", async () => {
    const lines: string[] = []
    const app = new Hono()
    app.use('*', logger({ format: 'json', sink: (line) => lines.push(line) }))
    app.get('/', (c) => {
      const err = Object.assign(new TypeError('bad'), { headers: { authorization: 'SECRET-TOP' } })
      c.get('log').error(err)
      c.get('log').error({ err }, 'with a message')
      return c.text('ok')
    })
    await app.request('/')
    const [first, second] = lines.map((line) => JSON.parse(line))
    expect(first).toMatchObject({ msg: 'bad', err: { type: 'TypeError', message: 'bad' } })
    expect(second).toMatchObject({ msg: 'with a message', err: { type: 'TypeError' } })
    expect(lines.join('\n')).not.toContain('SECRET')
  })

  it('redacts Map entries and writes a Map with string keys as an object', async () => {
    const { lines, entry } = await logged(() => ({
      map: new Map<string, unknown>([
        ['Authorization', 'Bearer SECRET-MAP'],
        ['accept', '*/*'],
      ]),
      keyed: new Map<unknown, unknown>([
        [1, 'one'],
        ['cookie', 'SECRET-KEYED'],
      ]),
    }))
    expect(entry().map).toEqual({ Authorization: '[redacted]', accept: '*/*' })
    expect(entry().keyed).toEqual([
      [1, 'one'],
      ['cookie', '[redacted]'],
    ])
    expect(lines.join('\n')).not.toContain('SECRET')
  })

  it("redacts Node's flat rawHeaders list and HAR-style { name, value } entries", async () => {
    const { lines, entry } = await logged(() => ({
      rawHeaders: ['Host', 'example', 'Cookie', 'SECRET-RAW', 'Accept', '*/*'],
      har: [
        { name: 'Authorization', value: 'SECRET-HAR' },
        { name: 'Accept', value: '*/*' },
      ],
    }))
    expect(entry().rawHeaders).toEqual(['Host', 'example', 'Cookie', '[redacted]', 'Accept', '*/*'])
    expect(entry().har).toEqual([
      { name: 'Authorization', value: '[redacted]' },
      { name: 'Accept', value: '*/*' },
    ])
    expect(lines.join('\n')).not.toContain('SECRET')
  })

  it('redacts Headers objects, at any depth', async () => {
    const { lines, entry } = await logged(() => ({
      a: { b: { c: { headers: new Headers(SECRET_REQUEST.headers) } } },
    }))
    expect(entry().a).toEqual({
      b: {
        c: {
          headers: {
            accept: 'text/plain',
            authorization: '[redacted]',
            cookie: '[redacted]',
            'proxy-authorization': '[redacted]',
            'x-api-key': '[redacted]',
          },
        },
      },
    })
    expect(lines.join('\n')).not.toContain('SECRET')
  })

  it('redacts in the text format too', async () => {
    const { lines } = await logged(
      () => ({ headers: [['Authorization', 'SECRET-TEXT']], err: new Error('x') }),
      { format: 'text' },
    )
    expect(lines[0]).toMatch(/^INFO logged \{.*"\[redacted\]".*\}$/)
    expect(lines.join('\n')).not.toContain('SECRET')
  })
})

// Each of these was a planted bug the earlier tests let through.
describe('logger redaction: planted bugs', () => {
  it('redacts proxy-authorization, in a Headers object and in a plain object', async () => {
    const { lines, entry } = await logged(() => ({
      headers: new Headers({ 'proxy-authorization': 'Basic SECRET-PROXY-1' }),
      plain: { 'proxy-authorization': 'Basic SECRET-PROXY-2' },
    }))
    expect(entry().headers).toEqual({ 'proxy-authorization': '[redacted]' })
    expect(entry().plain).toEqual({ 'proxy-authorization': '[redacted]' })
    expect(lines.join('\n')).not.toContain('SECRET')
  })

  it('compares header names case-insensitively, built-in and configured alike', async () => {
    const { lines, entry } = await logged(
      () => ({
        headers: {
          Authorization: 'SECRET-1',
          COOKIE: 'SECRET-2',
          'X-Api-Key': 'SECRET-3',
          'x-session-token': 'SECRET-4',
          'X-SESSION-TOKEN': 'SECRET-5',
        },
      }),
      { format: 'json', redact: ['X-Session-Token'] },
    )
    expect(Object.values(entry().headers as Fields)).toEqual(Array(5).fill('[redacted]'))
    expect(lines.join('\n')).not.toContain('SECRET')
  })

  it('scrubs arrays: objects inside arrays, arrays inside arrays', async () => {
    const { lines, entry } = await logged(() => ({
      requests: [{ headers: { authorization: 'SECRET-1' } }, [[{ cookie: 'SECRET-2' }]]],
    }))
    expect(entry().requests).toEqual([
      { headers: { authorization: '[redacted]' } },
      [[{ cookie: '[redacted]' }]],
    ])
    expect(lines.join('\n')).not.toContain('SECRET')
  })
})

describe('logger redaction: hostile values never throw or hang', () => {
  it('writes a cycle once and marks it', async () => {
    const { res, entry } = await logged(() => {
      const a: Fields = { name: 'a', headers: { cookie: 'SECRET' } }
      a.self = a
      a.list = [a]
      return { a }
    })
    expect(res.status).toBe(200)
    expect(entry().a).toEqual({
      name: 'a',
      headers: { cookie: '[redacted]' },
      self: '[circular]',
      list: ['[circular]'],
    })
  })

  it('writes a getter that throws, a revoked Proxy and a throwing toJSON as [unreadable]', async () => {
    const { res, entry } = await logged(() => {
      const revocable = Proxy.revocable({}, {})
      revocable.revoke()
      return {
        getter: Object.defineProperty({ ok: 1 }, 'bad', {
          enumerable: true,
          get() {
            throw new Error('getter')
          },
        }),
        proxy: revocable.proxy,
        traps: new Proxy(
          {},
          {
            ownKeys() {
              throw new Error('trap')
            },
          },
        ),
        json: {
          toJSON() {
            throw new Error('toJSON')
          },
        },
      }
    })
    expect(res.status).toBe(200)
    expect(entry()).toMatchObject({
      getter: { ok: 1, bad: '[unreadable]' },
      proxy: '[unreadable]',
      traps: '[unreadable]',
      json: '[unreadable]',
    })
  })

  it('bounds depth, width and size: a deep chain, a million-element array, a 10 MB buffer', async () => {
    let deep: Fields = { authorization: 'SECRET-DEEP' }
    for (let i = 0; i < 10_000; i++) deep = { next: deep }
    const wide: Fields = {}
    for (let i = 0; i < 10_000; i++) wide[`k${i}`] = i
    const value = {
      deep,
      wide,
      big: new Array(1_000_000).fill({ cookie: 'SECRET-BIG' }),
      bytes: new Uint8Array(10_000_000),
      n: 10n ** 30n,
    }
    const started = performance.now()
    const { res, lines, entry } = await logged(() => value)
    // Copied whole, this takes tens of seconds: the bound is a hang guard, not a speed goal.
    expect(performance.now() - started).toBeLessThan(5000)
    expect(res.status).toBe(200)
    expect((lines[0] as string).length).toBeLessThan(20_000)
    const e = entry()
    expect(e.bytes).toBe('[Uint8Array(10000000)]')
    expect(e.n).toBe('1000000000000000000000000000000')
    expect((e.big as unknown[]).at(-1)).toBe('[…][+999900]')
    expect(Object.keys(e.wide as Fields)).toHaveLength(101)
    expect(JSON.stringify(e.deep)).toContain('[…]')
    expect(lines.join('\n')).not.toContain('SECRET')
  })

  it('keeps an own __proto__ key as data', async () => {
    const { entry } = await logged(() => JSON.parse('{"x":{"__proto__":{"cookie":"SECRET"}}}'))
    expect(JSON.stringify(entry().x)).toBe('{"__proto__":{"cookie":"[redacted]"}}')
  })
})
