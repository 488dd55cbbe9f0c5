/**
 * Shared request fixtures: one secret, one signed JWT, one session cookie, one CSRF token, one
 * API key, so every side of a comparison verifies exactly the same bytes.
 */
import { MemorySessionStore, sessions } from '@palisade/middleware/sessions'
import { Hono } from 'hono'
import { sign } from 'hono/jwt'

export const JWT_SECRET_TEXT = 'bench-jwt-secret-0123456789abcdef0123456789'
export const JWT_SECRET = new TextEncoder().encode(JWT_SECRET_TEXT)
export const SESSION_SECRET = 'bench-session-secret-0123456789abcdef0123456789'
export const CSRF_TOKEN = '3f1c8f9e-2b7d-4c55-9a0e-6b2f8d4e1a77'
export const API_KEY = 'pk_bench_7d3f0c2a9b8e4f6a1c5d2e8b'
export const ORIGIN = 'https://app.example'
export const CLIENT_IP = '198.51.100.23'
/** A session ID of the shape sessions() issues and accepts: 32 bytes, base64url (43 characters). */
export const SESSION_ID = 'bXlfYmVuY2hfc2Vzc2lvbl9pZF8wMTIzNDU2Nzg5YWI'

export interface Fixtures {
  jwt: string
  /** `<SESSION_ID>.<sig>`: the value of a `sid` cookie signed with SESSION_SECRET. */
  sessionCookieValue: string
}

let cached: Fixtures | undefined

export async function fixtures(): Promise<Fixtures> {
  if (cached) return cached
  const jwt = await sign(
    { sub: 'user-1', role: 'admin', exp: Math.floor(Date.now() / 1000) + 24 * 3600 },
    JWT_SECRET_TEXT,
    'HS256',
  )
  const sessionCookieValue = await signSessionId(SESSION_ID)
  await assertSessionsAccept(sessionCookieValue)
  cached = { jwt, sessionCookieValue }
  return cached
}

const encoder = new TextEncoder()

/**
 * The bytes the sessions middleware MACs for a cookie value: a purpose label, an empty context
 * and the value. @palisade/middleware does not export its cookie signer, so the bench signs its
 * fixtures with WebCrypto itself, and `fixtures()` checks that the middleware accepts the result:
 * if the format ever changes, the bench stops at once instead of measuring a rejected cookie.
 */
const sessionSigningInput = (value: string) => `palisade.sessions.v1\n0:\n${value}`

const sessionKey = () =>
  crypto.subtle.importKey(
    'raw',
    encoder.encode(SESSION_SECRET),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  )

/** `<id>.<base64url HMAC-SHA256>`, as `sessions({ secret: SESSION_SECRET })` signs its cookie. */
export async function signSessionId(id: string): Promise<string> {
  const mac = await crypto.subtle.sign(
    'HMAC',
    await sessionKey(),
    encoder.encode(sessionSigningInput(id)),
  )
  return `${id}.${Buffer.from(mac).toString('base64url')}`
}

async function assertSessionsAccept(cookieValue: string): Promise<void> {
  const store = new MemorySessionStore()
  await store.set(SESSION_ID, { user: 'user-1' }, 60)
  const app = new Hono()
  app.use('*', sessions({ secret: SESSION_SECRET, store }))
  app.get('/', (c) => c.text(String((c.get('session') as { get(k: string): unknown }).get('user'))))
  const res = await app.request('/', { headers: { cookie: `sid=${cookieValue}` } })
  const body = await res.text()
  if (body !== 'user-1') {
    throw new Error(
      `bench fixtures: sessions() does not accept the bench's signed cookie (${res.status} ${body}); update signSessionId`,
    )
  }
}

/** The HMAC floor of a JWT: split, decode the signature, one `crypto.subtle.verify`. */
export async function jwtFloor(): Promise<(token: string) => Promise<boolean>> {
  const key = await crypto.subtle.importKey(
    'raw',
    JWT_SECRET,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  )
  return (token) => {
    const dot = token.lastIndexOf('.')
    const sig = Buffer.from(token.slice(dot + 1), 'base64url')
    return crypto.subtle.verify('HMAC', key, sig, encoder.encode(token.slice(0, dot)))
  }
}

/** The HMAC floor of a signed session cookie value `<id>.<sig>`. */
export async function cookieFloor(): Promise<(value: string) => Promise<boolean>> {
  const key = await sessionKey()
  return (value) => {
    const dot = value.lastIndexOf('.')
    const sig = Buffer.from(value.slice(dot + 1), 'base64url')
    return crypto.subtle.verify(
      'HMAC',
      key,
      sig,
      encoder.encode(sessionSigningInput(value.slice(0, dot))),
    )
  }
}

/** `count` deny-list entries: single IPv4s, IPv4 /24s and IPv6 /48s, none matching CLIENT_IP. */
export function ipList(count: number): string[] {
  const out: string[] = []
  for (let i = 0; out.length < count; i++) {
    const a = 11 + (i % 80)
    const b = (i >> 3) & 255
    const c = (i * 7) & 255
    if (i % 10 === 9) out.push(`2001:db8:${(i & 0xffff).toString(16)}::/48`)
    else if (i % 2 === 0) out.push(`${a}.${b}.${c}.${(i * 13) & 255}`)
    else out.push(`${a}.${b}.${c}.0/24`)
  }
  return out
}
