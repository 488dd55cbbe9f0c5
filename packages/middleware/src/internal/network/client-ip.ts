import type { Context } from 'hono'
import { type IP, parseIP } from './ip'

/**
 * Platforms whose documented client-address source can be declared with the public `clientIp()`
 * middleware. Each has one source, set by the platform and not by the client:
 * - `vercel`: the `x-real-ip` header, which Vercel's edge overwrites;
 * - `aws-lambda`: `requestContext.identity.sourceIp` (API Gateway REST) or
 *   `requestContext.http.sourceIp` (HTTP API, Function URLs); behind an ALB, the right-most
 *   `X-Forwarded-For` entry (the one the ALB appended);
 * - `netlify`: `context.ip` from the Netlify handler (`hono/netlify`), else the
 *   `x-nf-client-connection-ip` header Netlify's edge sets;
 * - `cloudflare`: `cf-connecting-ip`, and only on a request that carries Cloudflare's `cf` object.
 */
export type ClientIpPlatform = 'vercel' | 'aws-lambda' | 'netlify' | 'cloudflare'

export const CLIENT_IP_PLATFORMS: readonly ClientIpPlatform[] = [
  'vercel',
  'aws-lambda',
  'netlify',
  'cloudflare',
]

const declared = new WeakMap<Context, ClientIpPlatform>()

/** Makes {@link getClientIP} read only `platform`'s documented source for this request. */
export function declarePlatform(c: Context, platform: ClientIpPlatform): void {
  declared.set(c, platform)
}

/**
 * The client's address, as the one shared rule used by ipGuard and rateLimit.
 *
 * When a platform was declared for the request (the `clientIp({ platform })` middleware), only
 * that platform's documented source is read (see {@link ClientIpPlatform}). Otherwise:
 * 1. the connection address the runtime exposes — `@hono/node-server` (`env.incoming.socket`),
 *    Bun (`env.requestIP`), Deno (`env.remoteAddr`);
 * 2. on Cloudflare (the request carries the `cf` object) `cf-connecting-ip`, set by Cloudflare's
 *    edge. Anywhere else that header is whatever the client sent, so it is never read;
 * 3. the address AWS Lambda (`env.requestContext`, API Gateway and Function URLs) or Netlify
 *    (`env.context.ip`) passes to the handler: set by the platform, not by a header;
 * 4. only when none of these exists, the last (right-most) `X-Forwarded-For` entry: the one
 *    written by the proxy nearest to the app. Left-most entries are whatever the client chose to
 *    send. An empty right-most entry (`1.2.3.4,` or `1.2.3.4, `) is no address: the nearest proxy
 *    wrote nothing usable, and the entries before it are the client's.
 * A runtime that has connection info but reports no address for this request (the client hung
 * up) gives `undefined`: the headers are never trusted on a runtime that has sockets.
 * Returns the raw text; use {@link getClientIPParsed} to get a parsed, IPv4-normalised address.
 */
export function getClientIP(c: Context): string | undefined {
  const platform = declared.get(c)
  if (platform !== undefined) return fromPlatform(c, platform) || undefined
  const fromRuntime = connectionAddress(c)
  if (fromRuntime !== undefined) return fromRuntime ?? undefined
  return rightMostForwardedFor(c)
}

/** The client address parsed (IPv4-mapped IPv6 becomes IPv4), or `null` if missing/unparseable. */
export function getClientIPParsed(c: Context): IP | null {
  const raw = getClientIP(c)
  return raw ? parseIP(raw) : null
}

/**
 * The right-most `X-Forwarded-For` entry, trimmed; `undefined` when it is empty or absent.
 * A single entry (the commonest header) is found by `indexOf`, which V8 runs in generated code;
 * `lastIndexOf` is a call into its runtime, about 0.1 µs on a 13-character address (a micro
 * loop, bench/FINDINGS.md), so it runs only when the header holds a comma.
 */
function rightMostForwardedFor(c: Context): string | undefined {
  const xff = c.req.header('x-forwarded-for')
  if (!xff) return undefined
  const last = xff.indexOf(',') === -1 ? xff : xff.slice(xff.lastIndexOf(',') + 1)
  return last.trim() || undefined
}

type LambdaRequestContext = {
  identity?: { sourceIp?: unknown }
  http?: { sourceIp?: unknown }
  elb?: unknown
}

type RuntimeEnv = {
  incoming?: { socket?: { remoteAddress?: string; server?: { address?: () => unknown } } }
  requestIP?: (req: Request) => { address?: string } | null
  remoteAddr?: { hostname?: string; transport?: string }
  requestContext?: LambdaRequestContext
  context?: { ip?: unknown }
}

function envOf(c: Context): RuntimeEnv | undefined {
  const env = c.env as RuntimeEnv | undefined
  return env && typeof env === 'object' ? env : undefined
}

const onCloudflare = (c: Context): boolean => {
  const cf = (c.req.raw as { cf?: unknown }).cf
  return cf !== null && typeof cf === 'object'
}

/**
 * Lambda's address: `null` when the event is API Gateway or a Function URL but carries no
 * source IP, `undefined` when the env is not a Lambda env or the event came through an ALB
 * (then X-Forwarded-For is the source).
 */
function lambdaAddress(env: RuntimeEnv | undefined): string | null | undefined {
  const rc = env?.requestContext
  if (!rc || typeof rc !== 'object') return undefined
  const ip = rc.identity?.sourceIp ?? rc.http?.sourceIp
  if (typeof ip === 'string' && ip) return ip
  return rc.identity !== undefined || rc.http !== undefined ? null : undefined
}

function fromPlatform(c: Context, platform: ClientIpPlatform): string | null | undefined {
  switch (platform) {
    case 'vercel':
      return c.req.header('x-real-ip')?.trim()
    case 'aws-lambda': {
      const env = envOf(c)
      const address = lambdaAddress(env)
      if (address !== undefined) return address
      return env?.requestContext?.elb !== undefined ? rightMostForwardedFor(c) : undefined
    }
    case 'netlify': {
      const ip = envOf(c)?.context?.ip
      if (typeof ip === 'string') return ip
      return c.req.header('x-nf-client-connection-ip')?.trim()
    }
    case 'cloudflare':
      return onCloudflare(c) ? c.req.header('cf-connecting-ip') : undefined
  }
}

/**
 * The runtime's or platform's address; `null` when the runtime has a connection-address API but
 * it reports nothing for this request; `undefined` when the runtime exposes no such API at all.
 * Node's socket and Bun's requestIP() report nothing once the client has hung up: a client that
 * sends a forged `X-Forwarded-For` and disconnects at once must not get it trusted, so `null`
 * means "no address", never "read the headers". A Unix-socket server (Node, Deno) has no client
 * address by nature and only local processes, such as a reverse proxy, can reach it: there the
 * headers may be read (`undefined`). Bun gives `null` for both cases, so Bun fails closed.
 */
function connectionAddress(c: Context): string | null | undefined {
  const env = envOf(c)
  if (env) {
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
  // Cloudflare sets cf-connecting-ip on every request; without it there is no address.
  if (onCloudflare(c)) return c.req.header('cf-connecting-ip') || null
  const lambda = lambdaAddress(env)
  if (lambda !== undefined) return lambda
  const netlify = env?.context
  if (netlify && typeof netlify === 'object' && 'ip' in netlify) {
    return typeof netlify.ip === 'string' && netlify.ip ? netlify.ip : null
  }
  return undefined
}
