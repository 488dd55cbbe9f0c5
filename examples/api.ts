/**
 * The example app as `palisade` sees it (`palisade audit examples/api.ts`, `fuzz`, `export`):
 * on the memory stores whatever the environment says, so the committed document
 * (examples/openapi.json) does not depend on where the command runs. This copy is never served:
 * its rate limit is high enough for a fuzz run, and it knows one API key, which the fuzzer sends.
 */
import type { FuzzOptions } from '@palisade/openapi/fuzz'
import { createApp } from './app'

const API_KEY = 'palisade-example-fuzz-key'
const { api } = await createApp({
  ...process.env,
  REDIS_URL: undefined,
  RATE_LIMIT_MAX: '1000000',
  DEMO_API_KEY: API_KEY,
})

export { auditPolicy } from './app'
export default api

let credentials: Promise<{ token: string; csrfToken: string; csrfCookie: string }> | undefined
/** Signs in once, through the app itself: a bearer token from /api/login and a CSRF pair. */
function signIn() {
  credentials ??= (async () => {
    const login = await api.request('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'fuzzer' }),
    })
    const { token } = (await login.json()) as { token: string }
    const page = await api.request('/forms/token')
    const { csrfToken } = (await page.json()) as { csrfToken: string }
    const csrfCookie = /XSRF-TOKEN=([^;]+)/.exec(page.headers.get('set-cookie') ?? '')?.[1] ?? ''
    return { token, csrfToken, csrfCookie }
  })()
  return credentials
}

/** What `palisade fuzz examples/api.ts` signs in with, per operation's security requirement. */
export const fuzzOptions: FuzzOptions = {
  headers: { 'x-forwarded-for': '127.0.0.1' },
  async auth(op) {
    const schemes = new Set(op.security.flatMap((r) => Object.keys(r)))
    const { token, csrfToken, csrfCookie } = await signIn()
    const headers: Record<string, string> = {}
    const cookies: Record<string, string> = {}
    if (schemes.has('bearerAuth')) headers.authorization = `Bearer ${token}`
    if (schemes.has('apiKeyHeader')) headers['x-api-key'] = API_KEY
    if (schemes.has('csrfToken')) {
      headers['x-xsrf-token'] = csrfToken
      cookies['XSRF-TOKEN'] = csrfCookie
    }
    return { headers, cookies }
  },
}
