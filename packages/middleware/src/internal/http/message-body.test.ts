// The body read straight off node:http's message (message-body.ts) behind the one body reader,
// over real loopback sockets: the client writes raw HTTP/1.1, so the test decides whether the body
// arrives with its head (read directly) or later (left to node-server's own read).
import { connect, type Socket } from 'node:net'
import type { HttpBindings } from '@hono/node-server'
import { Hono } from 'hono'
import { afterEach, describe, expect, it } from 'vitest'
import { type Served, serveOnLoopback } from '../../../test/node-server'
import { readBodyBytes, readBodyText } from './json-body'

const flag = globalThis as { __PALISADE_NO_INTERNALS__?: boolean }
const cell = flag.__PALISADE_NO_INTERNALS__
let served: Served | undefined
afterEach(async () => {
  flag.__PALISADE_NO_INTERNALS__ = cell
  await served?.close()
  served = undefined
})

// A BOM, UTF-8 text, then bytes that are not UTF-8: only a byte-exact read gives them back.
const BODY = new Uint8Array([
  0xef,
  0xbb,
  0xbf,
  ...new TextEncoder().encode('{"a":"é"}'),
  0xff,
  0x00,
  0x80,
])

/** A reader in front, then a handler that reads the body every way and says how it was read. */
function app(read: typeof readBodyText | typeof readBodyBytes) {
  const a = new Hono()
  a.post('/', async (c) => {
    const original = c.req.raw
    const incoming = (c.env as HttpBindings).incoming
    const ended = new Promise<boolean>((resolve) => {
      incoming.once('end', () => resolve(true))
      setTimeout(() => resolve(false), 2_000)
    })
    await read(c)
    const bytes = async (from: Promise<ArrayBuffer>) => [...new Uint8Array(await from)]
    return c.json({
      hono: await bytes(c.req.arrayBuffer()),
      honoAgain: await bytes(c.req.arrayBuffer()),
      text: await c.req.text(),
      // The stream of c.req.raw, through a copy as a proxy route makes it.
      raw: await bytes(new Request(c.req.raw).arrayBuffer()),
      // node-server's own read marks its request used; the direct read leaves it as it was.
      direct: !original.bodyUsed,
      ended: await ended,
    })
  })
  a.onError((error, c) => c.text(String(error), 500))
  return a
}

/** Writes `parts` (pausing between them) on `socket` and reads one answer: status and body. */
async function exchange(
  socket: Socket,
  parts: (string | Uint8Array)[],
): Promise<{ status: number; body: string }> {
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    let seen = Buffer.alloc(0)
    const onData = (chunk: Buffer) => {
      seen = Buffer.concat([seen, chunk])
      const end = seen.indexOf('\r\n\r\n')
      if (end === -1) return
      const head = seen.subarray(0, end).toString('latin1')
      const length = Number(/content-length: *(\d+)/i.exec(head)?.[1])
      if (seen.length < end + 4 + length) return
      socket.off('data', onData)
      resolve({
        status: Number(head.split(' ')[1]),
        body: seen.subarray(end + 4, end + 4 + length).toString(),
      })
    }
    socket.on('data', onData)
    socket.once('error', reject)
  })
  for (const [i, part] of parts.entries()) {
    if (i > 0) await new Promise((r) => setTimeout(r, 30))
    socket.write(part)
  }
  return answer
}

function open(base: string): Promise<Socket> {
  const { port } = new URL(base)
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () => resolve(socket))
  })
}

const head = (framing: string) =>
  `POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/octet-stream\r\n${framing}\r\n\r\n`

function oneWrite(framing: string, body: Uint8Array): Uint8Array {
  const bytes = new TextEncoder().encode(head(framing))
  const all = new Uint8Array(bytes.length + body.length)
  all.set(bytes)
  all.set(body, bytes.length)
  return all
}

const expected = (direct: boolean) => ({
  hono: [...BODY],
  honoAgain: [...BODY],
  text: new TextDecoder().decode(BODY),
  raw: [...BODY],
  direct,
  ended: true,
})

describe('the body read off node:http’s message (@hono/node-server)', () => {
  it('reads a body that came with its head directly: every reader gets the exact bytes, the message ends, the connection lives on', async () => {
    for (const read of [readBodyText, readBodyBytes]) {
      served = await serveOnLoopback(app(read))
      const socket = await open(served.base)
      // Twice on one kept-alive connection: the first message ended as a read leaves it.
      for (let i = 0; i < 2; i++) {
        const res = await exchange(socket, [oneWrite(`content-length: ${BODY.length}`, BODY)])
        expect([res.status, JSON.parse(res.body)]).toEqual([200, expected(true)])
      }
      socket.destroy()
      await served.close()
      served = undefined
    }
  })

  it('leaves a body still arriving, a chunked body and the internals switched off to node-server’s read, with the same bytes', async () => {
    served = await serveOnLoopback(app(readBodyText))
    const socket = await open(served.base)
    const later = await exchange(socket, [head(`content-length: ${BODY.length}`), BODY])
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
    const a = app(readBodyText)
    // A middleware that waits past the parse of the whole message first.
    const outer = new Hono()
    outer.use(async (_c, next) => {
      await new Promise((r) => setTimeout(r, 20))
      await next()
    })
    outer.route('/', a)
    served = await serveOnLoopback(outer)
    const socket = await open(served.base)
    const hex = BODY.length.toString(16)
    const res = await exchange(socket, [
      oneWrite('transfer-encoding: chunked', new Uint8Array()),
      `${hex}\r\n`,
      BODY,
      '\r\n0\r\n\r\n',
    ])
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
