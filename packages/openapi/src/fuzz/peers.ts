// The fuzzer's optional peers, loaded on first use: fast-check generates and shrinks, Ajv checks
// response bodies against the document's schemas (ajv-formats, when installed, adds formats).
// Variable specifiers keep bundlers and the packaging scan from treating them as static imports.
import type * as FastCheck from 'fast-check'
import type { OpenAPIDocument } from '../model/document'
import type { OpenAPISchema } from '../schema/types'

/** Checks `value` against `schema` (refs point into the document); an error message or undefined. */
export type SchemaCheck = (schema: OpenAPISchema, value: unknown) => string | undefined

export interface Peers {
  fc: typeof FastCheck
  /** `closed`: object schemas without `additionalProperties` accept no undeclared property. */
  compile: (doc: OpenAPIDocument, closed: boolean) => SchemaCheck
}

/**
 * The schema with `additionalProperties: false` on every object schema that declares properties
 * and says nothing about others (parts of an `allOf` excepted: each would refuse the others').
 */
export function closeObjects(schema: unknown, inAllOf = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => closeObjects(s, inAllOf))
  if (schema === null || typeof schema !== 'object') return schema
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'allOf') out[key] = (value as unknown[]).map((s) => closeObjects(s, true))
    else if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, s]) => [name, closeObjects(s)]),
      )
    } else if (key === 'const' || key === 'enum' || key === 'default' || key === 'examples')
      out[key] = value
    else out[key] = closeObjects(value)
  }
  if (!inAllOf && 'properties' in out && !('additionalProperties' in out)) {
    out.additionalProperties = false
  }
  return out
}

interface AjvLike {
  addSchema(schema: object, key: string): unknown
  compile(schema: object): ((value: unknown) => boolean) & { errors?: unknown[] | null }
  errorsText(errors?: unknown[] | null): string
}
type AjvClass = new (options: Record<string, unknown>) => AjvLike

const missing = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND'
}

async function load(specifier: string, peer: string, why: string): Promise<unknown> {
  try {
    return await import(/* @vite-ignore */ specifier)
  } catch (error) {
    if (!missing(error)) throw error
    throw new Error(
      `@palisade/openapi/fuzz needs the optional peer dependency "${peer}" (${why}): install it with \`npm install --save-dev ${peer}\``,
      { cause: error },
    )
  }
}

/** `module.exports` through either module system's interop, or the ES module's default. */
function defaultOf<T>(mod: unknown): T {
  let value = mod as { default?: unknown }
  for (let i = 0; i < 2 && value && typeof value === 'object' && 'default' in value; i++) {
    value = value.default as { default?: unknown }
  }
  return value as T
}

let peers: Promise<Peers> | undefined

/** Loads fast-check and Ajv (once); throws an `Error` naming the missing package. */
export function loadPeers(): Promise<Peers> {
  peers ??= (async () => {
    const fcName = 'fast-check'
    const ajvName = 'ajv/dist/2020.js'
    const formatsName = 'ajv-formats'
    const fcModule = (await load(fcName, 'fast-check', 'to generate requests')) as typeof FastCheck
    const fc = (
      typeof fcModule.check === 'function' ? fcModule : defaultOf(fcModule)
    ) as typeof FastCheck
    const Ajv = defaultOf<AjvClass>(await load(ajvName, 'ajv', 'to check response bodies'))
    let addFormats: ((ajv: AjvLike) => unknown) | undefined
    try {
      addFormats = defaultOf(await import(/* @vite-ignore */ formatsName))
    } catch {
      addFormats = undefined
    }
    const compile = (doc: OpenAPIDocument, closed: boolean): SchemaCheck => {
      const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: !!addFormats })
      if (addFormats) addFormats(ajv)
      const components = doc.components ?? {}
      ajv.addSchema({ components: closed ? closeObjects(components) : components }, 'doc')
      const cache = new Map<string, ReturnType<AjvLike['compile']>>()
      return (schema, value) => {
        const text = JSON.stringify(closed ? closeObjects(schema) : schema).replaceAll(
          '"#/components/',
          '"doc#/components/',
        )
        let validate = cache.get(text)
        if (!validate) {
          validate = ajv.compile(JSON.parse(text))
          cache.set(text, validate)
        }
        return validate(value) ? undefined : ajv.errorsText(validate.errors)
      }
    }
    return { fc, compile }
  })()
  peers.catch(() => {
    peers = undefined
  })
  return peers
}
