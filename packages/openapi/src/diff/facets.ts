// What a schema says, read once for comparison: its types, nullability, format, enum, pattern,
// bounds, properties (with their pointers) and items, with `$ref`s followed and `allOf` parts
// merged (the first part that sets a keyword wins; properties and `required` are unions).
import { BOUNDS } from './rules'
import { child, deref, isObject, keys, type Node, own } from './walk'

export interface Facets {
  ptr: string
  /** The schema is in the document (not an absent `schema` read as "anything"). */
  exists: boolean
  /** Where its (first) `properties` object is, when it has one. */
  propsPtr?: string
  /** Declared types without "null"; empty: any type. */
  types: string[]
  nullable: boolean
  format?: string
  enum?: unknown[]
  pattern?: string
  bounds: Map<string, number>
  props: Map<string, Node>
  required: Set<string>
  items?: Node
  readOnly: boolean
  writeOnly: boolean
}

const MAX_PARTS = 64

interface Acc {
  facets: Facets
  typeSet: boolean
  seen: Set<string>
}

function typesOf(value: unknown): { types: string[]; withNull: boolean } | undefined {
  const type = own(value, 'type')
  const list = typeof type === 'string' ? [type] : Array.isArray(type) ? type : undefined
  if (list === undefined) return undefined
  const types = list.filter((t): t is string => typeof t === 'string' && t !== 'null')
  return { types: [...new Set(types)], withNull: list.includes('null') }
}

function first<T>(
  current: T | undefined,
  value: unknown,
  ok: (v: unknown) => v is T,
): T | undefined {
  return current === undefined && ok(value) ? value : current
}

const isString = (v: unknown): v is string => typeof v === 'string'
const isArray = (v: unknown): v is unknown[] => Array.isArray(v)
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

function read(acc: Acc, doc: unknown, node: Node, depth: number): void {
  const resolved = deref(doc, node)
  const value = resolved.value
  if (!isObject(value) || acc.seen.has(resolved.ptr) || acc.seen.size >= MAX_PARTS) return
  acc.seen.add(resolved.ptr)
  const f = acc.facets
  const declared = typesOf(value)
  if (declared !== undefined && !acc.typeSet) {
    acc.typeSet = true
    f.types = declared.types
  }
  if (declared?.withNull || own(value, 'nullable') === true) f.nullable = true
  f.format = first(f.format, own(value, 'format'), isString)
  f.enum = first(f.enum, own(value, 'enum'), isArray)
  f.pattern = first(f.pattern, own(value, 'pattern'), isString)
  for (const [keyword] of BOUNDS) {
    const bound = own(value, keyword)
    if (!f.bounds.has(keyword) && isNumber(bound)) f.bounds.set(keyword, bound)
  }
  f.exists = true
  const properties = child(resolved, 'properties')
  if (f.propsPtr === undefined && isObject(properties.value)) f.propsPtr = properties.ptr
  for (const name of keys(properties.value)) {
    if (!f.props.has(name)) f.props.set(name, child(properties, name))
  }
  const required = own(value, 'required')
  if (Array.isArray(required)) for (const name of required) if (isString(name)) f.required.add(name)
  if (f.items === undefined && isObject(own(value, 'items'))) f.items = child(resolved, 'items')
  if (own(value, 'readOnly') === true) f.readOnly = true
  if (own(value, 'writeOnly') === true) f.writeOnly = true
  const allOf = child(resolved, 'allOf')
  if (Array.isArray(allOf.value) && depth < 8) {
    for (let i = 0; i < allOf.value.length; i++) read(acc, doc, child(allOf, i), depth + 1)
  }
}

/** The facets of the schema at `node` in `doc`. */
export function facetsOf(doc: unknown, node: Node): Facets {
  const facets: Facets = {
    ptr: deref(doc, node).ptr,
    exists: false,
    types: [],
    nullable: false,
    bounds: new Map(),
    props: new Map(),
    required: new Set(),
    readOnly: false,
    writeOnly: false,
  }
  read({ facets, typeSet: false, seen: new Set() }, doc, node, 0)
  return facets
}

/** Whether a value of JSON type `type` is accepted by the type list `types` (empty: any). */
export function accepts(types: string[], type: string): boolean {
  return (
    types.length === 0 || types.includes(type) || (type === 'integer' && types.includes('number'))
  )
}

/** Every type `from` accepts is accepted by `to`. */
export function covers(to: string[], from: string[]): boolean {
  if (to.length === 0) return true
  if (from.length === 0) return false
  return from.every((t) => accepts(to, t))
}
