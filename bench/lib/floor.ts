/**
 * The floor of the six-middleware stack over HTTP (issue 42): bare Hono doing the stack's header
 * work by hand and nothing else. Shared by the HTTP suite's server (`servers/serve.ts`
 * `hono-headers`, and `hono-noop:<n>`, the same handler behind n no-op middleware) and by
 * `http-inproc.ts`.
 */
import type { Context } from 'hono'
import { ORIGIN } from './fixtures'

/** The rate limit every bench stack runs with: high enough never to trip. */
export const HIGH_LIMIT = 1_000_000_000

/** What the six-middleware stack answers GET /api/me with, besides Content-Type. */
export const SIX_RESPONSE_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['content-security-policy', "default-src 'self'"],
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
  ['strict-transport-security', 'max-age=63072000; includeSubDomains'],
  ['access-control-allow-origin', ORIGIN],
  ['access-control-allow-credentials', 'true'],
  ['vary', 'Origin'],
  ['ratelimit-policy', `${HIGH_LIMIT};w=60`],
  ['ratelimit-limit', String(HIGH_LIMIT)],
  ['ratelimit-remaining', String(HIGH_LIMIT - 1)],
  ['ratelimit-reset', '60'],
]

/**
 * The floor's GET /api/me. It reads the request headers the six read (Origin, Authorization,
 * Cookie) and answers with the response headers they set, same names and values, in one plain
 * record handed to the Response: the way @hono/node-server writes headers fastest, straight to
 * the socket. (Issue 42: the floor used to set them with `c.header()`, which makes Hono build an
 * undici `Headers` that node-server then copies back into a record; that floor cost 1.6–1.9x
 * bare Hono and came out slower than the six themselves.)
 */
export function floorHandler(c: Context): Response {
  const read = [c.req.header('origin'), c.req.header('authorization'), c.req.header('cookie')]
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  for (const [name, value] of SIX_RESPONSE_HEADERS) headers[name] = value
  return new Response(JSON.stringify({ sub: 'user-1', ok: read.length === 3 }), {
    status: 200,
    headers,
  })
}
