// The request's header pairs from @hono/node-server's raw header list (header-entries.ts) against
// the runtime's own `Headers`: the same pairs in the same order for any list node-server could be
// given, and the standard path for what `Headers` refuses. Then on a real node-server, HTTP/1.1
// and HTTP/2: the pairs of a raw request, and the standard path once the request's Headers exist.
import { once } from 'node:events'
import { createServer as createHttp2Server, connect as http2Connect } from 'node:http2'
import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'
import { getRequestListener } from '@hono/node-server'
import fc from 'fast-check'
import { Hono } from 'hono'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type Served, serveOnLoopback } from '../../../test/node-server'
import { headerListEntries, requestHeaderEntries } from './header-entries'
import { internalsSwitchedOff } from './node-server'
import { unbuiltHeaderList } from './node-server-headers'

/** What node-server's request gives: the list appended to a `Headers`, `:` names left out. */
function headersOf(list: readonly string[]): [string, string][] | 'throws' {
  try {
    const headers = new Headers()
    for (let i = 0; i < list.length; i += 2) {
      const name = list[i] as string
      if (!name.startsWith(':')) headers.append(name, list[i + 1] as string)
    }
    return [...headers]
  } catch {
    return 'throws'
  }
}

const NAMES = [
  ...['cookie', 'Cookie', 'COOKIE', 'set-cookie', 'Set-Cookie', 'SET-COOKIE', 'host', 'Host'],
  ...['x-a', 'X-A', 'x-A', 'content-type', 'Content-Type', 'user-agent', 'a', 'A', 'a-', 'a_'],
  ...['a0', 'a.b', '~', '!', 'z', 'Z', ':path', ':authority', ':method', 'age', 'etag'],
]
/** Names a client may send, in any case, often repeated, with pseudo-headers and odd tokens. */
const name = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...NAMES) },
  { weight: 2, arbitrary: fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,6}$/) },
  // What Headers refuses: empty, a space, a colon inside, Latin-1 and wider characters.
  { weight: 1, arbitrary: fc.constantFrom('', 'x y', 'a:b', 'x\u00e9', 'x\u0101', ':', '\t') },
)
/** Values with HTTP white space at either end and inside, separators, and what Headers refuses. */
const value = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: fc.constantFrom(...'ab=;, \t'), maxLength: 8 }) },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.constantFrom(
        'a',
        ' ',
        '\t',
        '\r',
        '\n',
        '\0',
        '\x01',
        '\x0b',
        '\x0c',
        '\u00e9',
        '\u0101',
        '\ud800',
      ),
      maxLength: 6,
    }),
  },
)
const rawList = (maxLength: number) =>
  fc.array(fc.tuple(name, value), { maxLength }).map((pairs) => pairs.flat())

describe('headerListEntries against the runtime’s Headers', () => {
  it('gives the pairs iterating the Headers gives, in order, or nothing where Headers throws', () => {
    fc.assert(
      fc.property(rawList(12), (list) => {
        const got = headerListEntries(list)
        const want = headersOf(list)
        expect(got ?? 'throws').toEqual(want)
      }),
      { numRuns: 3000 },
    )
  })

  it('does so past 32 headers too (a sort of its own there)', () => {
    fc.assert(
      fc.property(rawList(80), (list) => {
        expect(headerListEntries(list) ?? 'throws').toEqual(headersOf(list))
      }),
      { numRuns: 300 },
    )
  })

  it('spells out each rule on one list', () => {
    const list = [
      ...['X-B', ' 2\t', 'x-a', '1', 'Cookie', 'a=1', 'Set-Cookie', 's=1', 'cookie', 'b=2'],
      ...[':path', '/x', 'set-cookie', 's=2', 'x-b', '3 ', 'X-B', '', 'x-c', '\u00e9'],
    ]
    expect(headerListEntries(list)).toEqual([
      ['cookie', 'a=1; b=2'],
      ['set-cookie', 's=1'],
      ['set-cookie', 's=2'],
      ['x-a', '1'],
      ['x-b', '2, 3, '],
      ['x-c', '\u00e9'],
    ])
    expect(headerListEntries(list)).toEqual(headersOf(list))
  })

  it('leaves to the standard path a list that is not pairs of strings', () => {
    // node-server would append `undefined` or `1` as text: the standard path does that itself.
    expect(headerListEntries(['x-a', '1', 'x-b'])).toBeUndefined()
    expect(headerListEntries(['x-a', 1])).toBeUndefined()
    expect(headerListEntries([Symbol('x'), 'a'])).toBeUndefined()
    expect(headerListEntries([])).toEqual([])
  })
})

// ---------------------------------------------------------------------------------------------
// On a real @hono/node-server

/** What the route saw: the fast path's list, the pairs given, and `c.req.raw.headers` after. */
interface Seen {
  fast: boolean
  entries: [string, string][]
  headers: [string, string][]
}

const initial = internalsSwitchedOff()
const flag = globalThis as { __PALISADE_NO_INTERNALS__?: boolean }
afterEach(() => {
  if (initial) flag.__PALISADE_NO_INTERNALS__ = true
  else delete flag.__PALISADE_NO_INTERNALS__
})

function seeingApp(): Hono {
  const app = new Hono()
  // A middleware that reads one header first: the request's Headers exist from then on.
  app.use('/read-first/*', async (c, next) => {
    c.req.header('host')
    await next()
  })
  // One that edits them: the edit must be among the pairs.
  app.use('/edited/*', async (c, next) => {
    c.req.raw.headers.set('x-added', 'by a middleware')
    await next()
  })
  // One that replaces the request (same headers, another object).
  app.use('/replaced/*', async (c, next) => {
    c.req.raw = new Request(c.req.raw.url, { headers: { 'x-replaced': '1' } })
    await next()
  })
  app.all('*', (c) => {
    const fast = unbuiltHeaderList(c) !== undefined
    const entries = [...requestHeaderEntries(c)]
    const headers = [...c.req.raw.headers]
    return c.json({ fast, entries, headers } satisfies Seen)
  })
  return app
}

/** Sends `head` (a request line and header lines, CRLF added) as written, and the JSON answer. */
async function rawRequest(base: string, head: string): Promise<Seen> {
  const { port } = new URL(base)
  const socket = connect(Number(port), '127.0.0.1')
  await once(socket, 'connect')
  socket.end(`${head}\r\nconnection: close\r\n\r\n`)
  let text = ''
  for await (const chunk of socket) text += chunk
  const body = text.slice(text.indexOf('\r\n\r\n') + 4)
  expect(text.startsWith('HTTP/1.1 200')).toBe(true)
  return JSON.parse(body) as Seen
}

describe('requestHeaderEntries on @hono/node-server (HTTP/1.1)', () => {
  let served: Served
  beforeAll(async () => {
    served = await serveOnLoopback(seeingApp())
  })
  afterAll(() => served.close())

  const HEAD = [
    'GET /x HTTP/1.1',
    'Host: 127.0.0.1',
    'X-Dup: one ',
    'Cookie: a=1',
    'x-dup:  two',
    'cookie: b=2',
    'Set-Cookie: s=1',
    'set-cookie: s=2',
    'Accept: */*',
  ].join('\r\n')

  it('gives the pairs of c.req.raw.headers, from the socket message once the class is probed', async () => {
    // The first request of node-server's request class is its probe: the standard path.
    await rawRequest(served.base, HEAD)
    const seen = await rawRequest(served.base, HEAD)
    expect(seen.fast).toBe(!initial)
    expect(seen.entries).toEqual(seen.headers)
    expect(seen.entries).toEqual([
      ['accept', '*/*'],
      ['connection', 'close'],
      ['cookie', 'a=1; b=2'],
      ['host', '127.0.0.1'],
      ['set-cookie', 's=1'],
      ['set-cookie', 's=2'],
      ['x-dup', 'one, two'],
    ])
  })

  it('takes the standard path with the switch off', async () => {
    flag.__PALISADE_NO_INTERNALS__ = true
    const seen = await rawRequest(served.base, HEAD)
    expect(seen.fast).toBe(false)
    expect(seen.entries).toEqual(seen.headers)
  })

  it('takes the standard path under a global Headers that iterates otherwise', async () => {
    // A polyfill that joins Cookie copies as any other header: node-server builds with it.
    const Native = globalThis.Headers
    class Joined extends Native {
      override *[Symbol.iterator](): HeadersIterator<[string, string]> {
        for (const [name, value] of super.entries()) {
          yield [name, name === 'cookie' ? value.replaceAll('; ', ', ') : value]
        }
      }
    }
    globalThis.Headers = Joined
    try {
      await rawRequest(served.base, HEAD)
      const seen = await rawRequest(served.base, HEAD)
      expect(seen.entries).toEqual(seen.headers)
      expect(seen.entries).toContainEqual(['cookie', 'a=1, b=2'])
    } finally {
      globalThis.Headers = Native
    }
  })

  it.each([
    ['read first', '/read-first/x'],
    ['edited', '/edited/x'],
    ['replaced', '/replaced/x'],
  ])('takes the standard path for a request whose headers a middleware %s', async (_, path) => {
    await rawRequest(served.base, HEAD)
    const seen = await rawRequest(served.base, HEAD.replace('/x', path))
    expect(seen.fast).toBe(false)
    expect(seen.entries).toEqual(seen.headers)
    if (path.startsWith('/edited'))
      expect(seen.entries).toContainEqual(['x-added', 'by a middleware'])
    if (path.startsWith('/replaced')) expect(seen.entries).toEqual([['x-replaced', '1']])
  })
})

describe('requestHeaderEntries on @hono/node-server (HTTP/2)', () => {
  it('leaves out the pseudo-headers, as node-server does', async () => {
    const server = createHttp2Server(getRequestListener(seeingApp().fetch))
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    const session = http2Connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    try {
      const ask = async (): Promise<Seen> => {
        const stream = session.request({
          ':path': '/h2',
          cookie: ['a=1', 'b=2'],
          'x-b': 'b',
        })
        let text = ''
        for await (const chunk of stream) text += chunk
        return JSON.parse(text) as Seen
      }
      await ask()
      const seen = await ask()
      expect(seen.fast).toBe(!initial)
      expect(seen.entries).toEqual(seen.headers)
      expect(seen.entries.some(([n]) => n.startsWith(':'))).toBe(false)
      expect(seen.entries).toContainEqual(['cookie', 'a=1; b=2'])
      expect(seen.entries).toContainEqual(['x-b', 'b'])
    } finally {
      session.close()
      server.close()
    }
  })
})
