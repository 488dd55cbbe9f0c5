import { assertSecuritySchemes } from '../spec/security'
import type { OpenAPIInfo, OpenAPISecurityScheme, OpenAPIServer } from '../spec/types'
import type { OpenAPIOptions } from './types'

/** `OpenAPIOptions` with defaults applied. */
export interface ResolvedOptions {
  info: OpenAPIInfo
  servers: OpenAPIServer[]
  specPath: string
  docsPath: string
  redocPath: string
  securitySchemes?: Record<string, OpenAPISecurityScheme>
  /** Set by `api.onError()`; read for the rejection body it describes. */
  errorHandler?: unknown
}

const KNOWN = ['info', 'servers', 'specPath', 'docsPath', 'redocPath', 'securitySchemes']
const INFO_KEYS = ['title', 'version', 'description', 'termsOfService', 'contact', 'license']

const fail = (message: string): never => {
  throw new TypeError(`openapi: ${message}`)
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

function nonEmpty(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') fail(`${name} must be a non-empty string`)
  return value as string
}

function path(value: unknown, name: string, fallback: string): string {
  if (value === undefined) return fallback
  const p = nonEmpty(value, name)
  if (!p.startsWith('/') || /[\s?#*:]/.test(p))
    fail(`${name} must be a plain path starting with "/", got "${p}"`)
  return p
}

/** Validates `openapi()` options once, with messages naming the bad option. */
export function resolveOptions(options: OpenAPIOptions): ResolvedOptions {
  if (!isObject(options)) fail('options must be an object with at least `info`')
  for (const key of Object.keys(options)) {
    if (!KNOWN.includes(key)) fail(`unknown option "${key}" (known: ${KNOWN.join(', ')})`)
  }
  const info = options.info
  if (!isObject(info)) fail('info must be an object with `title` and `version`')
  for (const key of Object.keys(info)) {
    if (!INFO_KEYS.includes(key))
      fail(`unknown info field "${key}" (known: ${INFO_KEYS.join(', ')})`)
  }
  nonEmpty(info.title, 'info.title')
  nonEmpty(info.version, 'info.version')
  for (const key of ['description', 'termsOfService'] as const) {
    if (info[key] !== undefined && typeof info[key] !== 'string')
      fail(`info.${key} must be a string`)
  }
  const servers = options.servers ?? []
  if (!Array.isArray(servers)) fail('servers must be an array of { url, description? }')
  servers.forEach((s, i) => {
    if (!isObject(s)) fail(`servers[${i}] must be an object with a url`)
    nonEmpty(s.url, `servers[${i}].url`)
    if (s.description !== undefined && typeof s.description !== 'string') {
      fail(`servers[${i}].description must be a string`)
    }
  })
  const resolved: ResolvedOptions = {
    info,
    servers,
    specPath: path(options.specPath, 'specPath', '/openapi.json'),
    docsPath: path(options.docsPath, 'docsPath', '/explorer'),
    redocPath: path(options.redocPath, 'redocPath', '/reference'),
  }
  const securitySchemes = assertSecuritySchemes(options.securitySchemes)
  if (securitySchemes) resolved.securitySchemes = securitySchemes
  const paths = [resolved.specPath, resolved.docsPath, resolved.redocPath]
  if (new Set(paths).size !== paths.length)
    fail(`specPath, docsPath and redocPath must differ, got ${paths.join(', ')}`)
  return resolved
}
