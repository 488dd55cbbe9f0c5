// Every Palisade middleware describes itself from the options it was actually given.

import { getMiddlewareDescription as describeOf } from '@palisade/shared/describe'
import { describe, expect, it } from 'vitest'
import { apiKey, MemoryApiKeyStore } from './api-key'
import { bodyLimit } from './body-limit'
import { botGuard } from './bot-guard'
import { concurrencyLimit, MemoryConcurrencyStore } from './concurrency-limit'
import { contentTypeGuard } from './content-type-guard'
import { cors } from './cors'
import { csrf } from './csrf'
import { ipGuard } from './ip-guard'
import { jwtAuth } from './jwt-auth'
import { logger } from './logger'
import { MemoryRateLimitStore, rateLimit } from './rate-limit'
import { requestId } from './request-id'
import { requestTimeout } from './request-timeout'
import { securityHeaders } from './security-headers'
import { MemorySessionStore, sessions } from './sessions'
import { ssrfGuard } from './ssrf-guard'
import { xssSanitize } from './xss-sanitize'

const secret = 'x'.repeat(32)
const failingStore = {
  increment: async () => ({ count: 1, ttl: 1 }),
  validate: async () => null,
  get: async () => null,
  set: async () => {},
  destroy: async () => {},
}
const statuses = (mw: unknown) => describeOf(mw)?.responses?.map((r) => r.status)

describe('jwtAuth', () => {
  it('is a bearer JWT scheme with 401 and its WWW-Authenticate challenge', () => {
    const d = describeOf(jwtAuth({ secret }))
    expect(d?.security).toEqual([
      [
        {
          name: 'bearerAuth',
          scheme: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: expect.stringMatching(/RFC8725/),
          },
        },
      ],
    ])
    expect(d?.responses).toEqual([
      expect.objectContaining({
        status: 401,
        codes: ['token_missing', 'token_invalid'],
        headers: [expect.objectContaining({ name: 'WWW-Authenticate' })],
      }),
    ])
  })

  it('adds its cookie as a second alternative when `cookie` is set', () => {
    const d = describeOf(jwtAuth({ secret, cookie: 'token' }))
    expect(d?.security?.map((alt) => alt.map((s) => s.scheme))).toEqual([
      [
        {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: expect.stringMatching(/RFC8725/),
        },
      ],
      [{ type: 'apiKey', in: 'cookie', name: 'token', description: 'The JWT in a cookie' }],
    ])
  })
})

describe('apiKey', () => {
  const store = new MemoryApiKeyStore()
  it.each([
    ['header', [[{ in: 'header', name: 'X-API-Key' }]]],
    ['query', [[{ in: 'query', name: 'api_key' }]]],
    ['both', [[{ in: 'header', name: 'X-API-Key' }], [{ in: 'query', name: 'api_key' }]]],
  ] as const)('extractFrom %s gives %j (alternatives)', (extractFrom, expected) => {
    const d = describeOf(apiKey({ store, extractFrom }))
    expect(d?.security?.map((alt) => alt.map(({ scheme }) => scheme))).toEqual(
      expected.map((alt) => alt.map((s) => ({ type: 'apiKey', ...s }))),
    )
    expect(statuses(apiKey({ store, extractFrom }))).toEqual([401])
  })

  it('uses the configured names', () => {
    const d = describeOf(
      apiKey({ store, extractFrom: 'both', headerName: 'X-Key', queryParam: 'key' }),
    )
    expect(d?.security?.flat().map((s) => [s.name, s.scheme])).toEqual([
      ['apiKeyHeader', { type: 'apiKey', in: 'header', name: 'X-Key' }],
      ['apiKeyQuery', { type: 'apiKey', in: 'query', name: 'key' }],
    ])
  })

  it('documents 503 only for a store that can fail', () => {
    expect(statuses(apiKey({ store: failingStore }))).toEqual([401, 503])
  })

  it("describes the key's format when prefix is set, on each scheme", () => {
    const d = describeOf(apiKey({ store, extractFrom: 'both', prefix: ['pal_live', 'pal_test'] }))
    const descriptions = d?.security?.flat().map((s) => s.scheme.description)
    const format =
      'A checksummed key: `pal_live_` or `pal_test_`, then 30 random base62 characters and a 6-character checksum (CRC32 of the random part). Any other value is answered 401 without a lookup.'
    expect(descriptions).toEqual([format, format])
    expect(describeOf(apiKey({ store }))?.security?.[0]?.[0]?.scheme).not.toHaveProperty(
      'description',
    )
  })
})

describe('csrf', () => {
  it('is the token header as an apiKey scheme, with 403, on unsafe methods only', () => {
    const d = describeOf(csrf())
    expect(d?.security?.[0]?.[0]).toMatchObject({
      name: 'csrfToken',
      scheme: { type: 'apiKey', in: 'header', name: 'X-XSRF-Token' },
    })
    expect(d?.methods).toEqual(['POST', 'PUT', 'DELETE', 'PATCH', 'TRACE'])
    expect(d?.responses).toEqual([
      { status: 403, description: 'Invalid CSRF token', codes: ['csrf_token_invalid'] },
    ])
  })

  it('follows headerName and safeMethods', () => {
    const d = describeOf(csrf({ headerName: 'X-CSRF', safeMethods: ['GET', 'POST'] }))
    expect(d?.security?.[0]?.[0]?.scheme).toMatchObject({ name: 'X-CSRF' })
    expect(d?.methods).not.toContain('POST')
    expect(d?.methods).toContain('DELETE')
  })
})

describe('guards and limits', () => {
  it('ipGuard: 403', () => {
    expect(statuses(ipGuard({ list: ['10.0.0.0/8'] }))).toEqual([403])
  })

  it('botGuard: 403 bot_denied', () => {
    expect(describeOf(botGuard())?.responses?.map((r) => [r.status, r.codes])).toEqual([
      [403, ['bot_denied']],
    ])
  })

  it('ssrfGuard: 400 for a bad URL, 403 for a blocked one, 415 for a compressed body it would read', () => {
    expect(describeOf(ssrfGuard())?.responses?.map((r) => [r.status, r.codes])).toEqual([
      [400, ['url_invalid']],
      [403, ['url_forbidden']],
      [415, ['unsupported_media_type']],
    ])
    expect(describeOf(ssrfGuard())?.responses?.[2]?.headers?.map((h) => h.name)).toEqual([
      'Accept-Encoding',
    ])
    // With an extractUrl of one's own it reads no body: no 415.
    const custom = describeOf(ssrfGuard({ extractUrl: () => null }))
    expect(custom?.responses?.map((r) => r.status)).toEqual([400, 403])
  })

  it('bodyLimit: 413 on methods with a body, naming the limit', () => {
    const d = describeOf(bodyLimit({ max: 1024 }))
    expect(d?.methods).toEqual(['POST', 'PUT', 'PATCH', 'QUERY'])
    expect(d?.responses?.[0]).toMatchObject({ status: 413, codes: ['body_too_large'] })
    expect(d?.responses?.[0]?.description).toContain('1024')
  })

  it('contentTypeGuard: 415 and the accepted request media types, on its methods', () => {
    const d = describeOf(
      contentTypeGuard({ required: ['multipart/form-data', 'Text/*'], methods: ['PUT'] }),
    )
    expect(d?.requestMediaTypes).toEqual(['multipart/form-data', 'text/*'])
    expect(d?.methods).toEqual(['PUT'])
    expect(d?.responses?.[0]).toMatchObject({ status: 415, codes: ['unsupported_media_type'] })
  })

  it('requestTimeout: 408', () => {
    expect(describeOf(requestTimeout({ ms: 250 }))?.responses?.[0]).toMatchObject({
      status: 408,
      codes: ['request_timeout'],
      description: 'No response within 250 ms',
    })
  })

  it('xssSanitize: 400 for malformed JSON on methods with a body', () => {
    const d = describeOf(xssSanitize())
    expect(d?.responses?.[0]).toMatchObject({
      status: 400,
      codes: ['malformed_body', 'body_too_deep'],
    })
    expect(d?.methods).not.toContain('GET')
  })
})

describe('rateLimit', () => {
  it('is 429 with Retry-After and the RateLimit headers, which success responses carry too', () => {
    const d = describeOf(rateLimit())
    const names = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy']
    expect(d?.headers?.map((h) => h.name)).toEqual(names)
    expect(d?.responses?.map((r) => r.status)).toEqual([429])
    expect(d?.responses?.[0]?.headers?.map((h) => h.name)).toEqual(['Retry-After', ...names])
  })

  it('adds 503 for a store that can fail, unless failOpen', () => {
    expect(statuses(rateLimit({ store: failingStore }))).toEqual([429, 503])
    expect(statuses(rateLimit({ store: failingStore, failOpen: true }))).toEqual([429])
    expect(statuses(rateLimit({ store: new MemoryRateLimitStore() }))).toEqual([429])
  })
})

describe('concurrencyLimit', () => {
  it('is 429 with Retry-After, and 503 for a store that can fail, unless failOpen', () => {
    const d = describeOf(concurrencyLimit({ max: 1 }))
    expect(d?.responses).toEqual([
      expect.objectContaining({
        status: 429,
        codes: ['concurrency_limited'],
        headers: [expect.objectContaining({ name: 'Retry-After' })],
      }),
    ])
    const shared = {
      acquire: async () => ({ acquired: true, inFlight: 1 }),
      renew: async () => true,
      release: async () => {},
    }
    expect(statuses(concurrencyLimit({ max: 1, store: shared }))).toEqual([429, 503])
    expect(statuses(concurrencyLimit({ max: 1, store: shared, failOpen: true }))).toEqual([429])
    expect(statuses(concurrencyLimit({ max: 1, store: new MemoryConcurrencyStore() }))).toEqual([
      429,
    ])
  })
})

describe('the rest', () => {
  it('requestId: its header on every response', () => {
    expect(describeOf(requestId({ headerName: 'X-Trace' }))?.headers).toEqual([
      expect.objectContaining({ name: 'X-Trace', on: 'always' }),
    ])
  })

  it('sessions: only its name and cookieAuth with the memory store, 503 with a store that can fail', () => {
    const identity = { middleware: 'sessions', cookieAuth: true }
    expect(describeOf(sessions({ secret }))).toEqual(identity)
    expect(describeOf(sessions({ secret, store: new MemorySessionStore() }))).toEqual(identity)
    expect(describeOf(sessions({ secret, store: failingStore }))).toMatchObject(identity)
    expect(statuses(sessions({ secret, store: failingStore }))).toEqual([503])
  })

  it('securityHeaders: only its name, with and without a nonce', () => {
    expect(describeOf(securityHeaders())).toEqual({ middleware: 'securityHeaders' })
    expect(describeOf(securityHeaders({ nonce: true }))).toEqual({
      middleware: 'securityHeaders',
    })
  })

  it('cors and logger add nothing to an operation', () => {
    for (const mw of [cors(), logger()]) expect(describeOf(mw)).toBeUndefined()
  })

  it.each([
    ['rateLimit', () => rateLimit()],
    ['bodyLimit', () => bodyLimit({ max: 1 })],
    ['csrf', () => csrf()],
    ['jwtAuth', () => jwtAuth({ secret })],
  ])('%s names itself, for audits', (name, make) => {
    expect(describeOf(make())?.middleware).toBe(name)
  })

  it('jwtAuth is cookieAuth only when it reads a cookie', () => {
    expect(describeOf(jwtAuth({ secret }))?.cookieAuth).toBeUndefined()
    expect(describeOf(jwtAuth({ secret, cookie: 'token' }))?.cookieAuth).toBe(true)
  })
})
