/**
 * Loads Palisade through its package names, one subpath at a time (`@palisade/middleware/cors`,
 * …, `@palisade/openapi`), as an app imports them. The bench's tsconfig maps those names to the
 * built packages (`dist/`), which is what an app runs (README.md, "Imports"). A subpath that
 * fails to load is named in the report instead of failing the whole run.
 */
import type { MiddlewareHandler } from 'hono'

/** Why a module could not be loaded, keyed by package name; printed in the summary. */
export const loadProblems = new Map<string, string>()

export async function importPackage(name: string): Promise<Record<string, unknown> | null> {
  try {
    return (await import(name)) as Record<string, unknown>
  } catch (error) {
    loadProblems.set(name, `failed to import: ${(error as Error).message.split('\n')[0]}`)
    return null
  }
}

// The bench passes literal options and treats stores structurally, so loose types suffice here.
// biome-ignore lint/suspicious/noExplicitAny: options differ per factory
export type Loose = any
export type Factory = (options?: Loose) => MiddlewareHandler
export type Ctor = new (...args: Loose[]) => Loose

/** Every factory the middleware package exports, by name; absent ones are `undefined`. */
export interface Palisade {
  cors?: Factory
  securityHeaders?: Factory
  rateLimit?: Factory
  concurrencyLimit?: Factory
  idempotency?: Factory
  loadShed?: Factory
  quota?: Factory
  jwtAuth?: Factory
  signJwt?: (payload: Loose, secret: Uint8Array, options?: Loose) => Promise<string>
  logger?: Factory
  bodyLimit?: Factory
  csrf?: Factory
  requestId?: Factory
  apiKey?: Factory
  ipGuard?: Factory
  contentTypeGuard?: Factory
  requestTimeout?: Factory
  xssSanitize?: Factory
  sanitizedBody?: (c: Loose) => unknown
  ssrfGuard?: Factory
  botGuard?: Factory
  sessions?: Factory
  webhook?: Factory
  signWebhook?: (
    payload: unknown,
    options: Loose,
  ) => Promise<{ headers: Record<string, string>; body: string | Uint8Array }>
  httpSignature?: Factory
  signRequest?: (request: Request, options: Loose) => Promise<Request>
  createDpopProof?: (method: string, url: string, options: Loose) => Promise<string>
  MemoryNonceStore?: Ctor
  MemoryRateLimitStore?: Ctor
  MemoryConcurrencyStore?: Ctor
  MemorySessionStore?: Ctor
  MemoryApiKeyStore?: Ctor
}

/** The fifteen factories in the order the full stack applies them. */
export const FIFTEEN = [
  'requestId',
  'logger',
  'securityHeaders',
  'cors',
  'ipGuard',
  'rateLimit',
  'requestTimeout',
  'bodyLimit',
  'contentTypeGuard',
  'sessions',
  'csrf',
  'jwtAuth',
  'apiKey',
  'xssSanitize',
  'ssrfGuard',
] as const

/** The middleware subpaths, one per factory (the stores come with their middleware). */
const SUBPATHS = [
  'cors',
  'security-headers',
  'rate-limit',
  'concurrency-limit',
  'idempotency',
  'load-shed',
  'quota',
  'jwt-auth',
  'logger',
  'body-limit',
  'csrf',
  'request-id',
  'api-key',
  'ip-guard',
  'content-type-guard',
  'request-timeout',
  'xss-sanitize',
  'ssrf-guard',
  'bot-guard',
  'sessions',
  'webhook',
  'http-signature',
]

let cached: Palisade | undefined

export async function loadPalisade(): Promise<Palisade> {
  if (cached) return cached
  const out: Record<string, unknown> = {}
  for (const subpath of SUBPATHS) {
    const mod = await importPackage(`@palisade/middleware/${subpath}`)
    if (mod) Object.assign(out, mod)
  }
  cached = out as Palisade
  return cached
}

export interface OpenAPIModule {
  openapi?: (app: Loose, options: Loose) => Loose
  generateSpec?: (routes: Loose, options: Loose) => unknown
}

export async function loadOpenAPI(): Promise<OpenAPIModule> {
  return ((await importPackage('@palisade/openapi')) ?? {}) as OpenAPIModule
}
