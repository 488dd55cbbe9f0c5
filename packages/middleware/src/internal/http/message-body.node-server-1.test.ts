// The body read straight off node:http's message on @hono/node-server 1.x (1.19.19), where its
// own arrayBuffer() builds an undici Request over a web stream first. A file of its own: each test
// file has its own globals, and node-server puts its Request class in them.
import { serve as serveV1 } from '@hono/node-server-1'
import { expect, it } from 'vitest'
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

// The version matrix runs this file with the switch on too: the test sets what it needs.
const { flag, serve } = servedApps()

it('reads a body that came with its head directly, one still arriving through node-server, the same bytes either way', async () => {
  flag.__PALISADE_NO_INTERNALS__ = false
  for (const read of [readBodyText, readBodyBytes]) {
    const starts = handlerStarts()
    const served = await serve(
      app(read, starts.onStart),
      serveV1 as unknown as Parameters<typeof serve>[1],
    )
    const socket = await served.connect()
    const now = await exchange(socket, [oneWrite(`content-length: ${BODY.length}`, BODY)])
    expect([now.status, JSON.parse(now.body)]).toEqual([200, expected(true)])
    const later = await exchange(
      socket,
      [head(`content-length: ${BODY.length}`), BODY],
      starts.next(),
    )
    expect([later.status, JSON.parse(later.body)]).toEqual([200, expected(false)])
    socket.destroy()
    await served.close()
  }
})
