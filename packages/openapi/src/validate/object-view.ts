// What the schemas that apply to an object value declare about its keys, merged into one view.
import { isRecord } from '../schema/common'
import type { OpenAPISchema } from '../schema/types'
import { admits, unresolvedOf } from './schema-flatten'

/**
 * How a list of schemas that all apply treats the keys of one object value:
 * - `closed`: only `keys` (and names matching `patterns`) are declared;
 * - `open`: any key is allowed (`additionalProperties` absent on a schema that names no
 *   properties, `true`, or a schema), so nothing is removed.
 */
export interface ObjectView {
  open: boolean
  keys: Map<string, OpenAPISchema[]>
  patterns: { re: RegExp; schema: OpenAPISchema }[]
  extra: OpenAPISchema[]
}

/** The view of `schemas` on an object's keys, or undefined when none of them admits an object. */
export function objectView(schemas: OpenAPISchema[]): ObjectView | undefined {
  let relevant = false
  const view: ObjectView = { open: false, keys: new Map(), patterns: [], extra: [] }
  for (const s of schemas) {
    // (A node with an unresolved `$ref` throws before it needs a view.)
    if (unresolvedOf(s) !== undefined || !admits(s, 'object')) continue
    relevant = true
    const props = isRecord(s.properties) ? (s.properties as Record<string, OpenAPISchema>) : {}
    for (const [key, sub] of Object.entries(props)) {
      const list = view.keys.get(key)
      if (list) list.push(sub)
      else view.keys.set(key, [sub])
    }
    const patterns = s.patternProperties
    if (isRecord(patterns)) {
      for (const [source, sub] of Object.entries(patterns)) {
        try {
          view.patterns.push({ re: new RegExp(source, 'u'), schema: sub as OpenAPISchema })
        } catch {
          view.open = true
        }
      }
    }
    const additional = s.additionalProperties
    const declares = isRecord(s.properties) || isRecord(patterns) || additional === false
    if (isRecord(additional)) {
      view.open = true
      view.extra.push(additional as OpenAPISchema)
    } else if (additional === true || !declares) view.open = true
  }
  return relevant ? view : undefined
}
