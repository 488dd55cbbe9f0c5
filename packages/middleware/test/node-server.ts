/**
 * Test support (not exported by the package): an app served by a real @hono/node-server on a
 * loopback port, as an app runs it on Node.
 */
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import type { Hono } from 'hono'

export interface Served {
  /** `http://127.0.0.1:<port>` */
  base: string
  close: () => Promise<void>
}

/** `serveWith`: node-server's `serve`, or another version's (an older one under an alias). */
export function serveOnLoopback(app: Hono, serveWith: typeof serve = serve): Promise<Served> {
  return new Promise((resolve) => {
    const server = serveWith({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => {
      resolve({
        base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise((done) => server.close(() => done())),
      })
    })
  })
}
