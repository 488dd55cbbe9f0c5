/**
 * Shared request fixtures: one secret, one signed JWT, one session cookie, one CSRF token, one
 * API key, so every side of a comparison verifies exactly the same bytes.
 */
import { sign } from 'hono/jwt'
import { loadCookieSigner, loadSigningInput } from './palisade'

export const JWT_SECRET_TEXT = 'bench-jwt-secret-0123456789abcdef0123456789'
export const JWT_SECRET = new TextEncoder().encode(JWT_SECRET_TEXT)
export const SESSION_SECRET = 'bench-session-secret-0123456789abcdef0123456789'
export const CSRF_TOKEN = '3f1c8f9e-2b7d-4c55-9a0e-6b2f8d4e1a77'
export const API_KEY = 'pk_bench_7d3f0c2a9b8e4f6a1c5d2e8b'
export const ORIGIN = 'https://app.example'
export const CLIENT_IP = '198.51.100.23'
export const SESSION_ID = 'bXlfYmVuY2hfc2Vzc2lvbl9pZF8wMTIzNDU2Nzg5YWJj'

export interface Fixtures {
  jwt: string
  /** `sid=<id>.<sig>` signed with SESSION_SECRET, or null if the signer is missing. */
  sessionCookieValue: string | null
}

let cached: Fixtures | undefined

export async function fixtures(): Promise<Fixtures> {
  if (cached) return cached
  const jwt = await sign(
    { sub: 'user-1', role: 'admin', exp: Math.floor(Date.now() / 1000) + 24 * 3600 },
    JWT_SECRET_TEXT,
    'HS256',
  )
  const createCookieSigner = await loadCookieSigner()
  const sessionCookieValue = createCookieSigner
    ? await createCookieSigner([SESSION_SECRET], 'sessions').sign(SESSION_ID)
    : null
  cached = { jwt, sessionCookieValue }
  return cached
}

const encoder = new TextEncoder()

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
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(SESSION_SECRET),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  )
  const input = await loadSigningInput()
  return (value) => {
    const dot = value.lastIndexOf('.')
    const sig = Buffer.from(value.slice(dot + 1), 'base64url')
    return crypto.subtle.verify(
      'HMAC',
      key,
      sig,
      encoder.encode(input('sessions', value.slice(0, dot))),
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
