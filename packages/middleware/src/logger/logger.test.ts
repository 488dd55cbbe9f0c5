import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { requestId } from '../request-id'
import { type LoggerOptions, logger } from './index'

const LINE = /^(\S+) (\S+) (\d{3}) (\d+)ms(?: (\S+))?$/

function setup(options: Omit<LoggerOptions, 'sink'> = {}) {
  const lines: string[] = []
  const app = new Hono()
  app.use('*', logger({ ...options, sink: (line) => lines.push(line) }))
  app.all('/users/:id', (c) => c.text('user'))
  app.get('/health', (c) => c.text('ok'))
  app.get('/static/*', (c) => c.text('file'))
  return { app, lines }
}

function parse(line: string | undefined) {
  const m = LINE.exec(line ?? '')
  expect(m, `unexpected log line ${JSON.stringify(line)}`).not.toBeNull()
  const [, method, path, status, ms, id] = m as RegExpExecArray
  return { method, path, status: Number(status), ms: Number(ms), id }
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('logger: line format', () => {
  it('writes one line METHOD /path STATUS DURATIONms per finished request', async () => {
    const { app, lines } = setup()
    await app.request('/users/42')
    expect(lines).toHaveLength(1)
    expect(parse(lines[0])).toMatchObject({ method: 'GET', path: '/users/42', status: 200 })
    expect(parse(lines[0]).id).toBeUndefined()
  })

  it('logs the method and status the client got', async () => {
    const { app, lines } = setup()
    await app.request('/users/1', { method: 'DELETE' })
    await app.request('/nope', { method: 'POST' })
    expect(parse(lines[0])).toMatchObject({ method: 'DELETE', status: 200 })
    expect(parse(lines[1])).toMatchObject({ method: 'POST', path: '/nope', status: 404 })
  })

  it('measures the duration of the whole chain', async () => {
    vi.spyOn(performance, 'now').mockReturnValueOnce(1000).mockReturnValueOnce(1012.6)
    const { app, lines } = setup()
    await app.request('/users/1')
    expect(lines[0]).toBe('GET /users/1 200 13ms')
  })

  it('writes the line after the handler finished', async () => {
    const { app, lines } = setup()
    const order: string[] = []
    app.get('/order', (c) => {
      order.push(`handler:${lines.length}`)
      return c.text('x')
    })
    await app.request('/order')
    expect(order).toEqual(['handler:0'])
    expect(lines).toHaveLength(1)
  })

  it('never logs the query string or fragment', async () => {
    const { app, lines } = setup()
    await app.request('/users/1?token=secret&password=hunter2')
    await app.request('http://localhost/users/2?#frag')
    expect(lines[0]).toMatch(/^GET \/users\/1 200 \d+ms$/)
    expect(lines.join('\n')).not.toContain('secret')
    expect(lines[1]).toMatch(/^GET \/users\/2 200 /)
  })

  it('keeps percent-encoded CR/LF encoded, so a path cannot forge a log line', async () => {
    const { app, lines } = setup()
    await app.request('/users/1%0d%0aGET%20/admin%20200%201ms')
    expect(lines).toHaveLength(1)
    expect(lines[0]).not.toMatch(/[\r\n]/)
    expect(parse(lines[0]).path).toBe('/users/1%0d%0aGET%20/admin%20200%201ms')
  })

  it('logs the root path as /', async () => {
    const { app, lines } = setup()
    app.get('/', (c) => c.text('root'))
    await app.request('http://localhost')
    expect(parse(lines[0]).path).toBe('/')
  })
})

describe('logger: path parameters are redacted', () => {
  it.each([
    ['/cart;jsessionid=1A2B3C4D', '/cart;jsessionid=[redacted]'],
    ['/cart;JSESSIONID=abc/items/7', '/cart;JSESSIONID=[redacted]/items/7'],
    ['/a;token=s3cr3t;v=2/b;sid=x', '/a;token=[redacted];v=[redacted]/b;sid=[redacted]'],
    ['/a;=nameless', '/a;=[redacted]'],
    ['/a;flag/b', '/a;flag/b'],
    ['/users/42', '/users/42'],
  ])('logs %s as %s', async (path, logged) => {
    const lines: string[] = []
    const app = new Hono()
    app.use('*', logger({ sink: (line) => lines.push(line) }))
    app.get('*', (c) => c.text('ok'))
    await app.request(path)
    expect(parse(lines[0]).path).toBe(logged)
  })

  it('never writes the parameter value anywhere in the line', async () => {
    const { app, lines } = setup()
    await app.request('/users/42;jsessionid=TOPSECRET0123?x=1')
    expect(lines[0]).not.toContain('TOPSECRET0123')
  })
})

describe('logger: line length is bounded', () => {
  it('cuts a 64 KB path to 1024 characters with a marker of what was left out', async () => {
    const { app, lines } = setup()
    const path = `/users/${'a'.repeat(64 * 1024)}`
    await app.request(path)
    const logged = parse(lines[0]).path as string
    expect(logged).toBe(`${path.slice(0, 1024)}…[+${path.length - 1024}]`)
    expect((lines[0] as string).length).toBeLessThan(1100)
  })

  it('keeps a path of exactly maxPathLength whole', async () => {
    const { app, lines } = setup({ maxPathLength: 12 })
    await app.request('/users/12345')
    expect(parse(lines[0]).path).toBe('/users/12345')
  })

  it('takes maxPathLength', async () => {
    const { app, lines } = setup({ maxPathLength: 8 })
    await app.request('/users/123456789')
    expect(parse(lines[0]).path).toBe('/users/1…[+8]')
  })

  it('redacts before cutting, so a cut never shows part of a parameter value', async () => {
    const { app, lines } = setup({ maxPathLength: 30 })
    await app.request(`/users/1;jsessionid=${'S'.repeat(100)}`)
    expect(lines[0]).not.toContain('SSS')
    expect(parse(lines[0]).path).toBe('/users/1;jsessionid=[redacted]')
  })

  it('bounds a long request ID from the context', async () => {
    const lines: string[] = []
    const app = new Hono()
    app.use('*', async (c, next) => {
      ;(c.set as (k: string, v: unknown) => void)('requestId', 'x'.repeat(10_000))
      await next()
    })
    app.use('*', logger({ sink: (line) => lines.push(line) }))
    app.get('/', (c) => c.text('ok'))
    await app.request('/')
    expect(parse(lines[0]).id).toBe(`${'x'.repeat(256)}…[+9744]`)
  })
})

describe('logger: request ID', () => {
  it('appends the request ID when requestId() put one in the context', async () => {
    const lines: string[] = []
    const app = new Hono()
    app.use('*', requestId())
    app.use('*', logger({ sink: (l) => lines.push(l) }))
    app.get('/', (c) => c.text('ok'))
    await app.request('/', { headers: { 'x-request-id': 'abc-123' } })
    expect(parse(lines[0]).id).toBe('abc-123')
  })

  it('finds the ID also when logger is registered before requestId', async () => {
    const lines: string[] = []
    const app = new Hono()
    app.use('*', logger({ sink: (l) => lines.push(l) }))
    app.use('*', requestId({ generate: () => 'gen-1' }))
    app.get('/', (c) => c.text('ok'))
    await app.request('/')
    expect(lines[0]).toMatch(/^GET \/ 200 \d+ms gen-1$/)
  })

  it('ignores a non-string requestId value in the context', async () => {
    const lines: string[] = []
    const app = new Hono()
    app.use('*', logger({ sink: (l) => lines.push(l) }))
    app.use('*', async (c, next) => {
      c.set('requestId', 42 as unknown as string)
      await next()
    })
    app.get('/', (c) => c.text('ok'))
    await app.request('/')
    expect(lines[0]).toMatch(/^GET \/ 200 \d+ms$/)
  })
})

describe('logger: requests that threw', () => {
  it('logs 500 for a thrown Error and app.onError still sees it', async () => {
    const { app, lines } = setup()
    const onError = vi.fn((_: Error, c) => c.text('handled', 500))
    app.onError(onError)
    app.get('/boom', () => {
      throw new Error('boom')
    })
    const res = await app.request('/boom')
    expect(res.status).toBe(500)
    expect(await res.text()).toBe('handled')
    expect(onError).toHaveBeenCalledOnce()
    expect(onError.mock.calls[0]?.[0].message).toBe('boom')
    expect(parse(lines[0])).toMatchObject({ path: '/boom', status: 500 })
  })

  it("logs the HTTPException's status", async () => {
    const { app, lines } = setup()
    app.get('/teapot', () => {
      throw new HTTPException(418, { message: 'short and stout' })
    })
    const res = await app.request('/teapot')
    expect(res.status).toBe(418)
    expect(parse(lines[0]).status).toBe(418)
  })

  it('logs the status onError answered with when it reshapes the error', async () => {
    const { app, lines } = setup()
    app.onError((_, c) => c.text('unavailable', 503))
    app.get('/boom', () => {
      throw new Error('boom')
    })
    await app.request('/boom')
    expect(parse(lines[0]).status).toBe(503)
  })

  it('logs a rejection thrown by a later middleware', async () => {
    const { app, lines } = setup()
    app.use('/guarded', async () => {
      throw new HTTPException(401, { message: 'no' })
    })
    app.get('/guarded', (c) => c.text('secret'))
    await app.request('/guarded')
    expect(parse(lines[0]).status).toBe(401)
  })

  it('logs 500 and rethrows when the chain rejects with a non-Error', async () => {
    const lines: string[] = []
    const mw = logger({ sink: (l) => lines.push(l) })
    const app = new Hono()
    app.get('/', async (c) => {
      // Hono's compose only catches Error instances; a thrown string reaches the middleware.
      await expect(mw(c, () => Promise.reject('not an error'))).rejects.toBe('not an error')
      return c.text('done')
    })
    await app.request('/')
    expect(lines).toEqual([expect.stringMatching(/^GET \/ 500 \d+ms$/)])
  })

  it('logs 500 and passes the error on as a rejected promise when next() throws synchronously', async () => {
    const lines: string[] = []
    const mw = logger({ sink: (l) => lines.push(l) })
    const app = new Hono()
    const err = new Error('thrown before any promise')
    app.get('/', async (c) => {
      let result: unknown
      expect(() => {
        result = mw(c, () => {
          throw err
        })
      }).not.toThrow()
      await expect(result).rejects.toBe(err)
      return c.text('done')
    })
    await app.request('/')
    expect(lines).toEqual([expect.stringMatching(/^GET \/ 500 \d+ms$/)])
  })

  it('writes the line only once the chain has settled', async () => {
    const lines: string[] = []
    const mw = logger({ sink: (l) => lines.push(l) })
    const app = new Hono()
    app.get('/', async (c) => {
      let release = () => {}
      const result = mw(c, () => new Promise<void>((resolve) => (release = resolve)))
      await Promise.resolve()
      expect(lines).toEqual([])
      c.res = new Response(null, { status: 204 })
      release()
      await result
      expect(lines).toEqual([expect.stringMatching(/^GET \/ 204 \d+ms$/)])
      return c.text('done')
    })
    expect((await app.request('/')).status).toBe(200)
  })

  it('logs the HTTPException status and rethrows when next() itself rejects with one', async () => {
    const lines: string[] = []
    const mw = logger({ sink: (l) => lines.push(l) })
    const app = new Hono()
    const err = new HTTPException(429, { message: 'slow down' })
    app.get('/', async (c) => {
      await expect(mw(c, () => Promise.reject(err))).rejects.toBe(err)
      return c.text('done')
    })
    await app.request('/')
    expect(lines[0]).toMatch(/^GET \/ 429 \d+ms$/)
  })
})

describe('logger: exclude', () => {
  it('skips an exact path', async () => {
    const { app, lines } = setup({ exclude: ['/health'] })
    await app.request('/health')
    await app.request('/users/1')
    expect(lines).toHaveLength(1)
    expect(parse(lines[0]).path).toBe('/users/1')
  })

  it('does not treat an exact path as a prefix', async () => {
    const { app, lines } = setup({ exclude: ['/health'] })
    await app.request('/health/deep')
    await app.request('/healthz')
    expect(lines).toHaveLength(2)
  })

  it('skips everything under a prefix/* pattern and the prefix itself', async () => {
    const { app, lines } = setup({ exclude: ['/static/*'] })
    await app.request('/static/app.js')
    await app.request('/static/a/b/c.css')
    await app.request('/static')
    await app.request('/staticfile')
    await app.request('/users/1')
    expect(lines.map((l) => parse(l).path)).toEqual(['/staticfile', '/users/1'])
  })

  it('matches excluded paths without their query string', async () => {
    const { app, lines } = setup({ exclude: ['/health'] })
    await app.request('/health?probe=1')
    expect(lines).toHaveLength(0)
  })

  it('skips everything with /*', async () => {
    const { app, lines } = setup({ exclude: ['/*'] })
    await app.request('/users/1')
    await app.request('/')
    expect(lines).toHaveLength(0)
  })

  it('still runs the handler of an excluded path', async () => {
    const { app } = setup({ exclude: ['/health'] })
    const res = await app.request('/health')
    expect(await res.text()).toBe('ok')
  })

  it('logs everything by default', async () => {
    const { app, lines } = setup()
    await app.request('/health')
    await app.request('/static/x')
    expect(lines).toHaveLength(2)
  })
})

describe('logger: sink', () => {
  it('writes to console.log by default', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    const app = new Hono()
    app.use('*', logger())
    app.get('/', (c) => c.text('ok'))
    await app.request('/?q=1')
    expect(log).toHaveBeenCalledOnce()
    expect(log.mock.calls[0]).toEqual([expect.stringMatching(/^GET \/ 200 \d+ms$/)])
  })

  it('does not break the response when the sink throws', async () => {
    const app = new Hono()
    app.use(
      '*',
      logger({
        sink: () => {
          throw new Error('disk full')
        },
      }),
    )
    app.get('/', (c) => c.text('ok'))
    const res = await app.request('/')
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('ok')
  })
})

describe('logger: option validation', () => {
  it.each<[string, unknown, RegExp]>([
    ['an unknown option', { excludes: [] }, /unknown option "excludes"/],
    ['exclude not an array', { exclude: '/health' }, /"exclude" must be an array/],
    ['an exclude entry without a leading slash', { exclude: ['health'] }, /must start with "\/"/],
    ['a wildcard in the middle', { exclude: ['/a/*/b'] }, /only allowed as a final/],
    ['a wildcard without slash', { exclude: ['/static*'] }, /only allowed as a final/],
    [
      'an empty exclude entry',
      { exclude: [''] },
      /"exclude" must be an array of non-empty strings/,
    ],
    ['a non-function sink', { sink: 'stdout' }, /"sink" must be a function/],
    ['a zero maxPathLength', { maxPathLength: 0 }, /"maxPathLength"/],
    ['a fractional maxPathLength', { maxPathLength: 1.5 }, /"maxPathLength"/],
  ])('throws a logger TypeError for %s', (_, options, message) => {
    const make = () => logger(options as LoggerOptions)
    expect(make).toThrow(TypeError)
    expect(make).toThrow(/^logger: /)
    expect(make).toThrow(message)
  })

  it('returns a named function', () => {
    expect(logger().name).toBe('logger')
  })
})
