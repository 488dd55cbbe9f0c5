import type {
  OpenAPIInfo,
  OpenAPISecurityScheme,
  OpenAPIServer,
  OpenAPITag,
} from '../model/document'
import type { OpenAPIOptions, SpecOptions } from '../model/options'
import { assertSecuritySchemes } from '../model/security'
import { isRecord } from '../schema/common'
import type { SchemaConverter } from '../schema/convert'
import type { ValidationErrorHandler } from '../validate/request'
import {
  RESPONSE_VALIDATION_MODES,
  type ResponseValidationErrorHandler,
  type ResponseValidationMode,
} from '../validate/response'
import type { JSONSchemaValidator } from '../validate/validator'
import { SUNSET_MODES, type SunsetMode } from './deprecation'

/** `SpecOptions` checked, with defaults applied: what the document builder reads. */
export interface ResolvedSpecOptions {
  info: OpenAPIInfo
  servers: OpenAPIServer[]
  tags: OpenAPITag[]
  validation: boolean
  jsonSchemaValidator: JSONSchemaValidator | undefined
  converters: Record<string, SchemaConverter>
  securitySchemes?: Record<string, OpenAPISecurityScheme>
  /** The app's error handler (set by `api.onError()`), read for the rejection body it describes. */
  errorHandler?: unknown
  /** Default `'announce'`; `'enforce'` documents (and answers) 410 after a route's sunset. */
  sunsetMode: SunsetMode
}

/** `OpenAPIOptions` checked, with defaults applied. */
export interface ResolvedOptions extends ResolvedSpecOptions {
  specPath: string
  explorerPath: string
  referencePath: string
  onValidationError: ValidationErrorHandler | undefined
  /** Default `'strip'`. */
  responseValidation: ResponseValidationMode
  onResponseValidationError: ResponseValidationErrorHandler | undefined
  /** The clock sunsets are enforced by: milliseconds since the epoch. Default `Date.now`. */
  now: () => number
}

const SPEC_KEYS = [
  'info',
  'servers',
  'tags',
  'validation',
  'jsonSchemaValidator',
  'converters',
  'securitySchemes',
  'sunsetMode',
]
/** New name of each page path option, with the deprecated name it replaces. */
const PAGE_PATHS = [
  { name: 'explorerPath', deprecated: 'docsPath', fallback: '/explorer' },
  { name: 'referencePath', deprecated: 'redocPath', fallback: '/reference' },
] as const
const APP_KEYS = [
  ...SPEC_KEYS,
  'specPath',
  ...PAGE_PATHS.flatMap((p) => [p.name, p.deprecated]),
  'onValidationError',
  'responseValidation',
  'onResponseValidationError',
  'now',
]
const INFO_KEYS = ['title', 'version', 'description', 'termsOfService', 'contact', 'license']

type Fail = (message: string) => never

const failer =
  (label: string): Fail =>
  (message) => {
    throw new TypeError(`${label}: ${message}`)
  }

function nonEmpty(fail: Fail, value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') fail(`${name} must be a non-empty string`)
  return value as string
}

function path(fail: Fail, value: unknown, name: string, fallback: string): string {
  if (value === undefined) return fallback
  const p = nonEmpty(fail, value, name)
  if (!p.startsWith('/') || /[\s?#*:]/.test(p))
    fail(`${name} must be a plain path starting with "/", got "${p}"`)
  return p
}

/** The option rules shared by `openapi()` and `generateSpec`. */
function resolveCommon(
  options: Record<string, unknown>,
  known: string[],
  fail: Fail,
): ResolvedSpecOptions {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) fail(`unknown option "${key}" (known: ${known.join(', ')})`)
  }
  const info = options.info
  if (!isRecord(info)) fail('info must be an object with `title` and `version`')
  const infoObj = info as Record<string, unknown>
  for (const key of Object.keys(infoObj)) {
    if (!INFO_KEYS.includes(key))
      fail(`unknown info field "${key}" (known: ${INFO_KEYS.join(', ')})`)
  }
  nonEmpty(fail, infoObj.title, 'info.title')
  nonEmpty(fail, infoObj.version, 'info.version')
  for (const key of ['description', 'termsOfService'] as const) {
    if (infoObj[key] !== undefined && typeof infoObj[key] !== 'string')
      fail(`info.${key} must be a string`)
  }
  for (const key of ['contact', 'license'] as const) {
    if (infoObj[key] !== undefined && !isRecord(infoObj[key])) fail(`info.${key} must be an object`)
  }
  const servers = options.servers ?? []
  if (!Array.isArray(servers)) fail('servers must be an array of { url, description? }')
  ;(servers as unknown[]).forEach((s, i) => {
    if (!isRecord(s)) fail(`servers[${i}] must be an object with a url`)
    const server = s as Record<string, unknown>
    nonEmpty(fail, server.url, `servers[${i}].url`)
    if (server.description !== undefined && typeof server.description !== 'string') {
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
  ;(tags as unknown[]).forEach((t, i) => {
    if (!isRecord(t)) fail(`tags[${i}] must be an object with a name`)
    const tag = t as Record<string, unknown>
    const name = nonEmpty(fail, tag.name, `tags[${i}].name`)
    if (tag.description !== undefined && typeof tag.description !== 'string')
      fail(`tags[${i}].description must be a string`)
    if (tagNames.has(name)) fail(`tags[${i}]: tag "${name}" is listed twice`)
    tagNames.add(name)
  })
  const converters = options.converters ?? {}
  if (!isRecord(converters) || !Object.values(converters).every((f) => typeof f === 'function'))
    fail('converters must map Standard Schema vendor names to functions')
  const securitySchemes = assertSecuritySchemes(options.securitySchemes)
  const sunsetMode = options.sunsetMode ?? 'announce'
  if (!SUNSET_MODES.includes(sunsetMode as SunsetMode))
    fail(`sunsetMode must be one of ${SUNSET_MODES.join(', ')}`)
  return {
    ...(securitySchemes ? { securitySchemes } : {}),
    ...(options.errorHandler !== undefined ? { errorHandler: options.errorHandler } : {}),
    info: info as unknown as OpenAPIInfo,
    servers: servers as OpenAPIServer[],
    tags: tags as OpenAPITag[],
    validation: (options.validation as boolean | undefined) ?? true,
    jsonSchemaValidator: options.jsonSchemaValidator as JSONSchemaValidator | undefined,
    converters: converters as Record<string, SchemaConverter>,
    sunsetMode: sunsetMode as SunsetMode,
  }
}

/** Validates `generateSpec` options, with messages naming the bad option. */
export function resolveSpecOptions(options: SpecOptions): ResolvedSpecOptions {
  const fail = failer('generateSpec')
  if (!isRecord(options)) fail('options must be an object with at least `info`')
  // An `OpenAPIOptions` object fits too: its endpoint and hook options are not read here.
  return resolveCommon(
    options as unknown as Record<string, unknown>,
    [...APP_KEYS, 'errorHandler'],
    fail,
  )
}

/** Validates `openapi()` options once, with messages naming the bad option. */
export function resolveOptions(options: OpenAPIOptions): ResolvedOptions {
  const fail = failer('openapi')
  if (!isRecord(options)) fail('options must be an object with at least `info`')
  const raw = options as unknown as Record<string, unknown>
  const common = resolveCommon(raw, APP_KEYS, fail)
  // The deprecated name still works; messages name the option as the caller spelled it.
  const [explorer, reference] = PAGE_PATHS.map(({ name, deprecated, fallback }) => {
    if (raw[name] !== undefined && raw[deprecated] !== undefined)
      fail(`${deprecated} is the deprecated name of ${name}; pass only ${name}`)
    const used = raw[deprecated] !== undefined ? deprecated : name
    return { used, path: path(fail, raw[used], used, fallback) }
  }) as [{ used: string; path: string }, { used: string; path: string }]
  const mode = options.responseValidation ?? 'strip'
  if (!RESPONSE_VALIDATION_MODES.includes(mode))
    fail(`responseValidation must be one of ${RESPONSE_VALIDATION_MODES.join(', ')}`)
  if (
    options.onResponseValidationError !== undefined &&
    typeof options.onResponseValidationError !== 'function'
  )
    fail('onResponseValidationError must be a function')
  if (options.now !== undefined && typeof options.now !== 'function')
    fail('now must be a function returning milliseconds since the epoch (like Date.now)')
  const resolved: ResolvedOptions = {
    ...common,
    responseValidation: mode,
    onResponseValidationError: options.onResponseValidationError,
    specPath: path(fail, options.specPath, 'specPath', '/openapi.json'),
    explorerPath: explorer.path,
    referencePath: reference.path,
    onValidationError: options.onValidationError,
    now: options.now ?? Date.now,
  }
  const paths = [resolved.specPath, explorer.path, reference.path]
  if (new Set(paths).size !== paths.length)
    fail(`specPath, ${explorer.used} and ${reference.used} must differ, got ${paths.join(', ')}`)
  return resolved
}
