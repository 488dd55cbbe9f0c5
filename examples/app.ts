/**
 * The example API: every Palisade middleware in one Hono app, documented through
 * `@palisade/openapi`. `examples/server.ts` serves it; the browser, Redis and multi-instance tests
 * drive it.
 *
 * Environment (all optional):
 *   REDIS_URL / REDIS_PREFIX / REDIS_CLIENT   shared stores (see ./stores.ts)
 *   RATE_LIMIT_MAX                            requests per minute per client IP on /api/* (100)
 *   JWT_SECRET / SESSION_SECRET / CSRF_SECRET secrets (development defaults, with a warning)
 *   CORS_ORIGIN                               comma-separated allowed origins
 *   DEMO_API_KEY                              the partner API key (`pal_demo_…`, checksummed); unset:
 *                                             one is made at start and printed (not in production)
 *   PARTNER_MONTHLY_QUOTA                     calls a month for that key on /api/keys/whoami (10000)
 *   SHED_EVENT_LOOP_MS                        loadShed: 503 while an event-loop stall passes this (off)
 *   LOG_FORMAT                                `json`: one JSON log object per request, with decisions
 *   OTEL                                      `1`: each decision as an event on the request span, plus
 *                                             metrics (through the global OpenTelemetry providers)
 *
 * The app is also its own token issuer: POST /api/token signs ES256 access tokens (`at+jwt`, with a
 * scope) with a key generated at start, GET /.well-known/jwks.json publishes its public half, and
 * GET /api/reports verifies them from that JWKS, fetched in-process (works offline).
 */

import {
  type ApiKeyLifecycleStore,
  apiKey,
  apiKeyLimit,
  bodyLimit,
  botGuard,
  contentTypeGuard,
  cors,
  createApiKey,
  csrf,
  idempotency,
  ipGuard,
  isWellFormedApiKey,
  jwtAuth,
  loadShed,
  logger,
  problemHandler,
  problemNotFound,
  quota,
  rateLimit,
  requestId,
  requestTimeout,
  sanitizedBody,
  securityHeaders,
  sessions,
  shield,
  signJwt,
  signWebhook,
  ssrfGuard,
  webhook,
  xssSanitize,
} from '@palisade/middleware'
import { openapi, problemDetails, problemResponse } from '@palisade/openapi'
import type { AuditPolicy } from '@palisade/openapi/audit'
import type { FuzzOptions } from '@palisade/openapi/fuzz'
import { Hono, type MiddlewareHandler } from 'hono'
import { z } from 'zod'
import { stdoutLines } from './log-lines'
import { createStores } from './stores'

type Env = Record<string, string | undefined>

/** Comments the app keeps: the newest, so a flood of posts cannot grow its memory without end. */
export const MAX_COMMENTS = 100
const AUTHOR_MAX = 80
const TEXT_MAX = 2000
/** xssSanitize's entity encoding makes a character at most 6 (`"` is `&quot;`). */
const ENCODED = 6

// Every schema is named (`.meta({ id })`): the document and generated clients show these names.
const Comment = z
  .object({
    id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).meta({ format: 'int64' }),
    author: z.string().max(AUTHOR_MAX * ENCODED),
    text: z.string().max(TEXT_MAX * ENCODED),
    requestId: z.string().max(255),
  })
  .meta({ id: 'Comment' })
const CommentList = z
  .array(Comment)
  .max(MAX_COMMENTS)
  .meta({ id: 'CommentList', description: `The newest ${MAX_COMMENTS} comments, oldest first` })
const CommentId = z
  .object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) })
  .meta({ id: 'CommentId' })
/** The app's every 404 is problem details (problemNotFound() answers the rest with the same shape). */
const NotFound = z
  .object({
    type: z.string().max(255),
    title: z.string().max(64),
    status: z.number().int().min(400).max(599).meta({ format: 'int32' }),
    code: z.literal('not_found'),
    detail: z.string().max(200),
  })
  .meta({ id: 'NotFound' })
const NewComment = z
  .object({
    author: z.string().min(1).max(AUTHOR_MAX).meta({ example: 'Ada' }),
    text: z.string().min(1).max(TEXT_MAX).meta({ example: '<b>Hello</b> & welcome' }),
  })
  .meta({ id: 'NewComment' })
const LoginBody = z
  .object({ username: z.string().min(1).max(64).meta({ example: 'ada' }) })
  .meta({ id: 'Login' })
const Token = z
  .object({ token: z.string().max(4096), expiresIn: z.string().max(16) })
  .meta({ id: 'Token' })
const Jwks = z
  .object({ keys: z.array(z.record(z.string(), z.string().max(512))).max(8) })
  .meta({ id: 'Jwks' })
const Reports = z
  .object({ sub: z.string().max(64), reports: z.array(z.string().max(64)).max(100) })
  .meta({ id: 'Reports' })
const Me = z.object({ sub: z.string().max(64), role: z.string().max(32) }).meta({ id: 'Me' })
const PreviewBody = z
  .object({ url: z.string().url().max(2048).meta({ example: 'https://example.com/' }) })
  .meta({ id: 'PreviewRequest' })
const Preview = z
  .object({ url: z.string().max(2048), allowed: z.boolean() })
  .meta({ id: 'Preview' })
const Visits = z
  .object({
    visits: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).meta({ format: 'int64' }),
  })
  .meta({ id: 'Visits' })
const KeyInfo = z
  .object({ id: z.string().max(128), metadata: z.record(z.string(), z.unknown()).optional() })
  .meta({ id: 'KeyInfo' })
const FeedbackForm = z
  .object({
    message: z.string().min(1).max(TEXT_MAX).meta({ example: 'The explorer works offline.' }),
    // csrf() reads and checks the token itself; documented so a form may carry it.
    _csrf: z.string().max(256).optional(),
  })
  .meta({ id: 'FeedbackForm' })
const Feedback = z.object({ received: z.boolean() }).meta({ id: 'Feedback' })
const CsrfToken = z.object({ csrfToken: z.string().max(256) }).meta({ id: 'CsrfToken' })
const Health = z.object({ status: z.literal('ok') }).meta({ id: 'Health' })
const Pong = z.object({ pong: z.boolean() }).meta({ id: 'Pong' })
const Stores = z.object({ stores: z.enum(['memory', 'redis']) }).meta({ id: 'Stores' })
const HomePage = z.string().max(4096).meta({ id: 'HomePage' })
/** What the billing provider sends to /webhooks/billing (Standard Webhooks). */
const BillingEvent = z
  .object({
    type: z.string().min(1).max(100).meta({ example: 'invoice.created' }),
    data: z.record(z.string().max(100), z.unknown()),
  })
  .meta({ id: 'BillingEvent' })
const Received = z
  .object({ received: z.boolean(), id: z.string().max(256) })
  .meta({ id: 'WebhookReceived' })
/** The webhook this app sends to its subscribers when an invoice is paid. */
const InvoicePaid = z
  .object({
    type: z.literal('invoice.paid'),
    data: z.object({
      invoice: z.string().max(64).meta({ example: 'in_1' }),
      amount: z.int32().min(0).meta({ description: 'In cents' }),
      currency: z.string().length(3).meta({ example: 'eur' }),
    }),
  })
  .meta({ id: 'InvoicePaid' })

/** An account as a user store would hold it, secrets included. */
function account(sub: string, role: string) {
  return { sub, role, passwordHash: `$argon2id$v=19$m=65536,t=3,p=4$${sub}` }
}

/**
 * What `palisade audit` holds the app to: every rule at `error` (`shield` too), and these routes let off one
 * rule each, with the reason a reviewer reads. (`palisade audit examples/api.ts` finds this
 * export next to the app.)
 */
export const auditPolicy: AuditPolicy = {
  // `shield` is off by default; this app runs it on every route that takes free text.
  rules: { shield: 'error' },
  exempt: [
    {
      method: 'POST',
      path: '/webhooks/billing',
      rules: ['shield'],
      reason:
        'a signed payload from the billing provider, verified before the handler runs: its text is the sender’s, not a visitor’s, and a false positive would drop a paid invoice',
    },
    {
      method: 'GET',
      path: '/health',
      rules: ['rate-limit'],
      reason:
        'liveness probe: the orchestrator polls it from one address, and a throttled probe restarts a healthy instance',
    },
    {
      method: 'GET',
      path: '/.well-known/jwks.json',
      rules: ['rate-limit'],
      reason:
        'public keys that verifiers cache for their max age; this app’s own jwtAuth reads them in-process, where no client address exists to key a limit on',
    },
    {
      method: 'POST',
      path: '/api/login',
      rules: ['csrf'],
      reason:
        'login starts the session instead of trusting one (the ID is regenerated), and it accepts only application/json, which a cross-site form cannot send without a CORS preflight that cors() refuses to unknown origins',
    },
    {
      method: 'POST',
      path: '/forms/feedback',
      rules: ['auth'],
      reason:
        'anyone may send feedback, signed in or not: csrf proves the form came from this site’s page (it is not authentication), and the rate limit and body cap of /forms bound what an anonymous sender can do',
    },
  ],
}

/**
 * The fuzzer's auth hook for this app (`palisade fuzz`, tests/openapi/example-fuzz.test.ts):
 * signs in once through the app itself (a bearer token from /api/login, an access token with
 * scope reports:read from /api/token, a CSRF pair from /forms/token) and sends what each
 * operation's security requirement names (the access token where the requirement lists scopes).
 */
export function fuzzAuth(
  api: ReturnType<typeof openapi>,
  apiKey?: string,
  billingWebhookSecret = DEV_WEBHOOK_SECRET,
): NonNullable<FuzzOptions['auth']> {
  let credentials:
    | Promise<{ token: string; accessToken: string; csrfToken: string; csrfCookie: string }>
    | undefined
  const signIn = async () => {
    const login = await api.request('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'fuzzer' }),
    })
    const { token } = (await login.json()) as { token: string }
    const issued = await api.request('/api/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'fuzzer' }),
    })
    const { token: accessToken } = (await issued.json()) as { token: string }
    const page = await api.request('/forms/token')
    const { csrfToken } = (await page.json()) as { csrfToken: string }
    const csrfCookie = /XSRF-TOKEN=([^;]+)/.exec(page.headers.get('set-cookie') ?? '')?.[1] ?? ''
    return { token, accessToken, csrfToken, csrfCookie }
  }
  return async (op, request) => {
    if (op.security.some((r) => 'webhookStandardWebhooks' in r)) {
      // The billing provider's part: sign the very body the fuzzer sends (a fresh webhook-id each).
      const signed = await signWebhook(request.body ?? '', {
        preset: 'standardWebhooks',
        secret: billingWebhookSecret,
      })
      return { headers: signed.headers }
    }
    credentials ??= signIn()
    const { token, accessToken, csrfToken, csrfCookie } = await credentials
    const schemes = new Set(op.security.flatMap((r) => Object.keys(r)))
    const scoped = op.security.some((r) => Object.values(r).some((scopes) => scopes.length > 0))
    const headers: Record<string, string> = {}
    const cookies: Record<string, string> = {}
    if (schemes.has('bearerAuth')) headers.authorization = `Bearer ${scoped ? accessToken : token}`
    if (schemes.has('apiKeyHeader') && apiKey) headers['x-api-key'] = apiKey
    if (schemes.has('csrfToken')) {
      headers['x-xsrf-token'] = csrfToken
      cookies['XSRF-TOKEN'] = csrfCookie
    }
    return { headers, cookies }
  }
}

/** The documentation site (root package.json `palisade.site`; a test keeps them equal). */
export const DOCS_SITE = 'https://palisade.dev'

/**
 * `GET /`: where to go from here. Plain links, no script and no style attribute, so the page
 * renders under the app's own `default-src 'self'` CSP.
 */
const HOME_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Palisade example API</title></head>
<body>
<h1>Palisade example API</h1>
<p>Every Palisade middleware in one Hono app, documented through <code>@palisade/openapi</code>.</p>
<ul>
<li><a href="/explorer">Explorer</a>: every operation, with "Try it out" (Swagger UI)</li>
<li><a href="/reference">Reference</a>: the API reference (ReDoc)</li>
<li><a href="/openapi.json">openapi.json</a>: the OpenAPI 3.1 document</li>
<li><a href="${DOCS_SITE}/guide/">Getting started</a>: the Palisade documentation</li>
</ul>
</body>
</html>
`

/** Shortest secret the middleware accept (32 bytes for HS256 and the signed cookies). */
const MIN_SECRET = 32

/**
 * A secret from the environment, by name. Unset: a development secret with a warning, or, under
 * `NODE_ENV=production`, an error that names the variable (never "must be a string").
 */
function secret(env: Env, name: string): string {
  const value = env[name]
  if (value !== undefined && value !== '') {
    if (new TextEncoder().encode(value).length < MIN_SECRET) {
      throw new Error(
        `${name} is too short: it needs at least ${MIN_SECRET} bytes (try \`openssl rand -base64 32\`)`,
      )
    }
    return value
  }
  if (env.NODE_ENV === 'production') {
    throw new Error(
      `${name} is not set: set it to at least ${MIN_SECRET} random bytes (try \`openssl rand -base64 32\`)`,
    )
  }
  console.warn(`${name} is not set: using a development secret`)
  return `palisade-example-development-${name.toLowerCase()}-do-not-use-in-production`
}

/**
 * The Standard Webhooks secret (`whsec_` and base64) the billing provider signs with, from
 * `BILLING_WEBHOOK_SECRET`. Unset: a development secret with a warning, or, under
 * `NODE_ENV=production`, an error naming the variable.
 */
function webhookSecret(env: Env): string {
  const name = 'BILLING_WEBHOOK_SECRET'
  const value = env[name]
  if (value !== undefined && value !== '') return value
  if (env.NODE_ENV === 'production') {
    throw new Error(
      `${name} is not set: set it to the whsec_… secret your billing provider shows for this endpoint`,
    )
  }
  console.warn(`${name} is not set: using a development secret`)
  return DEV_WEBHOOK_SECRET
}

/** The development webhook secret (never for production: `NODE_ENV=production` refuses it). */
const DEV_WEBHOOK_SECRET = `whsec_${btoa('palisade-example-development-webhook-secret')}`

/**
 * The prefix of the example's partner API keys (`pal_demo_` + 30 random base62 + a 6-character
 * checksum, see `generateApiKey`). `apiKey({ prefix })` refuses anything else, a typo included,
 * with 401 `api_key_invalid` before the store is asked.
 */
export const PARTNER_KEY_PREFIX = 'pal_demo'

/**
 * The partner settings from the environment, checked before anything is built: the monthly
 * quota, and DEMO_API_KEY when set (a `pal_demo_` key: any other would never pass `apiKey`).
 */
function partnerSettings(env: Env): number {
  const monthly = Number(env.PARTNER_MONTHLY_QUOTA ?? 10_000)
  if (!Number.isSafeInteger(monthly) || monthly <= 0) {
    throw new Error(
      `PARTNER_MONTHLY_QUOTA must be a positive integer, got '${env.PARTNER_MONTHLY_QUOTA}'`,
    )
  }
  const given = env.DEMO_API_KEY
  if (given && !isWellFormedApiKey(given, [PARTNER_KEY_PREFIX])) {
    throw new Error(
      `DEMO_API_KEY is not a ${PARTNER_KEY_PREFIX}_ key (prefix, 30 random characters and a checksum): unset it and the example makes one at start and prints it`,
    )
  }
  return monthly
}

/**
 * The partner API key the example serves: `DEMO_API_KEY` when set (it must be a `pal_demo_` key;
 * stored once, so instances sharing Redis share its id), else, outside production, a key made
 * with `createApiKey` (shown once: `server.ts` prints it). Its record carries the monthly quota
 * (`limits.monthly`) that `quota()` reads through `apiKeyLimit`. Resolves the key and whether it
 * was made here, or `undefined` (production without `DEMO_API_KEY`).
 */
async function partnerKey(
  env: Env,
  store: ApiKeyLifecycleStore,
  monthly: number,
): Promise<{ key: string; generated: boolean } | undefined> {
  const record = { metadata: { name: 'demo' }, limits: { monthly } }
  const given = env.DEMO_API_KEY
  if (given === undefined || given === '') {
    if (env.NODE_ENV === 'production') return undefined
    const { key } = await createApiKey({ store, prefix: PARTNER_KEY_PREFIX, ...record })
    return { key, generated: true }
  }
  // Already stored (another instance on the same Redis): keep its id, refresh its quota.
  const stored = await store.validate(given)
  const id = stored?.id ?? crypto.randomUUID()
  await store.put(given, {
    ...stored,
    ...record,
    id,
    createdAt: stored?.createdAt ?? Date.now(),
    prefix: PARTNER_KEY_PREFIX,
  })
  return { key: given, generated: false }
}

/**
 * Builds the example app. Returns the documented app (`api.fetch` serves it), its stores and a `close()`
 * that releases the stores (timers or the Redis connection).
 */
export async function createApp(env: Env = process.env) {
  const monthlyQuota = partnerSettings(env)
  const stores = await createStores(env)
  // OTEL=1 only: the OpenTelemetry API and the bridge are loaded on demand, so an app that does
  // not trace never loads them (and starts sooner). Off, nothing is registered: a middleware that
  // only calls next() would still be a step of every request.
  const tracing: MiddlewareHandler[] =
    env.OTEL === '1'
      ? [
          (await import('@palisade/middleware/otel')).otel({
            api: await import('@opentelemetry/api'),
          }),
        ]
      : []
  const jwtSecret = new TextEncoder().encode(secret(env, 'JWT_SECRET'))
  const partner = await partnerKey(env, stores.apiKeyStore, monthlyQuota)

  const comments: z.infer<typeof Comment>[] = []
  let lastCommentId = 0
  const logLines = stdoutLines()

  // The app as its own issuer: an ES256 key pair made at start, its public half as a JWKS. Any
  // other service could verify these tokens with jwtAuth({ jwks: '<this origin>/.well-known/jwks.json' }).
  const issuer = 'http://localhost/'
  const issuerKeys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])
  const {
    kty = '',
    crv = '',
    x = '',
    y = '',
  } = await crypto.subtle.exportKey('jwk', issuerKeys.publicKey)
  const jwks = { keys: [{ kty, crv, x, y, kid: 'example-1', alg: 'ES256', use: 'sig' }] }
  const hono = new Hono()
  const reportsAuth = jwtAuth({
    jwks: `${issuer}.well-known/jwks.json`,
    // The JWKS is read from this very app, in-process: no network, no port to know in advance.
    fetch: (url, init) => hono.fetch(new Request(url, init)),
    issuer,
    audience: 'example-api',
    typ: 'at+jwt',
    scopes: ['reports:read'],
  })

  const limitBody = bodyLimit({ max: 64 * 1024 })
  const limitRate = rateLimit({
    max: Number(env.RATE_LIMIT_MAX ?? 100),
    windowMs: 60_000,
    store: stores.rateLimitStore,
  })
  const session = sessions({ secret: secret(env, 'SESSION_SECRET'), store: stores.sessionStore })
  // On every write route, in dry run: each would-be block is a `dry-run` decision in the JSON log
  // and the span (category and location, never the payload), while the app learns what its
  // traffic looks like (docs/middleware/shield.md: "shield in dry run for a week, then block").
  const guard = shield({ dryRun: true })
  // A "Googlebot" (Bingbot, Applebot, …) whose address is not the crawler's is refused: its claim
  // is checked by forward-confirmed reverse DNS (node:dns), cached per address. A claim that
  // cannot be checked (DNS down) passes as unverified; handlers read c.get('bot').
  const bots = botGuard({ deny: ['spoofed'] })
  // Shed load before the process falls over: 1,000 requests in flight answer 503 with Retry-After,
  // and so does an event-loop stall past SHED_EVENT_LOOP_MS in the last second, when set (off by
  // default: the fuzzer and the tests run in the app's own process, and their stalls are not the
  // server's load). /health keeps answering.
  const stallMs = env.SHED_EVENT_LOOP_MS ? Number(env.SHED_EVENT_LOOP_MS) : undefined
  const shed = loadShed({
    maxInFlight: 1_000,
    ...(stallMs === undefined ? {} : { maxEventLoopDelayMs: stallMs }),
    exempt: ['/health'],
  })
  // Partner keys: checksummed `pal_demo_…` keys only, so a typo or a random string is refused
  // before the store is asked.
  const partnerAuth = apiKey({ store: stores.apiKeyStore, prefix: PARTNER_KEY_PREFIX })
  // The partner API key's monthly quota, by the calendar (UTC), on the shared rate-limit store:
  // the key's own `limits.monthly`, else PARTNER_MONTHLY_QUOTA; counted per key id.
  const partnerQuota = quota({
    limit: apiKeyLimit('monthly', monthlyQuota),
    period: 'month',
    store: stores.rateLimitStore,
  })
  // One chain, so `AppType` (below) carries every route and what its middleware answer.
  const api = openapi(hono, {
    info: {
      title: 'Palisade example API',
      version: '1.0.0',
      description: 'Every Palisade middleware in one Hono app.',
    },
    // Relative: "Try it out" calls whichever host and port serves the docs.
    servers: [{ url: '/', description: 'This server' }],
  })
    // Every rejection (middleware or validation) as RFC 9457 problem details; the document shows
    // that body on every answer the middleware describe, and hc<AppType> types it with its code.
    .onError(problemHandler())
    // A request no route matches gets the same body (Hono's own 404 is text/plain).
    .notFound(problemNotFound())

    // Whole app: request IDs first so every log line carries one; security headers everywhere
    // (the docs pages set their own CSP, which securityHeaders keeps).
    // OTEL=1: then decisions go to OpenTelemetry (register the SDK's providers before createApp).
    .use('*', requestId(), ...tracing)
    // One write per turn of the event loop instead of a console.log per request (./log-lines.ts).
    // LOG_FORMAT=json: one JSON object per request, with what each middleware decided and why.
    .use(
      '*',
      logger({
        exclude: ['/health', '/explorer/*', '/reference/*'],
        format: env.LOG_FORMAT === 'json' ? 'json' : 'text',
        sink: logLines,
      }),
    )
    .use('*', shed)
    .use('*', securityHeaders())
    .use(
      '/api/*',
      cors({
        origin: (env.CORS_ORIGIN ?? 'http://localhost:5173').split(',').map((o) => o.trim()),
        credentials: true,
        maxAge: 600,
      }),
    )
    .use('/api/*', requestTimeout({ ms: 5_000 }))
    // One limit and one body cap for every area of the app (/api, /forms, /admin, /): each
    // request matches one prefix, so it counts once against the client's budget.
    .use('/api/*', limitBody, limitRate)
    // Crawlers that lie about who they are, on the API and on the home page they would index.
    .use('/api/*', bots)
    // The session cookie only where a handler reads the session: a route behind it that changes
    // state would be authenticated by a cookie alone, and so need CSRF protection (palisade audit).
    .use('/api/session/*', session)
    .use('/api/login', session)

    .get('/', (c) => c.html(HOME_PAGE), {
      middlewares: [limitRate, bots],
      openapi: {
        operationId: 'getHome',
        security: [],
        tags: ['system'],
        summary: 'Links to the explorer, the reference and the documentation site',
        responses: {
          200: {
            description: 'An HTML page of links',
            schema: HomePage,
            contentType: 'text/html',
          },
        },
      },
    })

    .get('/health', (c) => c.json({ status: 'ok' as const }), {
      openapi: {
        operationId: 'getHealth',
        security: [],
        tags: ['system'],
        summary: 'Liveness probe (not rate limited)',
        responses: { 200: { description: 'Alive', schema: Health } },
      },
    })

    .get('/.well-known/jwks.json', (c) => c.json(jwks), {
      openapi: {
        operationId: 'jwks',
        security: [],
        tags: ['auth'],
        summary: 'The public keys of the access tokens this app issues (JWKS)',
        responses: { 200: { description: 'A JSON Web Key Set', schema: Jwks } },
      },
    })

    .group('/api', (g) =>
      g
        .get('/ping', (c) => c.json({ pong: true }), {
          openapi: {
            operationId: 'ping',
            security: [],
            tags: ['system'],
            summary: 'Rate-limited ping',
            responses: {
              200: { description: 'Pong', schema: Pong },
            },
          },
        })

        .get(
          '/session/visit',
          (c) => {
            const session = c.get('session')
            const visits = (session.get<number>('visits') ?? 0) + 1
            session.set('visits', visits)
            return c.json({ visits })
          },
          {
            openapi: {
              operationId: 'visit',
              security: [],
              tags: ['sessions'],
              summary: 'Counts visits in the session (cookie `sid`)',
              responses: { 200: { description: 'Visits so far', schema: Visits } },
            },
          },
        )

        .post(
          '/login',
          async (c) => {
            // Validated before the handler runs: a bad body never gets here (400 problem details).
            const { username } = c.req.valid('json')
            const session = c.get('session')
            session.set('user', username)
            session.regenerate()
            const token = await signJwt({ sub: username, role: 'member' }, jwtSecret, {
              expiresIn: '2h',
            })
            return c.json({ token, expiresIn: '2h' })
          },
          {
            middlewares: [contentTypeGuard({ required: ['application/json'] }), guard],
            openapi: {
              operationId: 'login',
              security: [],
              tags: ['auth'],
              summary: 'Signs a JWT and starts a session (demo: any username)',
              request: { body: LoginBody },
              responses: {
                200: { description: 'A bearer token', schema: Token },
              },
            },
          },
        )

        .get(
          '/me',
          (c) => {
            const payload = c.get('jwtPayload')
            // The stored account carries a password hash that `Me` does not declare: response
            // validation (default 'strip') removes it before the body leaves.
            return c.json(account(String(payload.sub), String(payload.role ?? 'member')))
          },
          {
            middlewares: [jwtAuth({ secret: jwtSecret })],
            openapi: {
              operationId: 'me',
              tags: ['auth'],
              summary: 'The bearer token’s claims',
              responses: { 200: { description: 'Claims', schema: Me } },
            },
          },
        )

        .post(
          '/token',
          async (c) => {
            const { username } = c.req.valid('json')
            const token = await signJwt(
              { sub: username, scope: 'reports:read' },
              issuerKeys.privateKey,
              {
                kid: 'example-1',
                typ: 'at+jwt',
                issuer,
                audience: 'example-api',
                expiresIn: '15m',
              },
            )
            return c.json({ token, expiresIn: '15m' })
          },
          {
            middlewares: [contentTypeGuard({ required: ['application/json'] }), guard],
            openapi: {
              operationId: 'issueAccessToken',
              security: [],
              tags: ['auth'],
              summary: 'Signs an ES256 access token with scope reports:read (demo: any username)',
              request: { body: LoginBody },
              responses: { 200: { description: 'An access token (at+jwt)', schema: Token } },
            },
          },
        )

        .get(
          '/reports',
          (c) => c.json({ sub: String(c.get('jwtPayload').sub), reports: ['q1', 'q2'] }),
          {
            middlewares: [reportsAuth],
            openapi: {
              operationId: 'reports',
              tags: ['auth'],
              summary:
                'Needs an access token from /api/token, verified from the JWKS, with reports:read',
              responses: { 200: { description: 'The reports', schema: Reports } },
            },
          },
        )

        .get(
          '/keys/whoami',
          (c) => {
            const info = c.get('apiKey')
            return c.json(
              info.metadata ? { id: info.id, metadata: info.metadata } : { id: info.id },
            )
          },
          {
            middlewares: [partnerAuth, partnerQuota],
            openapi: {
              operationId: 'whoami',
              tags: ['auth'],
              summary: 'Who the X-API-Key belongs to',
              // Deprecated at run time too: every answer carries Deprecation, Sunset and Link
              // (docs/openapi/deprecation.md). The sunset is far off on purpose: `palisade audit`
              // warns 30 days before it and fails from it, and the audit test of this app expects
              // no finding, so CI is told on 2028-05-02, a month ahead, never surprised.
              deprecated: {
                since: new Date('2026-12-01T00:00:00Z'),
                sunset: new Date('2028-06-01T00:00:00Z'),
                link: '/reference#tag/auth',
              },
              responses: { 200: { description: 'The key’s id and metadata', schema: KeyInfo } },
            },
          },
        )

        .get('/comments', (c) => c.json(comments), {
          openapi: {
            operationId: 'listComments',
            security: [],
            tags: ['comments'],
            summary: 'Comments, HTML-encoded on the way in',
            responses: {
              200: { description: `The newest ${MAX_COMMENTS} comments`, schema: CommentList },
            },
          },
        })
        .get(
          '/comments/:id',
          (c) => {
            const { id } = c.req.valid('param')
            const comment = comments.find((one) => one.id === id)
            if (comment) return c.json(comment, 200)
            const detail = `No comment ${id} (only the newest ${MAX_COMMENTS} are kept)`
            return problemResponse(problemDetails(404, { code: 'not_found', detail }))
          },
          {
            openapi: {
              operationId: 'getComment',
              security: [],
              tags: ['comments'],
              summary: 'One comment, by its id',
              request: { params: CommentId },
              responses: {
                200: { description: 'The comment', schema: Comment },
                404: {
                  description: 'No such comment',
                  schema: NotFound,
                  contentType: 'application/problem+json',
                },
              },
            },
          },
        )
        .post(
          '/comments',
          (c) => {
            // The body was validated as sent; store xssSanitize's HTML-encoded copy of it.
            const valid = c.req.valid('json')
            const { author, text } = sanitizedBody<typeof valid>(c) ?? valid
            lastCommentId += 1
            const comment = { id: lastCommentId, author, text, requestId: c.get('requestId') }
            comments.push(comment)
            // Only the newest are kept: memory stays bounded however many are posted.
            if (comments.length > MAX_COMMENTS) comments.splice(0, comments.length - MAX_COMMENTS)
            return c.json(comment, 201)
          },
          {
            middlewares: [
              contentTypeGuard({ required: ['application/json'] }),
              guard,
              // A retried POST with the same Idempotency-Key gets the stored comment again
              // (Idempotent-Replayed: true) instead of adding it twice.
              idempotency({ store: stores.idempotencyStore }),
              xssSanitize(),
            ],
            openapi: {
              operationId: 'createComment',
              security: [],
              tags: ['comments'],
              summary: 'Adds a comment; its strings are HTML-entity encoded',
              request: { body: NewComment },
              responses: {
                201: {
                  description: 'The stored comment',
                  schema: Comment,
                  // `palisade fuzz` follows it: the comment just created must be found by its id.
                  links: {
                    GetComment: {
                      operationId: 'getComment',
                      parameters: { id: '$response.body#/id' },
                      description: 'The comment just stored, by its id',
                    },
                  },
                },
              },
            },
          },
        )

        .post(
          '/previews',
          (c) => {
            const { url } = c.req.valid('json')
            // A real app would fetch here, re-checking with checkUrl() and without redirects.
            return c.json({ url, allowed: true })
          },
          {
            middlewares: [contentTypeGuard({ required: ['application/json'] }), guard, ssrfGuard()],
            openapi: {
              operationId: 'createPreview',
              security: [],
              tags: ['previews'],
              summary: 'Accepts a URL only if it points to a public address',
              request: { body: PreviewBody },
              responses: {
                200: { description: 'The URL is allowed', schema: Preview },
              },
            },
          },
        ),
    )

    // Browser forms: double-submit CSRF token, signed so a sibling subdomain cannot plant one.
    .use('/forms/*', limitBody, limitRate)
    .use('/forms/*', csrf({ secret: secret(env, 'CSRF_SECRET') }))
    .get('/forms/token', (c) => c.json({ csrfToken: c.get('csrfToken') }), {
      openapi: {
        operationId: 'csrfToken',
        security: [],
        tags: ['forms'],
        summary: 'Sets the XSRF-TOKEN cookie and returns the token',
        responses: { 200: { description: 'The token', schema: CsrfToken } },
      },
    })
    .post(
      '/forms/feedback',
      (c) => {
        // Validated before the handler runs (a form body; anything else is 400 or 415).
        const { message } = c.req.valid('form')
        return c.json({ received: message.length > 0 })
      },
      {
        middlewares: [guard],
        openapi: {
          operationId: 'sendFeedback',
          tags: ['forms'],
          summary: 'Needs the X-XSRF-Token header (or _csrf field) equal to the cookie',
          request: { form: FeedbackForm },
          responses: {
            200: { description: 'Accepted', schema: Feedback },
          },
        },
      },
    )

    // Webhooks from the billing provider: signed (Standard Webhooks), a replay refused, the body
    // verified as sent and then validated like any other.
    .use('/webhooks/*', limitBody, limitRate)
    .post(
      '/webhooks/billing',
      (c) => {
        const event = c.req.valid('json')
        // A real app would enqueue the event, keyed by webhook-id (a retry carries the same id).
        return c.json({ received: event.type.length > 0, id: c.get('webhook').id ?? '' })
      },
      {
        middlewares: [webhook({ preset: 'standardWebhooks', secret: webhookSecret(env) })],
        openapi: {
          operationId: 'receiveBillingWebhook',
          tags: ['webhooks'],
          summary: 'Receives the billing provider’s signed webhooks (Standard Webhooks)',
          webhookReceiver: true,
          request: { body: BillingEvent },
          responses: { 200: { description: 'Taken', schema: Received } },
        },
      },
    )
    // What this app sends to its own subscribers (documented, not served).
    .webhook('invoice.paid', {
      operationId: 'invoicePaid',
      summary: 'An invoice was paid',
      description:
        'Sent to each subscriber once an invoice is paid, signed with `signWebhook()` (Standard Webhooks); a retry carries the same `webhook-id`.',
      tags: ['webhooks'],
      payload: InvoicePaid,
      signature: 'standardWebhooks',
      responses: { 200: { description: 'Received' }, 410: { description: 'Unsubscribe' } },
    })

    // Operators only: loopback clients.
    .use('/admin/*', limitRate)
    .get('/admin/stats', (c) => c.json({ stores: stores.kind }), {
      middlewares: [ipGuard({ mode: 'allow', list: ['127.0.0.1', '::1'] })],
      openapi: {
        operationId: 'adminStats',
        // No credential: access is by client address (ipGuard above), which OpenAPI cannot express.
        security: [],
        tags: ['admin'],
        summary: 'Which stores the app runs on (loopback only)',
        responses: {
          200: { description: 'Store kind', schema: Stores },
        },
      },
    })

  return {
    api,
    stores,
    /** The partner API key (`pal_demo_…`) and whether it was made at start (then print it). */
    partnerKey: partner,
    close: async () => {
      logLines.flush()
      // A key made at start is this instance's alone: on a shared store (Redis) it would stay
      // behind after every restart, so it goes with the instance (best effort: a store that is
      // already down must not keep the stores from closing).
      if (partner?.generated) await stores.apiKeyStore.remove(partner.key).catch(() => false)
      return stores.close()
    },
  }
}

/**
 * The example app's type, for `hc<AppType>()` from `hono/client`: every route with its declared
 * responses, and what its middleware answer (`rate_limited` on 429, …) as problem details.
 */
export type AppType = Awaited<ReturnType<typeof createApp>>['api']['app']
