/**
 * Issue 21, point 3: the answers a route's middleware give, and the 400/415 of request
 * validation, are part of its `hc` types, with `code` narrowed to that middleware's codes when
 * the app renders problem details (`onError(problemHandler())`). For route `middlewares`, group
 * `use` and `api.use('*', …)`. Issue 36, finding 16: every answer a middleware can give is typed
 * (its table in `<feature>/answers.ts`), whatever its options: jwtAuth's 403 and 503, the 503 of
 * every store. Run by `pnpm typecheck`; each `@ts-expect-error` must be an error.
 */
import {
  apiKey,
  bodyLimit,
  concurrencyLimit,
  contentTypeGuard,
  cors,
  csrf,
  jwtAuth,
  MemoryApiKeyStore,
  problemHandler,
  rateLimit,
  sessions,
} from '@palisade/middleware'
import { openapi } from '@palisade/openapi'
import { Hono } from 'hono'
import { hc } from 'hono/client'
import { z } from 'zod'

const secret = 'a-development-secret-of-32-bytes!'
const Me = z.object({ sub: z.string() })

const api = openapi(new Hono(), { info: { title: 'Rejections', version: '1.0.0' } })
  .onError(problemHandler())
  .use('*', rateLimit({ max: 100 }))
  .use('/forms/*', csrf({ secret }))
  .get('/me', (c) => c.json({ sub: 'ada' }, 200), {
    middlewares: [jwtAuth({ secret })],
    openapi: { responses: { 200: { description: 'Me', schema: Me } } },
  })
  .post('/forms/send', (c) => c.json({ sent: true }, 200), {
    openapi: {
      responses: { 200: { description: 'Sent', schema: z.object({ sent: z.boolean() }) } },
    },
  })
  .post('/upload', (c) => c.json({ n: c.req.valid('json').n }, 201), {
    middlewares: [bodyLimit({ max: 1024 }), contentTypeGuard({ required: ['application/json'] })],
    openapi: {
      request: { body: z.object({ n: z.number() }) },
      responses: {
        201: { description: 'Stored', schema: z.object({ n: z.number() }) },
        // Declared by the route: wins over what bodyLimit says about 413.
        413: { description: 'Too large', schema: z.object({ limit: z.number() }) },
      },
    },
  })
  .get('/keyed', (c) => c.json({ ok: true }, 200), {
    middlewares: [
      apiKey({ store: new MemoryApiKeyStore() }),
      concurrencyLimit({ max: 4 }),
      sessions({ secret }),
    ],
    openapi: { responses: { 200: { description: 'OK', schema: z.object({ ok: z.boolean() }) } } },
  })
  .get('/mixed', (c) => c.json({ ok: true }, 200), {
    // A middleware that answers nothing itself does not hide the answers of the others.
    middlewares: [cors(), jwtAuth({ secret })],
    openapi: { responses: { 200: { description: 'OK', schema: z.object({ ok: z.boolean() }) } } },
  })
  .group('/admin', (g) =>
    g.use(jwtAuth({ secret })).get('/stats', (c) => c.json({ up: true }, 200), {
      openapi: { responses: { 200: { description: 'Up', schema: z.object({ up: z.boolean() }) } } },
    }),
  )

const client = hc<typeof api.app>('http://localhost')

async function routeMiddleware() {
  const res = await client.me.$get()
  if (res.status === 401) {
    const problem = await res.json()
    const code: 'token_missing' | 'token_invalid' = problem.code
    // @ts-expect-error jwtAuth's 401 is not rate_limited
    const wrong: 'rate_limited' = problem.code
    return [code, wrong]
  }
  if (res.status === 429) {
    // api.use('*', rateLimit()) applies to every route after it.
    const code: 'rate_limited' = (await res.json()).code
    return [code]
  }
  if (res.status === 403) {
    // jwtAuth's 403 (a token without a required scope); csrf is only on /forms/*.
    const problem = await res.json()
    const exact: Equal<typeof problem.code, 'insufficient_scope'> = true
    // @ts-expect-error csrf's code is not an answer of /me
    const wrong: 'csrf_token_invalid' = problem.code
    return [exact, wrong]
  }
  if (res.status === 503) {
    // jwtAuth's key set and rateLimit's store: every answer either can give, whatever the options.
    const code = (await res.json()).code
    const exact: Equal<typeof code, 'jwks_unavailable' | 'store_unavailable'> = true
    return [exact]
  }
  if (res.status === 200) return [(await res.json()).sub]
  // @ts-expect-error 404 is not an answer of /me
  res.status === 404
  return []
}

/** `true` only when `A` and `B` are the same type (not merely assignable). */
type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false

async function pathPattern() {
  const res = await client.forms.send.$post()
  if (res.status === 403) {
    const code: 'csrf_token_invalid' = (await res.json()).code
    return code
  }
  return ''
}

async function validationAndDeclared() {
  const res = await client.upload.$post({ json: { n: 1 } })
  if (res.status === 400) {
    // Validation's codes, and bodyLimit's for a body that lies about its length or breaks off.
    const code = (await res.json()).code
    const exact: Equal<
      typeof code,
      'validation_failed' | 'malformed_body' | 'content_length_mismatch' | 'body_unreadable'
    > = true
    return exact
  }
  if (res.status === 415) {
    // contentTypeGuard's 415 and validation's 415 carry the same code.
    const code: 'unsupported_media_type' = (await res.json()).code
    return code
  }
  if (res.status === 413) {
    // the route's own 413 wins over bodyLimit's
    const limit: number = (await res.json()).limit
    return limit
  }
  return 0
}

async function storeAnswers() {
  const res = await client.keyed.$get()
  if (res.status === 503) {
    // apiKey, concurrencyLimit and sessions (and rateLimit) answer 503 when their store fails.
    const code = (await res.json()).code
    const exact: Equal<typeof code, 'store_unavailable'> = true
    return exact
  }
  if (res.status === 401) {
    const code: 'api_key_invalid' | 'api_key_expired' | 'api_key_revoked' = (await res.json()).code
    return code
  }
  if (res.status === 429) {
    const code = (await res.json()).code
    const exact: Equal<typeof code, 'rate_limited' | 'concurrency_limited'> = true
    return exact
  }
  return false
}

async function mixedMiddlewares() {
  const res = await hc<typeof api.app>('http://localhost').mixed.$get()
  if (res.status === 401) {
    const code = (await res.json()).code
    const exact: Equal<typeof code, 'token_missing' | 'token_invalid'> = true
    return exact
  }
  return false
}

async function groupUse() {
  const res = await client.admin.stats.$get()
  if (res.status === 401) {
    const code: 'token_missing' | 'token_invalid' = (await res.json()).code
    return code
  }
  if (res.ok) return (await res.json()).up
  return false
}

// Without problemHandler() the answers are the message as text.
const plain = openapi(new Hono(), { info: { title: 'Plain', version: '1.0.0' } }).get(
  '/me',
  (c) => c.json({ sub: 'ada' }, 200),
  {
    middlewares: [jwtAuth({ secret })],
    openapi: { responses: { 200: { description: 'Me', schema: Me } } },
  },
)
async function textAnswers() {
  const res = await hc<typeof plain.app>('http://localhost').me.$get()
  if (res.status === 401) {
    const message: string = await res.text()
    return message
  }
  return ''
}

void routeMiddleware
void pathPattern
void validationAndDeclared
void groupUse
void mixedMiddlewares
void storeAnswers
void textAnswers
