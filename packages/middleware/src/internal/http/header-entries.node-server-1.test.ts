// header-entries.ts on @hono/node-server 1.x (1.19.19, what apps that have not upgraded run):
// its request keeps its Headers under a symbol of its own too, and builds them with
// `new Headers(pairs)`, the same pairs as 2.x. A file of its own: node-server 1.x puts its
// Request class in the file's globals.
import { once } from 'node:events'
import { connect } from 'node:net'
import { serve } from '@hono/node-server-1'
import { Hono } from 'hono'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Served, serveOnLoopback } from '../../../test/node-server'
import { requestHeaderEntries } from './header-entries'
import { internalsSwitchedOff } from './node-server'
import { unbuiltHeaderList } from './node-server-headers'

let served: Served

beforeAll(async () => {
  const app = new Hono()
  app.use('/read-first/*', async (c, next) => {
    c.req.header('host')
    await next()
  })
  app.all('*', (c) => {
    const fast = unbuiltHeaderList(c) !== undefined
    const entries = [...requestHeaderEntries(c)]
    return c.json({ fast, entries, headers: [...c.req.raw.headers] })
  })
  served = await serveOnLoopback(app, serve as unknown as Parameters<typeof serveOnLoopback>[1])
})

afterAll(() => served.close())

async function ask(path: string) {
  const socket = connect(Number(new URL(served.base).port), '127.0.0.1')
  await once(socket, 'connect')
  socket.end(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Dup: one \r\nCookie: a=1\r\nx-dup: two\r\ncookie: b=2\r\nconnection: close\r\n\r\n`,
  )
  let text = ''
  for await (const chunk of socket) text += chunk
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as {
    fast: boolean
    entries: [string, string][]
    headers: [string, string][]
  }
}

it('gives the pairs of c.req.raw.headers from the socket message, once the class is probed', async () => {
  await ask('/x')
  const seen = await ask('/x')
  expect(seen.fast).toBe(!internalsSwitchedOff())
  expect(seen.entries).toEqual(seen.headers)
  expect(seen.entries).toEqual([
    ['connection', 'close'],
    ['cookie', 'a=1; b=2'],
    ['host', '127.0.0.1'],
    ['x-dup', 'one, two'],
  ])
})

it('takes the standard path once a middleware read a header', async () => {
  const seen = await ask('/read-first/x')
  expect(seen.fast).toBe(false)
  expect(seen.entries).toEqual(seen.headers)
})
