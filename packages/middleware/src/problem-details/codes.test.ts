// Every Palisade rejection has an identity: a stable snake_case code on the thrown exception.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { getMiddlewareDescription } from '@palisade/shared/describe'
import { Hono, type MiddlewareHandler } from 'hono'
import { describe, expect, it } from 'vitest'
import { apiKey, MemoryApiKeyStore } from '../api-key'
import { bodyLimit } from '../body-limit'
import { concurrencyLimit } from '../concurrency-limit'
import { contentTypeGuard } from '../content-type-guard'
import { csrf } from '../csrf'
import { Rejection } from '../internal/outcomes/rejection'
import { ipGuard } from '../ip-guard'
import { jwtAuth } from '../jwt-auth'
import { rateLimit } from '../rate-limit'
import { requestTimeout } from '../request-timeout'
import { sessions } from '../sessions'
import { ssrfGuard } from '../ssrf-guard'
import { xssSanitize } from '../xss-sanitize'

const src = join(import.meta.dirname, '..')

describe('rejection codes', () => {
  it('every reject() call in the package names a snake_case code', () => {
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
      (f) =>
        f.endsWith('.ts') &&
        !f.endsWith('.test.ts') &&
        !/(?:^|\/)(?:reject|reject-or-record)\.ts$/.test(f),
    )
    // reject(status, …) and rejectOrRecord(decision, dryRun, status, …): the calls that carry a status.
    const calls: string[] = []
    for (const file of files) {
      const code = readFileSync(join(src, file), 'utf8')
      for (const m of code.matchAll(
        /(?<![.\w])(?:reject|rejectOrRecord)\((?=[^;)]*?\b[1-5]\d\d\b)\s*([^;]*?)\)\s*(?:$|;|\n)/gm,
      ))
        calls.push(m[1] ?? '')
    }
    expect(calls.length).toBeGreaterThan(15)
    const uncoded = calls.filter(
      (args) => !/,\s*(?:'[a-z][a-z0-9_]*'|[^,']*\?\s*'[a-z_]+'\s*:\s*'[a-z_]+')/.test(args),
    )
    expect(uncoded).toEqual([])
  })

  const failing = {
    increment: async () => Promise.reject(new Error('down')),
    validate: async () => Promise.reject(new Error('down')),
    get: async () => Promise.reject(new Error('down')),
    set: async () => Promise.reject(new Error('down')),
    destroy: async () => {},
    acquire: async () => Promise.reject(new Error('down')),
    renew: async () => Promise.reject(new Error('down')),
    release: async () => Promise.reject(new Error('down')),
  }
  const cases: [string, MiddlewareHandler, RequestInit & { path?: string }, number, string][] = [
    ['rateLimit store', rateLimit({ store: failing }), {}, 503, 'store_unavailable'],
    [
      'concurrencyLimit store',
      concurrencyLimit({ max: 1, store: failing, onStoreError: () => {} }),
      {},
      503,
      'store_unavailable',
    ],
    ['ipGuard', ipGuard({ mode: 'allow', list: ['10.0.0.1'] }), {}, 403, 'ip_denied'],
    [
      'bodyLimit',
      bodyLimit({ max: 1 }),
      { method: 'POST', body: 'too long', headers: { 'content-length': '8' } },
      413,
      'body_too_large',
    ],
    ['csrf', csrf(), { method: 'POST' }, 403, 'csrf_token_invalid'],
    ['jwtAuth none', jwtAuth({ secret: 's'.repeat(32) }), {}, 401, 'token_missing'],
    [
      'jwtAuth bad',
      jwtAuth({ secret: 's'.repeat(32) }),
      { headers: { authorization: 'Bearer x.y.z' } },
      401,
      'token_invalid',
    ],
    ['apiKey', apiKey({ store: new MemoryApiKeyStore() }), {}, 401, 'api_key_invalid'],
    [
      'apiKey store',
      apiKey({ store: failing }),
      { headers: { 'x-api-key': 'k' } },
      503,
      'store_unavailable',
    ],
    [
      'contentTypeGuard',
      contentTypeGuard({ required: ['application/json'] }),
      { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } },
      415,
      'unsupported_media_type',
    ],
    [
      'ssrfGuard invalid',
      ssrfGuard(),
      {
        method: 'POST',
        body: '{"url":"ftp://x"}',
        headers: { 'content-type': 'application/json' },
      },
      400,
      'url_invalid',
    ],
    [
      'ssrfGuard forbidden',
      ssrfGuard(),
      {
        method: 'POST',
        body: '{"url":"http://127.0.0.1/"}',
        headers: { 'content-type': 'application/json' },
      },
      403,
      'url_forbidden',
    ],
    [
      'xssSanitize',
      xssSanitize(),
      { method: 'POST', body: '{bad', headers: { 'content-type': 'application/json' } },
      400,
      'malformed_body',
    ],
    [
      'xssSanitize (too deep)',
      xssSanitize(),
      {
        method: 'POST',
        body: `${'['.repeat(1001)}${']'.repeat(1001)}`,
        headers: { 'content-type': 'application/json' },
      },
      400,
      'body_too_deep',
    ],
    [
      'sessions store',
      sessions({ secret: 's'.repeat(32), store: failing }),
      { headers: { 'x-write': '1' } },
      503,
      'store_unavailable',
    ],
  ]

  it.each(cases)(
    '%s rejects with its code, and documents it',
    async (_name, mw, init, status, code) => {
      const app = new Hono()
      let caught: unknown
      app.onError((err, c) => {
        caught = err
        return c.text('handled', 500)
      })
      app.all('/', mw, (c) => {
        // sessions only reach the store when a session is written.
        if (c.req.header('x-write')) c.get('session').set('n', 1)
        return c.text('ok')
      })
      await app.request('http://localhost/', init)
      expect(caught).toBeInstanceOf(Rejection)
      expect((caught as Rejection).status).toBe(status)
      expect((caught as Rejection).code).toBe(code)
      const documented = getMiddlewareDescription(mw)?.responses?.find((r) => r.status === status)
      expect(documented?.codes).toContain(code)
    },
  )

  it('rateLimit rejects with rate_limited once the limit is passed', async () => {
    const app = new Hono()
    const codes: unknown[] = []
    app.onError((err, c) => {
      codes.push((err as Rejection).code)
      return c.text('handled', 500)
    })
    app.get('/', rateLimit({ max: 1 }), (c) => c.text('ok'))
    await app.request('/')
    await app.request('/')
    expect(codes).toEqual(['rate_limited'])
  })

  it('concurrencyLimit rejects with concurrency_limited while max requests are in flight', async () => {
    const app = new Hono()
    const codes: unknown[] = []
    app.onError((err, c) => {
      codes.push((err as Rejection).code)
      return c.text('handled', 500)
    })
    let open!: () => void
    const gate = new Promise<void>((resolve) => {
      open = resolve
    })
    let entered!: () => void
    const inside = new Promise<void>((resolve) => {
      entered = resolve
    })
    app.get('/', concurrencyLimit({ max: 1, key: () => 'k' }), async (c) => {
      entered()
      await gate
      return c.text('ok')
    })
    const first = app.request('/')
    await inside
    await app.request('/')
    open()
    await (await first).text()
    expect(codes).toEqual(['concurrency_limited'])
  })

  it('requestTimeout rejects with request_timeout', async () => {
    const app = new Hono()
    let caught: unknown
    app.onError((err, c) => {
      caught = err
      return c.text('handled', 500)
    })
    app.get('/', requestTimeout({ ms: 5 }), async (c) => {
      await new Promise((r) => setTimeout(r, 50))
      return c.text('late')
    })
    await app.request('/')
    expect((caught as Rejection).code).toBe('request_timeout')
  })
})
