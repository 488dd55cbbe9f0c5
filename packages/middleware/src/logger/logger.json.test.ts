import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { ipGuard } from '../ip-guard'
import { rateLimit } from '../rate-limit'
import { requestId } from '../request-id'
import { type LoggerOptions, logger } from './index'

function setup(options: Omit<LoggerOptions, 'sink' | 'format'> = {}) {
  const lines: string[] = []
  const app = new Hono()
  app.use('*', logger({ ...options, format: 'json', sink: (line) => lines.push(line) }))
  app.use('*', requestId({ generate: () => 'req-1' }))
  return { app, lines, entries: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) }
}

describe('logger: format json', () => {
  it('writes one JSON object per request with time, level, msg, reqId, req, res, responseTime, decisions', async () => {
    const { app, entries } = setup()
    app.get('/users/:id', (c) => c.text('ok'))
    await app.request('/users/7?token=secret')
    const [entry] = entries()
    expect(entry).toMatchObject({
      level: 'info',
      msg: expect.stringMatching(/^GET \/users\/7 200 \d+ms$/),
      reqId: 'req-1',
      req: { method: 'GET', path: '/users/7' },
      res: { status: 200 },
      decisions: [],
    })
    expect(typeof entry?.time).toBe('number')
    expect(typeof entry?.responseTime).toBe('number')
    expect(JSON.stringify(entry)).not.toContain('secret')
  })

  it.each([
    [200, 'info'],
    [302, 'info'],
    [404, 'warn'],
    [429, 'warn'],
    [500, 'error'],
    [503, 'error'],
  ])('logs status %i at level %s', async (status, level) => {
    const { app, entries } = setup()
    app.get('/', (c) => c.body(null, status as 200))
    await app.request('/')
    expect(entries()[0]?.level).toBe(level)
  })

  it("records the rejecting middleware's decision with its code and status", async () => {
    const { app, entries } = setup()
    app.use('*', ipGuard({ list: ['10.0.0.0/8'], keyGenerator: () => '10.1.2.3' }))
    app.get('/', (c) => c.text('ok'))
    const res = await app.request('/')
    expect(res.status).toBe(403)
    expect(entries()[0]).toMatchObject({
      level: 'warn',
      res: { status: 403 },
      decisions: [{ middleware: 'ipGuard', outcome: 'reject', code: 'ip_denied', status: 403 }],
    })
  })

  it('records store timing and dry-run decisions', async () => {
    const { app, entries } = setup()
    app.use('*', rateLimit({ max: 1, dryRun: true, keyGenerator: () => 'k' }))
    app.get('/', (c) => c.text('ok'))
    await app.request('/')
    const second = await app.request('/')
    expect(second.status).toBe(200)
    expect(second.headers.get('ratelimit-remaining')).toBe('0')
    const [first, dry] = entries()
    expect(first?.decisions).toEqual([
      {
        middleware: 'rateLimit',
        outcome: 'allow',
        ms: expect.any(Number),
        store: { op: 'increment', ms: expect.any(Number) },
      },
    ])
    expect(dry?.decisions).toMatchObject([
      { middleware: 'rateLimit', outcome: 'dry-run', code: 'rate_limited', status: 429 },
    ])
  })

  it('gives c.get("log") lines that carry the same reqId, with secret headers redacted', async () => {
    const { app, entries } = setup({ redact: ['x-session-token'] })
    app.get('/', (c) => {
      c.get('log').info({ headers: c.req.raw.headers, user: 42 }, 'hello')
      c.get('log').warn('plain')
      return c.text('ok')
    })
    await app.request('/', {
      headers: {
        authorization: 'Bearer TOPSECRET1',
        cookie: 'sid=TOPSECRET2',
        'x-session-token': 'TOPSECRET3',
        accept: 'text/plain',
      },
    })
    const [hello, plain, request] = entries()
    expect(hello).toMatchObject({ level: 'info', msg: 'hello', reqId: 'req-1', user: 42 })
    expect(hello?.headers).toMatchObject({ accept: 'text/plain', authorization: '[redacted]' })
    expect(plain).toMatchObject({ level: 'warn', msg: 'plain', reqId: 'req-1' })
    expect(request?.reqId).toBe('req-1')
    expect(
      entries()
        .map((e) => JSON.stringify(e))
        .join('\n'),
    ).not.toMatch(/TOPSECRET/)
  })

  it('records decisions untimed in text format: outcomes for the dry-run marker, no clock reads', async () => {
    const app = new Hono()
    let seen: unknown = 'unset'
    app.use('*', logger({ sink: () => {} }))
    app.use('*', ipGuard({ list: ['10.0.0.0/8'], keyGenerator: () => '192.0.2.1' }))
    app.use('*', rateLimit({ max: 5, keyGenerator: () => 'k' }))
    app.get('/', (c) => {
      seen = (c.get as (k: string) => unknown)('palisade.decisions')
      return c.text('ok')
    })
    await app.request('/')
    expect(seen).toMatchObject({
      timed: false,
      decisions: [
        { middleware: 'ipGuard', outcome: 'allow', ms: undefined, store: undefined },
        { middleware: 'rateLimit', outcome: 'allow', ms: undefined, store: undefined },
      ],
    })
  })
})

describe('logger: serverTiming', () => {
  it('is off by default', async () => {
    const { app } = setup()
    app.get('/', (c) => c.text('ok'))
    expect((await app.request('/')).headers.get('server-timing')).toBeNull()
  })

  it('lists each middleware that decided, then the handler', async () => {
    const app = new Hono()
    app.use('*', logger({ serverTiming: true, sink: () => {} }))
    app.use('*', ipGuard({ list: ['10.0.0.0/8'], keyGenerator: () => '192.0.2.1' }))
    app.use('*', rateLimit({ max: 5, keyGenerator: () => 'k' }))
    app.get('/', (c) => c.text('ok'))
    const header = (await app.request('/')).headers.get('server-timing')
    expect(header).toMatch(/^ipGuard;dur=[\d.]+, rateLimit;dur=[\d.]+, handler;dur=[\d.]+$/)
  })

  it('rejects a non-boolean serverTiming and an unknown format', () => {
    expect(() => logger({ serverTiming: 'yes' as never })).toThrow(/^logger: .*serverTiming/)
    expect(() => logger({ format: 'xml' as never })).toThrow(/^logger: .*format/)
  })
})
