import type { Context } from 'hono'
import { type IP, parseIP } from './ip'

/**
 * The client's address, as the one shared rule used by ipGuard and rateLimit:
 * 1. the connection address the runtime exposes — `@hono/node-server` (`env.incoming.socket`),
 *    Bun (`env.requestIP`), Deno (`env.remoteAddr`), Workers (`cf-connecting-ip`, set by
 *    Cloudflare's edge and not forgeable by the client there);
 * 2. only when there is none, the last (right-most) `X-Forwarded-For` entry: the one written by
 *    the proxy nearest to the app. Left-most entries are whatever the client chose to send.
 * Returns the raw text; use {@link getClientIPParsed} to get a parsed, IPv4-normalised address.
 */
export function getClientIP(c: Context): string | undefined {
  const fromRuntime = connectionAddress(c)
  if (fromRuntime) return fromRuntime
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
  incoming?: { socket?: { remoteAddress?: string } }
  requestIP?: (req: Request) => { address?: string } | null
  remoteAddr?: { hostname?: string }
}

function connectionAddress(c: Context): string | undefined {
  const env = c.env as RuntimeEnv | undefined
  if (env && typeof env === 'object') {
    const node = env.incoming?.socket?.remoteAddress
    if (node) return node
    if (typeof env.requestIP === 'function') {
      try {
        const addr = env.requestIP(c.req.raw)?.address
        if (addr) return addr
      } catch {
        // Not a Bun server object after all: fall through.
      }
    }
    const deno = env.remoteAddr?.hostname
    if (deno) return deno
  }
  return c.req.header('cf-connecting-ip') || undefined
}
