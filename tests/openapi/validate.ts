import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { expect } from 'vitest'
import type { OpenAPIDocument, OpenAPISchema } from '../../packages/openapi/src'

/** Ajv for JSON Schema 2020-12 (the OpenAPI 3.1 dialect), formats on, strict about keywords. */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, strictTuples: false })
  addFormats.default(ajv)
  // OpenAPI's own format names; JSON Schema validators treat unknown formats as annotations.
  for (const f of ['int32', 'int64', 'float', 'double', 'binary']) ajv.addFormat(f, true)
  return ajv
}

// One instance: it compiles the OpenAPI meta-schemas once and is reusable across documents.
const validator = new Validator()

/** Every `$ref` in `value`. */
function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refs(v, out)
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v)
      else refs(v, out)
    }
  }
  return out
}

/**
 * Asserts that `doc` is a valid OpenAPI 3.1 document: the external validator accepts it, every
 * `$ref` resolves, and every schema is valid JSON Schema 2020-12 under a strict Ajv.
 */
export async function expectValidOpenAPI(doc: OpenAPIDocument): Promise<void> {
  const result = await validator.validate(JSON.parse(JSON.stringify(doc)))
  expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined()
  expect(result.valid).toBe(true)
  expect(validator.version).toBe('3.1')
  for (const ref of refs(doc)) {
    // A component, or a place inside one (`…/Tree/$defs/Node`, from a schema's own `$defs`).
    expect(ref).toMatch(/^#\/components\/schemas\/[A-Za-z0-9._-]+(\/.+)?$/)
    const name = ref.split('/')[3] as string
    expect(Object.hasOwn(doc.components.schemas, name), `${ref} resolves`).toBe(true)
    const target = ref
      .slice(2)
      .split('/')
      .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>(
        (node, key) =>
          node && typeof node === 'object' && Object.hasOwn(node, key)
            ? (node as Record<string, unknown>)[key]
            : undefined,
        doc,
      )
    expect(target !== null && typeof target === 'object', `${ref} resolves to a schema`).toBe(true)
  }
  const ajv = createAjv()
  const schemas: OpenAPISchema[] = [...Object.values(doc.components.schemas)]
  for (const item of [...Object.values(doc.paths), ...Object.values(doc.webhooks ?? {})]) {
    for (const op of Object.values(item))
      for (const p of op.parameters ?? []) schemas.push(p.schema)
  }
  for (const schema of schemas) {
    // compile() in strict mode also rejects unknown keywords, which validateSchema() lets through.
    expect(() => ajv.compile(stripRefs(schema) as object)).not.toThrow()
  }
}

/** `$ref`s point into the document; for a schema-only check they become `{}`. */
function stripRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripRefs)
  if (value && typeof value === 'object') {
    if ('$ref' in value) return {}
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stripRefs(v)]))
  }
  return value
}
