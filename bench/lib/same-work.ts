/**
 * Bare Hono doing by hand, in one handler, the work the six-middleware stack does on GET /api/me
 * (issue 42's title: "the six within 1.1x of bare Hono doing the same work"). Shown beside the
 * header floor (`floor.ts`), which writes the same headers and checks nothing:
 *
 * - CORS: the Origin compared with the one allowed origin, its three headers;
 * - rate limit: a fixed window of 60 s per client address in a Map, its four headers;
 * - session: the `sid` cookie found in the Cookie header, its HMAC checked (a checked value is
 *   remembered, as the six remember theirs), the session read from a Map and copied;
 * - CSRF: a GET is safe; the token cookie must be there and non-empty, else one is issued;
 * - JWT: the Bearer token's HMAC checked (remembered likewise), its payload parsed, `exp` checked;
 * - security headers: the same four as the six.
 *
 * The simplest correct code for each, with no option, no decision record and no error answer
 * beyond a bare 401/403/429: what the checks cost when nobody pays for a middleware's generality.
 */
import type { Context } from 'hono'
import { cookieFloor, jwtFloor, ORIGIN, SESSION_ID } from './fixtures'
import { HIGH_LIMIT, SIX_RESPONSE_HEADERS } from './floor'

const WINDOW_MS = 60_000
/** Verified values remembered at most, per kind (the six bound theirs too). */
const REMEMBERED = 1_000

interface Session {
  user: string
  visits: number
}

/** The value of cookie `name` in a Cookie header, or undefined. */
function cookie(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return undefined
}

/** A map that forgets everything once it holds `REMEMBERED` entries. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= REMEMBERED) map.clear()
  map.set(key, value)
}

export async function sameWorkHandler(): Promise<(c: Context) => Promise<Response> | Response> {
  const verifyToken = await jwtFloor()
  const verifyCookie = await cookieFloor()
  const tokens = new Map<string, { sub: string; exp: number }>()
  const cookies = new Map<string, true>()
  const sessions = new Map<string, Session>([[SESSION_ID, { user: 'user-1', visits: 1 }]])
  const windows = new Map<string, { count: number; resetAt: number }>()
  const fixed: Array<readonly [string, string]> = SIX_RESPONSE_HEADERS.filter(
    ([name]) => !name.startsWith('ratelimit-') && !name.startsWith('access-control-'),
  ).filter(([name]) => name !== 'vary')

  const answer = (headers: Record<string, string>, sub: string) =>
    new Response(JSON.stringify({ sub, ok: true }), { status: 200, headers })
  const session = (id: string | undefined): Session | undefined => {
    const data = id === undefined ? undefined : sessions.get(id)
    return data ? { ...data } : undefined
  }

  return (c: Context) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    for (const [name, value] of fixed) headers[name] = value
    // CORS
    if (c.req.header('origin') === ORIGIN) {
      headers['access-control-allow-origin'] = ORIGIN
      headers['access-control-allow-credentials'] = 'true'
    }
    headers.vary = 'Origin'
    // Rate limit
    const address =
      (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming
        ?.socket?.remoteAddress ?? 'unknown'
    const now = Date.now()
    let window = windows.get(address)
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + WINDOW_MS }
      windows.set(address, window)
    }
    window.count++
    if (window.count > HIGH_LIMIT) return new Response('Too Many Requests', { status: 429 })
    headers['ratelimit-policy'] = `${HIGH_LIMIT};w=60`
    headers['ratelimit-limit'] = String(HIGH_LIMIT)
    headers['ratelimit-remaining'] = String(HIGH_LIMIT - window.count)
    headers['ratelimit-reset'] = String(Math.ceil((window.resetAt - now) / 1000))
    // Session, CSRF
    const cookieHeader = c.req.header('cookie') ?? ''
    const sid = cookie(cookieHeader, 'sid')
    const csrfToken = cookie(cookieHeader, 'XSRF-TOKEN')
    if (!csrfToken)
      headers['set-cookie'] = `XSRF-TOKEN=${crypto.randomUUID()}; Path=/; SameSite=Lax`
    // JWT
    const authorization = c.req.header('authorization') ?? ''
    if (!authorization.startsWith('Bearer ')) return new Response(null, { status: 401 })
    const token = authorization.slice(7)
    const known = tokens.get(token)
    const sessionId = sid?.slice(0, sid.lastIndexOf('.'))
    if (known && known.exp * 1000 > now && sid !== undefined && cookies.has(sid)) {
      c.set('sessionData', session(sessionId))
      return answer(headers, known.sub)
    }
    return (async () => {
      if (sid !== undefined && !cookies.has(sid)) {
        if (await verifyCookie(sid)) remember(cookies, sid, true)
      }
      c.set('sessionData', cookies.has(sid ?? '') ? session(sessionId) : undefined)
      let claims = known
      if (!claims) {
        if (!(await verifyToken(token))) return new Response(null, { status: 401 })
        const payload = token.slice(token.indexOf('.') + 1, token.lastIndexOf('.'))
        claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as {
          sub: string
          exp: number
        }
        remember(tokens, token, claims)
      }
      if (claims.exp * 1000 <= now) return new Response(null, { status: 401 })
      return answer(headers, claims.sub)
    })()
  }
}
