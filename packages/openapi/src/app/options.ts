import type { SchemaConverter } from '../schema/convert'
import { assertSecuritySchemes } from '../spec/security'
import type { OpenAPIInfo, OpenAPISecurityScheme, OpenAPIServer, OpenAPITag } from '../spec/types'
import type { JSONSchemaValidator, ValidationErrorHandler } from '../validate/request'
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
  validation: boolean
  onValidationError: ValidationErrorHandler | undefined
  jsonSchemaValidator: JSONSchemaValidator | undefined
  tags: OpenAPITag[]
  converters: Record<string, SchemaConverter>
}

const KNOWN = [
  'info',
  'servers',
  'specPath',
  'docsPath',
  'redocPath',
  'validation',
  'onValidationError',
  'jsonSchemaValidator',
  'tags',
  'converters',
  'securitySchemes',
]
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
  if (options.validation !== undefined && typeof options.validation !== 'boolean')
    fail('validation must be a boolean')
  for (const key of ['onValidationError', 'jsonSchemaValidator'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'function')
      fail(`${key} must be a function`)
  }
  const tags = options.tags ?? []
  if (!Array.isArray(tags)) fail('tags must be an array of { name, description? }')
  const tagNames = new Set<string>()
  tags.forEach((t, i) => {
    if (!isObject(t)) fail(`tags[${i}] must be an object with a name`)
    nonEmpty(t.name, `tags[${i}].name`)
    if (t.description !== undefined && typeof t.description !== 'string')
      fail(`tags[${i}].description must be a string`)
    if (tagNames.has(t.name)) fail(`tags[${i}]: tag "${t.name}" is listed twice`)
    tagNames.add(t.name)
  })
  const converters = options.converters ?? {}
  if (!isObject(converters) || !Object.values(converters).every((f) => typeof f === 'function'))
    fail('converters must map Standard Schema vendor names to functions')
  const resolved: ResolvedOptions = {
    info,
    servers,
    validation: options.validation ?? true,
    onValidationError: options.onValidationError,
    jsonSchemaValidator: options.jsonSchemaValidator,
    tags,
    converters,
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
