/**
 * The Palisade stacks the bench measures: `equivalent` holds the six middleware the Express and
 * Fastify apps also run (security headers, cors, rate limit, sessions, csrf, jwt); `full` holds
 * all fifteen. Both serve GET /api/me and POST /api/items, like the Express and Fastify apps.
 */
import { type Context, Hono, type MiddlewareHandler } from 'hono'
import { API_KEY, ipList, JWT_SECRET, ORIGIN, SESSION_ID, SESSION_SECRET } from './fixtures'
import { FIFTEEN, type Palisade } from './palisade'

/** Options the logger gets in the bench: a sink that drops lines, so I/O is not measured. */
export function quietLoggerOptions(): Record<string, unknown> {
  return { sink: () => {} }
}

export interface StackParts {
  middleware: Array<[name: string, handler: MiddlewareHandler]>
  missing: string[]
}

/** Builds each middleware of the stack with bench options; missing factories are listed. */
export async function stackParts(p: Palisade, which: 'equivalent' | 'full'): Promise<StackParts> {
  const names: readonly string[] =
    which === 'full'
      ? FIFTEEN
      : ['securityHeaders', 'cors', 'rateLimit', 'sessions', 'csrf', 'jwtAuth']
  const middleware: StackParts['middleware'] = []
  const missing: string[] = []
  for (const name of names) {
    const handler = await build(p, name)
    if (handler) middleware.push([name, handler])
    else missing.push(name)
  }
  return { middleware, missing }
}

async function build(p: Palisade, name: string): Promise<MiddlewareHandler | null> {
  switch (name) {
    case 'requestId':
      return p.requestId?.() ?? null
    case 'logger':
      return p.logger?.(quietLoggerOptions()) ?? null
    case 'securityHeaders':
      return p.securityHeaders?.() ?? null
    case 'cors':
      return p.cors?.({ origin: ORIGIN, credentials: true }) ?? null
    case 'ipGuard':
      return p.ipGuard?.({ mode: 'deny', list: ipList(1000) }) ?? null
    case 'rateLimit':
      return p.rateLimit?.({ max: 1_000_000_000, windowMs: 60_000 }) ?? null
    case 'requestTimeout':
      return p.requestTimeout?.({ ms: 5_000 }) ?? null
    case 'bodyLimit':
      return p.bodyLimit?.({ max: 1_000_000 }) ?? null
    case 'contentTypeGuard':
      return p.contentTypeGuard?.({ required: ['application/json'] }) ?? null
    case 'sessions': {
      if (!p.sessions || !p.MemorySessionStore) return null
      const store = new p.MemorySessionStore()
      await store.set(SESSION_ID, { user: 'user-1', visits: 1 }, 86_400)
      return p.sessions({ secret: SESSION_SECRET, store })
    }
    case 'csrf':
      return p.csrf?.() ?? null
    case 'jwtAuth':
      return p.jwtAuth?.({ secret: JWT_SECRET }) ?? null
    case 'apiKey': {
      if (!p.apiKey || !p.MemoryApiKeyStore) return null
      const store = new p.MemoryApiKeyStore()
      await store.add(API_KEY, { owner: 'bench' })
      return p.apiKey({ store })
    }
    case 'xssSanitize':
      return p.xssSanitize?.() ?? null
    case 'ssrfGuard':
      return p.ssrfGuard?.() ?? null
    default:
      return null
  }
}

/** Adds the two routes every stack serves. */
export function addRoutes(app: Hono, p?: Palisade): Hono {
  const sanitizedBody = (p as { sanitizedBody?: (c: unknown) => unknown } | undefined)
    ?.sanitizedBody
  app.get('/api/me', (c) => {
    const payload = (c.get as (k: string) => unknown)('jwtPayload') as { sub?: string } | undefined
    return c.json({ sub: payload?.sub ?? 'anonymous', ok: true })
  })
  app.post('/api/items', async (c) => {
    const hasSanitized = sanitizedBody && (c.get as (k: string) => unknown)('sanitizedBody')
    const body = hasSanitized ? sanitizedBody(c) : await c.req.json()
    return c.json({ received: body }, 201)
  })
  return app
}

export async function palisadeApp(
  p: Palisade,
  which: 'equivalent' | 'full',
): Promise<{ app: Hono; missing: string[] }> {
  const { middleware, missing } = await stackParts(p, which)
  const app = new Hono()
  for (const [, handler] of middleware) app.use('*', handler)
  addRoutes(app, p)
  return { app, missing }
}

/**
 * The same middleware and GET /api/me route as `addRoutes`, registered through the
 * `@palisade/openapi` wrapper (documented, validation on): what the wrapper adds per request.
 */
export function wrappedApp(
  // biome-ignore lint/suspicious/noExplicitAny: the wrapper is loaded by name (lib/palisade.ts)
  openapi: (app: Hono, options: any) => any,
  app: Hono,
  middleware: StackParts['middleware'],
): { fetch: (request: Request) => Response | Promise<Response> } {
  const api = openapi(app, { info: { title: 'bench', version: '1.0.0' } })
  for (const [, handler] of middleware) api.use('*', handler)
  api.get(
    '/api/me',
    (c: Context) => {
      const payload = (c.get as (k: string) => unknown)('jwtPayload') as
        | { sub?: string }
        | undefined
      return c.json({ sub: payload?.sub ?? 'anonymous', ok: true })
    },
    { openapi: { operationId: 'me', responses: { 200: { description: 'The caller' } } } },
  )
  return api
}
