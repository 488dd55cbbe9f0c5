/**
 * Loads Palisade from SOURCE (packages/<name>/src) through relative file URLs, one middleware
 * folder at a time. The package names would resolve to `dist/`, which needs a build first, and a
 * single barrel import would fail as a whole while one module is broken; per-folder imports let
 * `pnpm bench` measure whatever exists and name what is missing.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { MiddlewareHandler } from 'hono'

// PALISADE_MIDDLEWARE_SRC points the bench at another copy of the sources, to try a fix before
// it lands (e.g. PALISADE_MIDDLEWARE_SRC=/tmp/patched/src/ pnpm bench --only=http).
const MIDDLEWARE_SRC = process.env.PALISADE_MIDDLEWARE_SRC
  ? pathToFileURL(`${process.env.PALISADE_MIDDLEWARE_SRC.replace(/\/$/, '')}/`)
  : new URL('../../packages/middleware/src/', import.meta.url)
const OPENAPI_SRC = new URL('../../packages/openapi/src/', import.meta.url)

/** Why a module could not be loaded, keyed by folder; printed in the summary. */
export const loadProblems = new Map<string, string>()

async function importTs(base: URL, rel: string): Promise<Record<string, unknown> | null> {
  const url = new URL(rel, base)
  if (!existsSync(fileURLToPath(url))) {
    loadProblems.set(rel, 'not written yet')
    return null
  }
  try {
    return (await import(url.href)) as Record<string, unknown>
  } catch (error) {
    loadProblems.set(rel, `failed to import: ${(error as Error).message.split('\n')[0]}`)
    return null
  }
}

// The bench passes literal options and treats stores structurally, so loose types suffice here.
// biome-ignore lint/suspicious/noExplicitAny: options differ per factory
type Loose = any
export type Factory = (options?: Loose) => MiddlewareHandler
type Ctor = new (...args: Loose[]) => Loose

/** Every factory the middleware package exports, by name; absent ones are `undefined`. */
export interface Palisade {
  cors?: Factory
  securityHeaders?: Factory
  rateLimit?: Factory
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
  sessions?: Factory
  MemoryRateLimitStore?: Ctor
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

const FOLDERS = [
  'cors',
  'security-headers',
  'rate-limit',
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
  'sessions',
]

let cached: Palisade | undefined

export async function loadPalisade(): Promise<Palisade> {
  if (cached) return cached
  const out: Record<string, unknown> = {}
  for (const folder of FOLDERS) {
    const mod = await importTs(MIDDLEWARE_SRC, `${folder}/index.ts`)
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
  return ((await importTs(OPENAPI_SRC, 'index.ts')) ?? {}) as OpenAPIModule
}

/**
 * The exact text the cookie signer MACs for a value (purpose label, context, value), so the HMAC
 * floor verifies what the middleware verifies; identity when the sources predate purposes.
 */
export async function loadSigningInput(): Promise<(purpose: 'sessions', value: string) => string> {
  const mod = await importTs(MIDDLEWARE_SRC, 'internal/cookie-signing.ts')
  const fn = mod?.signingInput as ((p: string, c: string, v: string) => string) | undefined
  return fn ? (purpose, value) => fn(purpose, '', value) : (_purpose, value) => value
}

/** Source files of internals the bench reuses to build fixtures (signed cookies). */
export async function loadCookieSigner(): Promise<
  | ((
      secrets: readonly string[],
      purpose: 'sessions' | 'csrf',
    ) => {
      sign(v: string): Promise<string>
    })
  | null
> {
  const mod = await importTs(MIDDLEWARE_SRC, 'internal/cookie-signing.ts')
  return (mod?.createCookieSigner as never) ?? null
}
