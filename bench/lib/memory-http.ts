/**
 * node:http and @hono/node-server without the kernel: a real `http.Server` running node-server's
 * request listener, fed through in-memory connections (`Duplex` streams handed to the server as
 * its sockets). Requests go through Node's HTTP parser, node-server's lazy request, the app and
 * node-server's response writer exactly as over loopback; only the socket system calls and the
 * load generator are missing, so the CPU per request of two apps in one process can be compared
 * in short interleaved batches (`http-inproc.ts`) with a spread of about 1–2% on a loaded host,
 * where two servers over loopback move by several percent.
 *
 * Each connection sends its next request once the previous answer's head has been written, as
 * autocannon's connections do. Every answer must be a 200. `request` is the bytes of one request
 * sent every time, or a function giving the next one (a body new in every request).
 */
import { createServer } from 'node:http'
import { Duplex } from 'node:stream'
import { getRequestListener } from '@hono/node-server'

const HTTP = new TextEncoder().encode('HTTP/1.1 ')
const OK = new TextEncoder().encode('HTTP/1.1 200 ')

function startsWith(chunk: Uint8Array, prefix: Uint8Array): boolean {
  if (chunk.length < prefix.length) return false
  for (let i = 0; i < prefix.length; i++) if (chunk[i] !== prefix[i]) return false
  return true
}

/** One app served over `connections` in-memory connections. */
export interface MemoryServer {
  /** Serves `count` requests (spread over the connections) and resolves when all are answered. */
  serve(count: number): Promise<void>
}

export function memoryServer(
  fetch: (request: Request) => Response | Promise<Response>,
  request: Uint8Array | (() => Uint8Array),
  connections = 20,
): MemoryServer {
  const nextRequest = typeof request === 'function' ? request : () => request
  const server = createServer(getRequestListener(fetch))
  let left = 0
  let finished: (() => void) | undefined
  let failed: Error | undefined
  const sockets: Duplex[] = []
  for (let i = 0; i < connections; i++) {
    const socket: Duplex = new Duplex({
      read() {},
      write(chunk: Uint8Array, _encoding, done) {
        done()
        // node-server writes the head and the body of one answer as two chunks here (a real
        // socket takes them in one writev): only a chunk that starts a status line is an answer.
        if (!startsWith(chunk, HTTP)) return
        if (!startsWith(chunk, OK)) failed ??= new Error('an answer other than 200')
        if (left === 0) return
        left--
        if (left >= connections) queueMicrotask(() => socket.push(nextRequest()))
        if (left === 0) finished?.()
      },
    })
    // What node:http and the rate limit's default key read from a socket.
    Object.assign(socket, { remoteAddress: '127.0.0.1', remotePort: 40000 + i, setTimeout() {} })
    server.emit('connection', socket)
    sockets.push(socket)
  }
  return {
    serve(count) {
      if (count < connections) throw new Error(`serve at least ${connections} requests`)
      return new Promise((resolve, reject) => {
        left = count
        finished = () => {
          finished = undefined
          if (failed) reject(failed)
          else resolve()
        }
        for (const socket of sockets) socket.push(nextRequest())
      })
    },
  }
}
