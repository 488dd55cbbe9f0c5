import type { Context } from 'hono'
import { type IP, parseIP } from './ip'

/**
 * The client's address, as the one shared rule used by ipGuard and rateLimit:
 * 1. the connection address the runtime exposes — `@hono/node-server` (`env.incoming.socket`),
 *    Bun (`env.requestIP`), Deno (`env.remoteAddr`), Workers (`cf-connecting-ip`, set by
 *    Cloudflare's edge and not forgeable by the client there);
 * 2. only when the runtime exposes none (no Node, Bun or Deno connection info, no
 *    `cf-connecting-ip`), the last (right-most) `X-Forwarded-For` entry: the one written by
 *    the proxy nearest to the app. Left-most entries are whatever the client chose to send.
 *    A runtime that has connection info but reports no address for this request (the client
 *    hung up) gives `undefined`: the headers are never trusted on a runtime that has sockets.
 * Returns the raw text; use {@link getClientIPParsed} to get a parsed, IPv4-normalised address.
 */
export function getClientIP(c: Context): string | undefined {
  const fromRuntime = connectionAddress(c)
  if (fromRuntime !== undefined) return fromRuntime ?? undefined
  const xff = c.req.header('x-forwarded-for')
  if (xff) {
    const parts = xff.split(',')
    for (let i = parts.length - 1; i >= 0; i--) {
      const part = (parts[i] as string).trim()
      if (part) return part
    }
  }
  return undefined
}

/** The client address parsed (IPv4-mapped IPv6 becomes IPv4), or `null` if missing/unparseable. */
export function getClientIPParsed(c: Context): IP | null {
  const raw = getClientIP(c)
  return raw ? parseIP(raw) : null
}

type RuntimeEnv = {
  incoming?: { socket?: { remoteAddress?: string; server?: { address?: () => unknown } } }
  requestIP?: (req: Request) => { address?: string } | null
  remoteAddr?: { hostname?: string; transport?: string }
}

/**
 * The runtime's connection address; `null` when the runtime has a connection-address API but it
 * reports nothing for this request; `undefined` when the runtime exposes no such API at all.
 * Node's socket and Bun's requestIP() report nothing once the client has hung up: a client that
 * sends a forged `X-Forwarded-For` and disconnects at once must not get it trusted, so `null`
 * means "no address", never "read the headers". A Unix-socket server (Node, Deno) has no client
 * address by nature and only local processes, such as a reverse proxy, can reach it: there the
 * headers may be read (`undefined`). Bun gives `null` for both cases, so Bun fails closed.
 */
function connectionAddress(c: Context): string | null | undefined {
  const env = c.env as RuntimeEnv | undefined
  if (env && typeof env === 'object') {
    if (env.incoming && typeof env.incoming === 'object') {
      const socket = env.incoming.socket
      if (socket?.remoteAddress) return socket.remoteAddress
      // A pipe server's address() is its path; a TCP server's is an object.
      return typeof socket?.server?.address?.() === 'string' ? undefined : null
    }
    if (typeof env.requestIP === 'function') {
      let info: { address?: string } | null | undefined
      let isBun = true
      try {
        info = env.requestIP(c.req.raw)
      } catch {
        // Not a Bun server object after all: fall through to the other runtimes.
        isBun = false
      }
      if (isBun) return info?.address || null
    }
    if (env.remoteAddr && typeof env.remoteAddr === 'object') {
      if (env.remoteAddr.transport === 'unix') return undefined
      return env.remoteAddr.hostname || null
    }
  }
  return c.req.header('cf-connecting-ip') || undefined
}
