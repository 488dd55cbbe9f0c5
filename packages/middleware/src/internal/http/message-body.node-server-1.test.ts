// The body read straight off node:http's message on @hono/node-server 1.x (1.19.19), where its
// own arrayBuffer() builds an undici Request over a web stream first. A file of its own: each test
// file has its own globals, and node-server puts its Request class in them.
import { serve } from '@hono/node-server-1'
import { afterEach, expect, it } from 'vitest'
import { type Served, serveOnLoopback } from '../../../test/node-server'
import { app, BODY, exchange, expected, head, oneWrite, open } from '../../../test/raw-http'
import { readBodyBytes, readBodyText } from './json-body'

// The version matrix runs this file with the switch on too: the test sets what it needs.
const flag = globalThis as { __PALISADE_NO_INTERNALS__?: boolean }
const cell = flag.__PALISADE_NO_INTERNALS__
let served: Served | undefined
afterEach(async () => {
  flag.__PALISADE_NO_INTERNALS__ = cell
  await served?.close()
  served = undefined
})

it('reads a body that came with its head directly, one still arriving through node-server, the same bytes either way', async () => {
  flag.__PALISADE_NO_INTERNALS__ = false
  for (const read of [readBodyText, readBodyBytes]) {
    served = await serveOnLoopback(
      app(read),
      serve as unknown as Parameters<typeof serveOnLoopback>[1],
    )
    const socket = await open(served.base)
    const now = await exchange(socket, [oneWrite(`content-length: ${BODY.length}`, BODY)])
    expect([now.status, JSON.parse(now.body)]).toEqual([200, expected(true)])
    const later = await exchange(socket, [head(`content-length: ${BODY.length}`), BODY])
    expect([later.status, JSON.parse(later.body)]).toEqual([200, expected(false)])
    socket.destroy()
    await served.close()
    served = undefined
  }
})
