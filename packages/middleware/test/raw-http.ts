/**
 * Test support (not exported by the package): raw HTTP/1.1 over a loopback socket, so a test
 * decides how a request's bytes arrive (head and body in one write, or apart), an app whose
 * handler reads the body every way after a body reader, and the apps a file serves on node-server
 * with the internals switch set as each test needs.
 */
import { connect, type Socket } from 'node:net'
import type { HttpBindings } from '@hono/node-server'
import { Hono } from 'hono'
import { afterEach } from 'vitest'
import type { readBodyBytes, readBodyText } from '../src/internal/http/json-body'
import { type Served, serveOnLoopback } from './node-server'

/** An app served on loopback, and raw connections to it that it closes with itself. */
export interface ServedApp extends Served {
  /** A socket to the app, destroyed when the app is closed (by the test or after it). */
  connect: () => Promise<Socket>
}

/**
 * Apps served on node-server for the tests of one file (or one `describe`) that set the borrowed
 * internals' switch: call it there, where it registers the `afterEach` that puts the switch back
 * as the run set it (the version matrix runs these files with it on too) and closes every app a
 * test served and did not close, its sockets first, so a failed test leaves no server listening
 * nor a close waiting on a connection. `flag` is the switch; `serve` serves an app (with
 * `serveOnLoopback`'s arguments). A test may close its app itself, as one that serves an app per
 * round of a loop does: closing twice is closing once.
 */
export function servedApps(): {
  flag: { __PALISADE_NO_INTERNALS__?: boolean }
  serve: (...args: Parameters<typeof serveOnLoopback>) => Promise<ServedApp>
} {
  const flag = globalThis as { __PALISADE_NO_INTERNALS__?: boolean }
  const cell = flag.__PALISADE_NO_INTERNALS__
  const live = new Set<ServedApp>()
  afterEach(async () => {
    flag.__PALISADE_NO_INTERNALS__ = cell
    await Promise.all([...live].map((app) => app.close()))
  })
  return {
    flag,
    serve: async (...args) => {
      const started = await serveOnLoopback(...args)
      const sockets = new Set<Socket>()
      let closed: Promise<void> | undefined
      const served: ServedApp = {
        base: started.base,
        connect: async () => {
          const socket = await open(started.base)
          sockets.add(socket)
          return socket
        },
        close: () => {
          live.delete(served)
          for (const socket of sockets) socket.destroy()
          closed ??= started.close()
          return closed
        },
      }
      live.add(served)
      return served
    },
  }
}

// A BOM, UTF-8 text, then bytes that are not UTF-8: only a byte-exact read gives them back.
export const BODY = new Uint8Array([
  0xef,
  0xbb,
  0xbf,
  ...new TextEncoder().encode('{"a":"é"}'),
  0xff,
  0x00,
  0x80,
])

/**
 * A signal from the app's handler that it has started (`app`'s `onStart`), for `exchange` to write
 * the rest of a request only then: that rest is surely still arriving when the handler reads, where
 * a fixed pause lost the race on a loaded machine (client and server share one event loop).
 */
export function handlerStarts(): { onStart: () => void; next: () => Promise<void> } {
  let started = () => {}
  return {
    onStart: () => started(),
    next: () =>
      new Promise<void>((resolve) => {
        started = resolve
      }),
  }
}

/** A reader in front, then a handler that reads the body every way and says how it was read. */
export function app(read: typeof readBodyText | typeof readBodyBytes, onStart?: () => void) {
  const a = new Hono()
  a.post('/', async (c) => {
    onStart?.()
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

/**
 * Writes `parts` on `socket` and reads one answer: status and body. Between the first part and the
 * second it waits for `started` where given (`handlerStarts().next()`), otherwise, as between the
 * others, it pauses 30 ms.
 */
export async function exchange(
  socket: Socket,
  parts: (string | Uint8Array)[],
  started?: Promise<void>,
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
    if (i === 1 && started !== undefined) await started
    else if (i > 0) await new Promise((r) => setTimeout(r, 30))
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

export const head = (framing: string) =>
  `POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/octet-stream\r\n${framing}\r\n\r\n`

export function oneWrite(framing: string, body: Uint8Array): Uint8Array {
  const bytes = new TextEncoder().encode(head(framing))
  const all = new Uint8Array(bytes.length + body.length)
  all.set(bytes)
  all.set(body, bytes.length)
  return all
}

export const expected = (direct: boolean) => ({
  hono: [...BODY],
  honoAgain: [...BODY],
  text: new TextDecoder().decode(BODY),
  raw: [...BODY],
  direct,
  ended: true,
})
