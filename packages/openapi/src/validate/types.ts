/**
 * Type-level side of validation: what `c.req.valid(target)` returns and what `hono/client` sees,
 * read from Standard Schema's `~standard.types` (zod 3.24+, zod 4, valibot, arktype, effect, …),
 * so no schema library's own conditional types are instantiated.
 */

/** `~standard.types` of a schema, when it has one. */
type Types<T> = T extends { readonly '~standard': { readonly types?: infer X } }
  ? NonNullable<X>
  : never

/**
 * The parsed value a schema produces (defaults applied, coercions done); `unknown` for a schema
 * that is not a Standard Schema (raw JSON Schema, `toJSONSchema()`-only objects).
 *
 * @example
 * const Paging = z.object({ page: z.coerce.number().default(1) })
 * type Page = SchemaOutput<typeof Paging> // { page: number }
 */
export type SchemaOutput<T> = [Types<T>] extends [never]
  ? unknown
  : Types<T> extends { readonly output: infer O }
    ? O
    : unknown

/**
 * The value a schema accepts; `unknown` for a schema that is not a Standard Schema.
 *
 * @example
 * const Paging = z.object({ page: z.number().default(1) })
 * type Body = SchemaInput<typeof Paging> // { page?: number | undefined }
 */
export type SchemaInput<T> = [Types<T>] extends [never]
  ? unknown
  : Types<T> extends { readonly input: infer I }
    ? I
    : unknown

/** Hono validation target of each `openapi.request` key. */
interface Targets {
  body: 'json'
  form: 'form'
  query: 'query'
  params: 'param'
  headers: 'header'
}

/** One value a client sends: a string literal the schema accepts stays that literal. */
type Sent<V> = V extends string ? V : string

/**
 * What a client sends for a string-typed part (query, path, headers): strings, keeping the
 * literals the schema accepts (`z.enum(['asc', 'desc'])` stays `'asc' | 'desc'`), and anything
 * else (a number the schema coerces, say) as `string`.
 */
type Strings<T> = {
  [K in keyof T]: NonNullable<T[K]> extends readonly (infer E)[]
    ? Sent<E>[] | Extract<T[K], undefined>
    : Sent<NonNullable<T[K]>> | Extract<T[K], undefined>
}

type InputOf<K, T> = K extends 'body' | 'form' ? SchemaInput<T> : Strings<SchemaInput<T>>

/**
 * The Hono `Input` of a route with `openapi.request` R: `out` types `c.req.valid(target)`, `in`
 * is what `hc<AppType>` asks the caller for.
 *
 * @example
 * type I = RequestInput<{ body: typeof NewPet; query: typeof Paging }>
 * // { in: { json: …; query: … }, out: { json: Pet-input; query: { page: number } } }
 */
export type RequestInput<R> = {
  in: { [K in keyof R as K extends keyof Targets ? Targets[K] : never]: InputOf<K, R[K]> }
  out: { [K in keyof R as K extends keyof Targets ? Targets[K] : never]: SchemaOutput<R[K]> }
}
