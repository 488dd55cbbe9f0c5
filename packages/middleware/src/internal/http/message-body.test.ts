// The body read straight off node:http's message (message-body.ts) behind the one body reader,
// over real loopback sockets: the client writes raw HTTP/1.1, so the test decides whether the body
// arrives with its head (read directly) or later (left to node-server's own read).
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import {
  app,
  BODY,
  exchange,
  expected,
  handlerStarts,
  head,
  oneWrite,
  servedApps,
} from '../../../test/raw-http'
import { readBodyBytes, readBodyText } from './json-body'

const { flag, serve } = servedApps()

describe('the body read off node:http’s message (@hono/node-server)', () => {
  it('reads a body that came with its head directly: every reader gets the exact bytes, the message ends, the connection lives on', async () => {
    flag.__PALISADE_NO_INTERNALS__ = false
    for (const read of [readBodyText, readBodyBytes]) {
      const served = await serve(app(read))
      const socket = await served.connect()
      // Twice on one kept-alive connection: the first message ended as a read leaves it.
      for (let i = 0; i < 2; i++) {
        const res = await exchange(socket, [oneWrite(`content-length: ${BODY.length}`, BODY)])
        expect([res.status, JSON.parse(res.body)]).toEqual([200, expected(true)])
      }
      socket.destroy()
      await served.close()
    }
  })

  it('leaves a body still arriving, a chunked body and the internals switched off to node-server’s read, with the same bytes', async () => {
    flag.__PALISADE_NO_INTERNALS__ = false
    const starts = handlerStarts()
    const served = await serve(app(readBodyText, starts.onStart))
    const socket = await served.connect()
    const later = await exchange(
      socket,
      [head(`content-length: ${BODY.length}`), BODY],
      starts.next(),
    )
    expect([later.status, JSON.parse(later.body)]).toEqual([200, expected(false)])
    const hex = BODY.length.toString(16)
    const chunked = await exchange(socket, [
      head('transfer-encoding: chunked'),
      `${hex}\r\n`,
      BODY,
      '\r\n0\r\n\r\n',
    ])
    expect([chunked.status, JSON.parse(chunked.body)]).toEqual([200, expected(false)])
    flag.__PALISADE_NO_INTERNALS__ = true
    const off = await exchange(socket, [oneWrite(`content-length: ${BODY.length}`, BODY)])
    expect([off.status, JSON.parse(off.body)]).toEqual([200, expected(false)])
    socket.destroy()
  })

  it('reads a chunked body directly once the whole message is in', async () => {
    flag.__PALISADE_NO_INTERNALS__ = false
    const starts = handlerStarts()
    const a = app(readBodyText, starts.onStart)
    // A middleware that waits past the parse of the whole message first.
    const outer = new Hono()
    outer.use(async (_c, next) => {
      await new Promise((r) => setTimeout(r, 20))
      await next()
    })
    outer.route('/', a)
    const served = await serve(outer)
    const socket = await served.connect()
    const hex = BODY.length.toString(16)
    const res = await exchange(
      socket,
      [
        oneWrite('transfer-encoding: chunked', new Uint8Array()),
        `${hex}\r\n`,
        BODY,
        '\r\n0\r\n\r\n',
      ],
      starts.next(),
    )
    expect([res.status, JSON.parse(res.body)]).toEqual([200, expected(false)])
    const whole = new TextEncoder().encode(`${hex}\r\n`)
    const res2 = await exchange(socket, [
      oneWrite(
        'transfer-encoding: chunked',
        new Uint8Array([...whole, ...BODY, ...new TextEncoder().encode('\r\n0\r\n\r\n')]),
      ),
    ])
    expect([res2.status, JSON.parse(res2.body)]).toEqual([200, expected(true)])
    socket.destroy()
  })
})
