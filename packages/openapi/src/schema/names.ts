import { isRecord } from './common'

const names = new WeakMap<object, string>()

/**
 * Names a schema, so the document gives it its own `components.schemas` entry and `$ref`s it
 * wherever it appears, nested ones included. Works for every schema kind; it is the way to name a
 * zod 3 schema (zod 4 schemas can also use `.meta({ id })` or `.meta({ title })`). Returns the
 * same schema object, unchanged.
 *
 * @param name - the component name (letters, digits, `.`, `_`, `-`)
 * @param schema - the schema to name
 * @example
 * const Book = component('Book', z3.object({ title: z3.string() }))
 * const BookPage = z3.object({ items: z3.array(Book), next: z3.string().optional() })
 * // components: Book, and BookPage whose items are { $ref: '#/components/schemas/Book' }
 */
export function component<T extends object>(name: string, schema: T): T {
  if (typeof name !== 'string' || !/^[A-Za-z0-9._-]+$/.test(name))
    throw new TypeError(`component: name must match ^[A-Za-z0-9._-]+$, got ${JSON.stringify(name)}`)
  if ((typeof schema !== 'object' && typeof schema !== 'function') || schema === null)
    throw new TypeError('component: schema must be a schema object')
  names.set(schema, name)
  return schema
}

/** The name given with `component()`, or a zod 4 `.meta()` `id` or `title`. */
export function componentName(schema: unknown): string | undefined {
  if ((typeof schema !== 'object' && typeof schema !== 'function') || schema === null)
    return undefined
  const given = names.get(schema)
  if (given !== undefined) return given
  const meta = (schema as { meta?: unknown }).meta
  if (typeof meta !== 'function' || !isRecord((schema as { _zod?: unknown })._zod)) return undefined
  try {
    const m: unknown = (meta as () => unknown).call(schema)
    if (!isRecord(m)) return undefined
    const raw = typeof m.id === 'string' ? m.id : typeof m.title === 'string' ? m.title : undefined
    const clean = raw?.replace(/[^A-Za-z0-9._-]+/g, '')
    return clean || undefined
  } catch {
    return undefined
  }
}
