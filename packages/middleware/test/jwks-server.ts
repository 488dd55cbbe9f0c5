// A real JWKS server on loopback for the jwtAuth tests (node:http). Test support lives in test/,
// outside src/, so it is never built or published.
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose'
import { afterEach } from 'vitest'
import type { AsymmetricAlgorithm } from '../src/jwt-auth/keys'

/**
 * How the server answers the JWKS path. A number: that status with the keys as a JSON body (none
 * for 204, 205 and 304, which have none), and for a 3xx a `Location` naming `/moved/jwks.json`,
 * which serves the keys with a 200 (its requests are counted in `movedFetches`).
 */
export type JwksMode = 'ok' | 'down' | 'hang' | 'huge' | 'many' | 'not-json' | number

export interface JwksServer {
  /** `http://127.0.0.1:<port>` */
  origin: string
  /** `${origin}/jwks.json` */
  jwksUrl: string
  /** Keys served at `/jwks.json` (replace to rotate). */
  keys: JWK[]
  mode: JwksMode
  /** Requests to `/jwks.json` so far. */
  fetches: number
  /** Requests to any `…/.well-known/openid-configuration` so far. */
  discoveryFetches: number
  /** Requests to `/moved/jwks.json`, where a 3xx mode points. */
  movedFetches: number
  close(): Promise<void>
}

/**
 * JWKS servers for the tests of one file (or one `describe`): call it there, where it registers
 * the `afterEach` that closes every server a test started; the function it returns starts one.
 */
export function jwksServers(): (keys?: JWK[]) => Promise<JwksServer> {
  const open: JwksServer[] = []
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()))
  })
  return async (keys = []) => {
    const s = await startJwksServer(keys)
    open.push(s)
    return s
  }
}

/** Starts a JWKS server on 127.0.0.1; any `<path>/.well-known/openid-configuration` names `${origin}<path>` (or `${origin}/`) as issuer. */
export async function startJwksServer(keys: JWK[] = []): Promise<JwksServer> {
  const sockets = new Set<Socket>()
  const state = { keys, mode: 'ok' as JwksMode, fetches: 0, discoveryFetches: 0, movedFetches: 0 }
  const json = (res: ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  }
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const discovery = '/.well-known/openid-configuration'
    if (path.endsWith(discovery)) {
      state.discoveryFetches++
      // At the root the issuer ends with a slash, as Auth0's do (https://TENANT.auth0.com/).
      json(res, {
        issuer: `${origin}${path.slice(0, -discovery.length) || '/'}`,
        jwks_uri: `${origin}/jwks.json`,
      })
      return
    }
    if (path === '/moved/jwks.json') {
      state.movedFetches++
      return json(res, { keys: state.keys })
    }
    if (path !== '/jwks.json') {
      res.writeHead(404).end()
      return
    }
    state.fetches++
    if (typeof state.mode === 'number') {
      const status = state.mode
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (status >= 300 && status < 400) headers.location = `${origin}/moved/jwks.json`
      res.writeHead(status, headers)
      res.end([204, 205, 304].includes(status) ? undefined : JSON.stringify({ keys: state.keys }))
      return
    }
    switch (state.mode) {
      case 'ok':
        return json(res, { keys: state.keys })
      case 'down':
        res.writeHead(503).end('down')
        return
      case 'hang':
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write('{"keys":[') // and never another byte
        return
      case 'huge': {
        // 10 MB, streamed without a Content-Length (chunked), so only a read cap can stop it.
        res.writeHead(200, { 'content-type': 'application/json' })
        const chunk = `${JSON.stringify({ kty: 'EC', pad: 'x'.repeat(1000) })},`
        let sent = 0
        const pump = () => {
          while (sent < 10 * 1024 * 1024) {
            sent += chunk.length
            if (!res.write(sent === chunk.length ? `{"keys":[${chunk}` : chunk)) {
              res.once('drain', pump)
              return
            }
          }
          res.end('{}]}')
        }
        res.on('error', () => {})
        pump()
        return
      }
      case 'many':
        return json(res, {
          keys: Array.from({ length: 10_000 }, (_, i) => ({ ...state.keys[0], kid: `k${i}` })),
        })
      case 'not-json':
        res.writeHead(200, { 'content-type': 'application/json' }).end('<html>')
        return
    }
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    jwksUrl: `${origin}/jwks.json`,
    get keys() {
      return state.keys
    },
    set keys(value) {
      state.keys = value
    },
    get mode() {
      return state.mode
    },
    set mode(value) {
      state.mode = value
    },
    get fetches() {
      return state.fetches
    },
    get discoveryFetches() {
      return state.discoveryFetches
    },
    get movedFetches() {
      return state.movedFetches
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

export interface TestKey {
  alg: AsymmetricAlgorithm
  kid: string
  privateKey: CryptoKey
  publicKey: CryptoKey
  /** The public JWK as a provider publishes it: with `kid`, `alg` and `use: 'sig'`. */
  jwk: JWK
}

/** A fresh key pair for `alg`, published under `kid`. */
export async function testKey(alg: AsymmetricAlgorithm, kid: string): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true })
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' }
  return { alg, kid, privateKey, publicKey, jwk }
}

/** Signs `payload` with `key` (header `{ alg, kid, typ }` plus `header`), `iat` now, 1 h life. */
export function signWith(
  key: Pick<TestKey, 'alg' | 'kid' | 'privateKey'>,
  payload: JWTPayload,
  header: Record<string, unknown> = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({ iat: now, exp: now + 3600, ...payload })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...header })
    .sign(key.privateKey)
}
