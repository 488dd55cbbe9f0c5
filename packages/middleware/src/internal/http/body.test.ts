import { type AddressInfo, connect } from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bodyLimit } from '../../body-limit'
import { csrf } from '../../csrf'
import { ssrfGuard } from '../../ssrf-guard'
import { xssSanitize } from '../../xss-sanitize'
import { framedByRuntime, mayHaveBody } from './body'
import { internalsSwitchedOff } from './node-server'
import { socketFramedLength } from './socket-body'

/**
 * @hono/node-server builds its undici Request (with an AbortController) only when something
 * reads the body; the controller then sits on the lightweight request under a private symbol.
 */
function materialised(raw: Request): boolean {
  return Object.getOwnPropertySymbols(raw).some(
    (key) => (raw as unknown as Record<symbol, unknown>)[key] instanceof AbortController,
  )
}

interface Reply {
  status: number
  body: string
}

/** One HTTP/1.1 request written byte for byte, so the framing is exactly what the test says. */
function send(port: number, head: string, body = ''): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `${head.trim().split('\n').join('\r\n')}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n${body}`,
      )
    })
    let raw = ''
    socket.setEncoding('latin1')
    socket.on('data', (d) => {
      raw += d
    })
    // A server may answer 413 before reading everything and reset the connection.
    socket.on('error', (error) => (raw ? undefined : reject(error)))
    socket.on('close', () => {
      const [header = '', payload = ''] = raw.split('\r\n\r\n')
      const chunked = /transfer-encoding: chunked/i.test(header)
      resolve({
        status: Number(header.split(' ')[1]),
        body: chunked ? dechunk(payload) : payload,
      })
    })
  })
}

function dechunk(payload: string): string {
  let out = ''
  let rest = payload
  for (;;) {
    const line = rest.indexOf('\r\n')
    const size = Number.parseInt(rest.slice(0, line), 16)
    if (!size) return out
    out += rest.slice(line + 2, line + 2 + size)
    rest = rest.slice(line + 4 + size)
  }
}

/**
 * A request and then, once its answer is in, `GET /plain` on the same kept-alive connection, as a
 * pooling client does. The statuses of every answer that came back, and the first answer's head.
 */
function thenAnother(
  port: number,
  head: string,
  body: string,
): Promise<{ statuses: number[]; first: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`${head.trim().split('\n').join('\r\n')}\r\nHost: 127.0.0.1\r\n\r\n${body}`)
    })
    let raw = ''
    let sentSecond = false
    socket.setEncoding('latin1')
    socket.on('data', (d) => {
      raw += d
      const end = raw.indexOf('\r\n\r\n')
      if (sentSecond || end === -1) return
      const length = /content-length: (\d+)/i.exec(raw.slice(0, end))
      const complete = length
        ? raw.length >= end + 4 + Number(length[1])
        : raw.endsWith('\r\n0\r\n\r\n') // chunked: the last chunk is in
      if (complete) {
        sentSecond = true
        socket.write('GET /plain HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')
      }
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      const statuses = [...raw.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]))
      resolve({ statuses, first: raw.slice(0, raw.indexOf('\r\n\r\n')) })
    })
  })
}

/** Serves `app` on a loopback port with @hono/node-server, as an application would. */
async function listen(app: Hono): Promise<{ port: number; close: () => Promise<void> }> {
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/**
 * False when the borrowed internals are switched off (tests/versions/run.mjs runs this file both
 * ways): the answers on the wire stay the same, what differs is only how they are reached (the
 * body stream built, the connection closed after a refusal instead of drained).
 */
const FAST = !internalsSwitchedOff()

const chunk = (text: string) => `${text.length.toString(16)}\r\n${text}\r\n`

describe('mayHaveBody over a real @hono/node-server server', () => {
  let port: number
  let close: () => Promise<void>
  const seen: { path: string; mayHaveBody: boolean; materialised: boolean }[] = []

  beforeAll(async () => {
    const app = new Hono()
    app.use(async (c, next) => {
      await next()
      // After the whole chain: did anything build the body, and what does the helper say?
      const built = materialised(c.req.raw)
      seen.push({ path: c.req.path, mayHaveBody: mayHaveBody(c), materialised: built })
    })
    app.use('/replaced/*', async (c, next) => {
      // A middleware that swaps in its own request, with a body but no framing headers.
      c.req.raw = new Request(c.req.url, { method: 'POST', body: 'x'.repeat(200) })
      await next()
    })
    app.use(bodyLimit({ max: 100 }))
    app.use(ssrfGuard())
    app.use(xssSanitize())
    app.use(csrf({ origins: ['http://allowed.example'] }))
    app.all('*', (c) => c.text(`${c.req.method} ok`))
    ;({ port, close } = await listen(app))
  })

  afterAll(() => close())

  it('answers a GET without body framing from the headers, never building the body', async () => {
    seen.length = 0
    const res = await send(port, 'GET /plain HTTP/1.1\nContent-Type: application/json')
    expect(res).toEqual({ status: 200, body: 'GET ok' })
    // Switched off, the body is asked for: node-server builds the Request to say it has none.
    expect(seen).toEqual([{ path: '/plain', mayHaveBody: false, materialised: !FAST }])
  })

  it('still limits a chunked upload (no Content-Length)', async () => {
    const res = await send(
      port,
      'POST /upload HTTP/1.1\nContent-Type: text/plain\nTransfer-Encoding: chunked',
      `${chunk('a'.repeat(60))}${chunk('b'.repeat(60))}0\r\n\r\n`,
    )
    expect(res).toEqual({ status: 413, body: 'Content Too Large' })
  })

  it('still limits an upload with Content-Length', async () => {
    const res = await send(
      port,
      'POST /upload HTTP/1.1\nContent-Type: text/plain\nContent-Length: 150',
      'a'.repeat(150),
    )
    expect(res).toEqual({ status: 413, body: 'Content Too Large' })
  })

  it('still reads a chunked JSON body: ssrfGuard finds the URL in it', async () => {
    const res = await send(
      port,
      'POST /fetch HTTP/1.1\nContent-Type: application/json\nTransfer-Encoding: chunked',
      `${chunk('{"url":"http://127.')}${chunk('0.0.1/admin"}')}0\r\n\r\n`,
    )
    expect(res).toEqual({ status: 403, body: 'Forbidden URL' })
  })

  it.each([
    ['a chunked', 'Transfer-Encoding: chunked', `${chunk('_csrf=tok')}0\r\n\r\n`],
    ['a Content-Length', 'Content-Length: 9', '_csrf=tok'],
  ])('still reads %s form body: csrf finds the token in it', async (_, framing, body) => {
    const res = await send(
      port,
      `POST /form HTTP/1.1\nContent-Type: application/x-www-form-urlencoded\nCookie: XSRF-TOKEN=tok\nOrigin: http://allowed.example\n${framing}`,
      body,
    )
    expect(res).toEqual({ status: 200, body: 'POST ok' })
  })

  it('falls back to raw.body for a GET that declares a body', async () => {
    seen.length = 0
    const res = await send(port, 'GET /plain HTTP/1.1\nContent-Length: 5', 'hello')
    expect(res.status).toBe(200)
    // @hono/node-server gives a GET no body at all, which it takes building the Request to learn.
    expect(seen).toEqual([{ path: '/plain', mayHaveBody: false, materialised: true }])
  })

  it('checks a request that a middleware put in place by its own body', async () => {
    const res = await send(port, 'GET /replaced/x HTTP/1.1')
    expect(res).toEqual({ status: 413, body: 'Content Too Large' })
  })

  it('treats a POST with neither Content-Length nor Transfer-Encoding as bodiless', async () => {
    seen.length = 0
    const res = await send(
      port,
      'POST /form HTTP/1.1\nContent-Type: application/x-www-form-urlencoded\nOrigin: http://allowed.example',
    )
    expect(res).toEqual({ status: 403, body: 'Invalid CSRF token' })
    expect(seen).toEqual([{ path: '/form', mayHaveBody: !FAST, materialised: !FAST }])
  })
})

describe('mayHaveBody from the framing of a POST, over a real @hono/node-server server', () => {
  it.each([
    ['a Content-Length', 'Content-Length: 5', 'hello', true],
    ['a zero Content-Length', 'Content-Length: 0', '', false],
    ['chunked framing', 'Transfer-Encoding: chunked', `${chunk('hello')}0\r\n\r\n`, true],
  ])('answers for %s without building the body', async (_, framing, body, has) => {
    const app = new Hono()
    let seen: { mayHaveBody: boolean; materialised: boolean } | undefined
    app.use(async (c, next) => {
      await next()
      const answer = mayHaveBody(c)
      seen = { mayHaveBody: answer, materialised: materialised(c.req.raw) }
    })
    // The middleware that ask mayHaveBody and read only bodies they parse (a text body is not).
    app.use(xssSanitize())
    app.use(csrf({ origins: ['http://allowed.example'] }))
    app.all('*', (c) => c.text('ok'))
    const { port, close } = await listen(app)
    try {
      const res = await send(port, `POST / HTTP/1.1\nContent-Type: text/plain\n${framing}`, body)
      expect(res.status).toBe(403) // csrf: no token, and none is looked for in a text body
      // Switched off, the Request is built to learn it (a zero length is still a body there).
      expect(seen).toEqual({ mayHaveBody: FAST ? has : true, materialised: !FAST })
    } finally {
      await close()
    }
  })
})

describe('bodyLimit over a real @hono/node-server server: the connection after a refusal', () => {
  let port: number
  let close: () => Promise<void>
  const built: boolean[] = []

  beforeAll(async () => {
    const app = new Hono()
    app.use(async (c, next) => {
      await next()
      built.push(materialised(c.req.raw))
    })
    app.use(bodyLimit({ max: 100 }))
    app.post('/echo', async (c) => c.text(await c.req.text()))
    app.all('*', (c) => c.text(`${c.req.method} ok`))
    ;({ port, close } = await listen(app))
  })

  afterAll(() => close())

  it('passes a body within the limit by its framed length, without building the Request', async () => {
    built.length = 0
    const res = await thenAnother(port, 'POST /upload HTTP/1.1\nContent-Length: 5', 'hello')
    expect(res.statuses).toEqual([200, 200])
    expect(built[0]).toBe(!FAST)
    // The handler still reads the body whole.
    expect(await send(port, 'POST /echo HTTP/1.1\nContent-Length: 5', 'hello')).toEqual({
      status: 200,
      body: 'hello',
    })
  })

  it.each([
    ['two equal lengths over the limit', 'Content-Length: 5000\nContent-Length: 5000'],
    ['two different lengths', 'Content-Length: 5\nContent-Length: 5000'],
    ['a list in one header', 'Content-Length: 5, 5000'],
    ['a length beside chunked framing', 'Content-Length: 5\nTransfer-Encoding: chunked'],
  ])('never lets %s through, and never answers 5xx', async (_, framing) => {
    const res = await send(port, `POST /echo HTTP/1.1\n${framing}`, 'a'.repeat(5000))
    // Node's parser refuses the ambiguous framings itself (400); a lone length over max is 413.
    expect([400, 413]).toContain(res.status)
  })

  it('refuses an over-long Content-Length from the headers and serves the next request', async () => {
    built.length = 0
    const res = await thenAnother(
      port,
      'POST /upload HTTP/1.1\nContent-Type: text/plain\nContent-Length: 5000',
      'a'.repeat(5000),
    )
    // The body stream was never built, so node-server drained the unread body: the GET after it
    // on the same connection is answered, not reset.
    // Switched off, the body stream exists and is left unread: the connection is closed instead.
    expect(res.statuses).toEqual(FAST ? [413, 200] : [413])
    if (FAST) expect(res.first).not.toMatch(/^connection: close$/im)
    else expect(res.first).toMatch(/^connection: close$/im)
    expect(built[0]).toBe(!FAST)
  })

  it('closes the connection after refusing a chunked body it stopped reading', async () => {
    const res = await thenAnother(
      port,
      'POST /upload HTTP/1.1\nContent-Type: text/plain\nTransfer-Encoding: chunked',
      `${chunk('a'.repeat(60))}${chunk('b'.repeat(60))}${chunk('c'.repeat(60))}`,
    )
    // The rest of the body is unread: keeping the connection would parse it as the next request.
    expect(res.statuses).toEqual([413])
    expect(res.first).toMatch(/^connection: close$/im)
  })

  it('keeps the connection after a body within the limit', async () => {
    const res = await thenAnother(port, 'POST /upload HTTP/1.1\nContent-Length: 5', 'hello')
    expect(res.statuses).toEqual([200, 200])
  })
})

describe('mayHaveBody in process', () => {
  it.each([
    ['GET', undefined, false],
    ['POST', 'data', true],
    ['POST', undefined, false],
  ] as const)('%s with body %j: %s (answered by raw.body)', async (method, body, expected) => {
    const app = new Hono()
    let answer: boolean | undefined
    app.all('/', (c) => {
      answer = mayHaveBody(c)
      return c.text('ok')
    })
    await app.request('/', { method, body: body ?? null })
    expect(answer).toBe(expected)
  })

  it('trusts neither a fake env nor a framing claim without the node-server request', async () => {
    const app = new Hono()
    let answer: boolean | undefined
    app.post('/', (c) => {
      answer = mayHaveBody(c)
      return c.text('ok')
    })
    await app.request(
      '/',
      { method: 'POST', body: 'data' },
      { incoming: { httpVersionMajor: 1, headers: {} } },
    )
    expect(answer).toBe(true)
  })

  it('counts a body Hono already cached', async () => {
    const app = new Hono()
    let answer: boolean | undefined
    app.post('/', async (c) => {
      await c.req.text()
      answer = mayHaveBody(c)
      return c.text('ok')
    })
    await app.request('/', { method: 'POST', body: 'data' })
    expect(answer).toBe(true)
  })
})

describe('framedByRuntime', () => {
  it('is true for a request @hono/node-server built from the socket, false once replaced', async () => {
    const app = new Hono()
    app.use('/replaced', async (c, next) => {
      c.req.raw = new Request(c.req.raw)
      await next()
    })
    // Inherits the message under the same symbol without being the request built from it.
    app.use('/inherited', async (c, next) => {
      c.req.raw = Object.create(c.req.raw)
      await next()
    })
    app.all('*', (c) => c.text(String(framedByRuntime(c))))
    const { port, close } = await listen(app)
    try {
      const head = (path: string) => `POST ${path} HTTP/1.1\nContent-Length: 5`
      // Switched off, node-server's request is not recognised: the body is counted instead.
      expect((await send(port, head('/'), 'hello')).body).toBe(String(FAST))
      expect((await send(port, head('/replaced'), 'hello')).body).toBe('false')
      expect((await send(port, head('/inherited'), 'hello')).body).toBe('false')
      expect((await send(port, head('/'), 'hello')).body).toBe(String(FAST))
    } finally {
      await close()
    }
  })

  it.each<[string, unknown, boolean]>([
    ['app.request without env', undefined, false],
    ['a fake node-server env', { incoming: { httpVersionMajor: 1, headers: {} } }, false],
    ['a Bun server env', { requestIP: () => null }, true],
    ['a Deno serve env', { remoteAddr: { hostname: '127.0.0.1' } }, true],
    ['a Lambda env', { requestContext: { http: { sourceIp: '1.2.3.4' } } }, false],
  ])('is %s → %s', async (_, env, expected) => {
    const app = new Hono()
    app.post('/', (c) => c.json(framedByRuntime(c)))
    const res = await app.request('/', { method: 'POST', body: 'x' }, env as never)
    expect(await res.json()).toBe(expected)
  })

  it('is true for a Workers request (the cf object)', async () => {
    const app = new Hono()
    app.post('/', (c) => c.json(framedByRuntime(c)))
    const req = new Request('http://w.test/', { method: 'POST', body: 'x' })
    Object.defineProperty(req, 'cf', { value: { colo: 'FRA' } })
    expect(await (await app.fetch(req)).json()).toBe(true)
  })
})

describe('socketFramedLength', () => {
  it('reads a lone Content-Length off the message node-server built the request from', async () => {
    const app = new Hono()
    app.use('/replaced', async (c, next) => {
      c.req.raw = new Request(c.req.raw)
      await next()
    })
    app.all('*', (c) => c.text(String(socketFramedLength(c))))
    const { port, close } = await listen(app)
    try {
      const answer = async (head: string, body = '') => (await send(port, head, body)).body
      // Switched off, nothing is read off the message.
      expect(await answer('POST / HTTP/1.1\nContent-Length: 5', 'hello')).toBe(
        FAST ? '5' : 'undefined',
      )
      expect(await answer('PUT / HTTP/1.1\nContent-Length: 0')).toBe(FAST ? '0' : 'undefined')
      // node-server gives a GET no body, whatever it declares.
      expect(await answer('GET / HTTP/1.1\nContent-Length: 5', 'hello')).toBe('undefined')
      expect(
        await answer('POST / HTTP/1.1\nTransfer-Encoding: chunked', `${chunk('hello')}0\r\n\r\n`),
      ).toBe('undefined')
      expect(await answer('POST / HTTP/1.1')).toBe('undefined')
      expect(await answer('POST /replaced HTTP/1.1\nContent-Length: 5', 'hello')).toBe('undefined')
    } finally {
      await close()
    }
  })

  it('is undefined in process, with or without a fake node-server env', async () => {
    const app = new Hono()
    app.post('/', (c) => c.text(String(socketFramedLength(c))))
    const init = { method: 'POST', body: 'hello', headers: { 'content-length': '5' } }
    expect(await (await app.request('/', init)).text()).toBe('undefined')
    const fake = { incoming: { httpVersionMajor: 1, headers: { 'content-length': '5' } } }
    expect(await (await app.request('/', init, fake)).text()).toBe('undefined')
  })
})
