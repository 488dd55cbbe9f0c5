import { Context, Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { csrf } from '../csrf'
import { ipGuard } from '../ip-guard'
import { rateLimit } from '../rate-limit'
import { requestId } from '../request-id'
import { logger } from './index'

// What a text line must never carry raw: each of these, written as is, forges a line, drives a
// terminal or reorders what a reader sees.
const FORGING: Array<[string, string, string]> = [
  ['LF', '\n', '\\n'],
  ['CR', '\r', '\\r'],
  ['CRLF', '\r\n', '\\r\\n'],
  ['ESC (a colour escape)', '\u001b[31m', '\\u001b[31m'],
  ['NUL', '\u0000', '\\u0000'],
  ['DEL', '\u007f', '\\u007f'],
  ['a C1 CSI', '\u009b', '\\u009b'],
  ['NEL', '\u0085', '\\u0085'],
  ['the line separator', '\u2028', '\\u2028'],
  ['the paragraph separator', '\u2029', '\\u2029'],
  ['a bidi override', '\u202e', '\\u202e'],
  ['a bidi isolate', '\u2066', '\\u2066'],
]
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const RAW = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

function textApp() {
  const lines: string[] = []
  const app = new Hono()
  app.use('*', logger({ sink: (line) => lines.push(line) }))
  app.use('*', requestId({ generate: () => 'req-1' }))
  return { app, lines }
}

describe('logger text format: control characters from c.get("log") are escaped', () => {
  it.each(FORGING)('escapes %s in a message', async (_, raw, escaped) => {
    const { app, lines } = textApp()
    app.get('/', (c) => {
      c.get('log').warn(`login failed${raw}INFO GET /admin 200 1ms forged`)
      return c.text('ok')
    })
    await app.request('/')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toBe(`WARN login failed${escaped}INFO GET /admin 200 1ms forged req-1`)
    expect(lines[0]).not.toMatch(RAW)
  })

  it.each(FORGING)(
    'escapes %s in a logged field and in the message after fields',
    async (_, raw) => {
      const { app, lines } = textApp()
      app.get('/', (c) => {
        c.get('log').info({ user: `eve${raw}x` }, `hi${raw}`)
        return c.text('ok')
      })
      await app.request('/')
      expect(lines).toHaveLength(2)
      expect(lines[0]).toMatch(/^INFO hi\S+ \{"user":"eve\S+x"\} req-1$/)
      expect(lines[0]).not.toMatch(RAW)
    },
  )

  it('escapes a request ID from the context on both lines', async () => {
    const lines: string[] = []
    const app = new Hono()
    app.use('*', logger({ sink: (line) => lines.push(line) }))
    app.use('*', async (c, next) => {
      c.set('requestId', 'id\nGET /forged 200 1ms')
      await next()
    })
    app.get('/', (c) => {
      c.get('log').info('hello')
      return c.text('ok')
    })
    await app.request('/')
    expect(lines).toEqual([
      'INFO hello id\\nGET /forged 200 1ms',
      expect.stringMatching(/^GET \/ 200 \d+ms id\\nGET \/forged 200 1ms$/),
    ])
  })

  it('escapes control characters in the method, the path and the request ID of the line', async () => {
    // A runtime that hands Hono a request as it came (no URL parser, no method check): what
    // reaches the line raw is escaped wherever it sits.
    const lines: string[] = []
    const mw = logger({ sink: (line) => lines.push(line) })
    const raw = { url: 'http://x/a\u2028b\n', method: 'G\u0085ET', headers: new Headers() }
    const c = new Context(raw as unknown as Request)
    c.set('requestId', 'id\u001b[31m')
    await mw(c, async () => {
      c.res = new Response('ok', { status: 203 })
    })
    expect(lines).toEqual([
      expect.stringMatching(/^G\\u0085ET \/a\\u2028b\\n 203 \d+ms id\\u001b\[31m$/),
    ])
  })

  it('leaves ordinary text, tabs aside, as it was: quotes, backslashes, accents, emoji', async () => {
    const { app, lines } = textApp()
    app.get('/', (c) => {
      c.get('log').info('C:\\temp "quoted" café 🚀')
      return c.text('ok')
    })
    await app.request('/')
    expect(lines[0]).toBe('INFO C:\\temp "quoted" café 🚀 req-1')
  })
})

describe('logger text format: dry runs are marked', () => {
  it('ends the line with dry-run=middleware:code, as the JSON decisions name them', async () => {
    const { app, lines } = textApp()
    app.use('*', rateLimit({ max: 1, dryRun: true, keyGenerator: () => 'k' }))
    app.get('/', (c) => c.text('ok'))
    await app.request('/')
    const res = await app.request('/')
    expect(res.status).toBe(200)
    expect(lines[0]).toMatch(/^GET \/ 200 \d+ms req-1$/)
    expect(lines[1]).toMatch(/^GET \/ 200 \d+ms req-1 dry-run=rateLimit:rate_limited$/)
  })

  it('lists every dry run of the request, in order, also without a request ID', async () => {
    const lines: string[] = []
    const app = new Hono()
    app.use('*', logger({ sink: (line) => lines.push(line) }))
    app.use('*', ipGuard({ list: ['10.0.0.0/8'], keyGenerator: () => '10.0.0.1', dryRun: true }))
    app.use('*', csrf({ dryRun: true }))
    app.post('/', (c) => c.text('ok'))
    expect((await app.request('/', { method: 'POST' })).status).toBe(200)
    expect(lines[0]).toMatch(
      /^POST \/ 200 \d+ms dry-run=ipGuard:ip_denied,csrf:csrf_token_invalid$/,
    )
  })

  it('marks nothing when the guard enforces, or lets the request through', async () => {
    const { app, lines } = textApp()
    app.use('/live', rateLimit({ max: 1, keyGenerator: () => 'live' }))
    app.use('/dry', rateLimit({ max: 5, dryRun: true, keyGenerator: () => 'dry' }))
    app.get('*', (c) => c.text('ok'))
    await app.request('/live')
    await app.request('/live')
    await app.request('/dry')
    expect(lines).toEqual([
      expect.stringMatching(/^GET \/live 200 \d+ms req-1$/),
      expect.stringMatching(/^GET \/live 429 \d+ms req-1$/),
      expect.stringMatching(/^GET \/dry 200 \d+ms req-1$/),
    ])
  })

  it('passes the marked line to a pino-shaped sink too', async () => {
    const got: string[] = []
    const sink = {
      info: (_: object, msg?: string) => got.push(`info ${msg}`),
      warn: (_: object, msg?: string) => got.push(`warn ${msg}`),
      error: (_: object, msg?: string) => got.push(`error ${msg}`),
    }
    const app = new Hono()
    app.use('*', logger({ sink }))
    app.use('*', ipGuard({ list: ['10.0.0.0/8'], keyGenerator: () => '10.0.0.1', dryRun: true }))
    app.get('/', (c) => c.text('ok'))
    await app.request('/')
    expect(got).toEqual([
      expect.stringMatching(/^info GET \/ 200 \d+ms dry-run=ipGuard:ip_denied$/),
    ])
  })
})
