// A value as `JSON.stringify` would send it: `toJSON()` applied, the own enumerable properties of
// any object read (class instances, documents with getters, Dates). What the stripper and
// `'report'` work on, so what is checked is what gets serialised, never the object the handler
// built.

/** Whether `v` is read as it is (a plain object), rather than copied into one. */
export const isPlainObject = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v)
  return proto === Object.prototype || proto === null
}

/** Sets an own property, `__proto__` included (an assignment would set the prototype). */
export const setOwn = (o: Record<string, unknown>, key: string, value: unknown) => {
  if (key === '__proto__')
    Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true })
  else o[key] = value
}

/** The result of `v.toJSON(key)` when `v` has one (as `JSON.stringify` calls it), else `v`. */
export function applyToJSON(v: object | bigint, key: string | number): unknown {
  const toJSON = (v as { toJSON?: unknown }).toJSON
  return typeof toJSON === 'function' ? toJSON.call(v, String(key)) : v
}

/** The primitive inside a `Number`/`String`/`Boolean` object (sent as that primitive), or `v`. */
export const unboxed = (v: object): unknown =>
  v instanceof Number || v instanceof String || v instanceof Boolean ? v.valueOf() : v

/** The elements of an array as a fresh plain array (holes become `undefined`, sent as null). */
export const copyArray = (a: readonly unknown[]) => {
  const out: unknown[] = new Array(a.length)
  for (let i = 0; i < a.length; i++) out[i] = a[i]
  return out
}

/**
 * `value` as `JSON.stringify` would see it, with nothing removed: the same value when it is
 * plain objects, arrays and primitives all the way down; otherwise a copy in which every
 * `toJSON()` is applied and every other object (class instances, Dates, Maps…) is a plain object
 * of its own enumerable properties. What `'report'` validates, and what the open parts of a
 * schema (`{}`, records) hold once stripped.
 *
 * @example
 * jsonValue({ at: new Date(0) }) // { at: '1970-01-01T00:00:00.000Z' }
 */
export function jsonValue(value: unknown, key: string | number = ''): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'bigint')) return value
  const v = applyToJSON(value, key)
  if (v === null || typeof v !== 'object') return v
  return jsonObject(v)
}

/** An object or array `toJSON` has already been applied to, as `JSON.stringify` would see it. */
export function jsonObject(v: object): unknown {
  if (Array.isArray(v)) {
    let out: unknown[] | undefined
    for (let i = 0; i < v.length; i++) {
      const before = v[i]
      if (before === null || (typeof before !== 'object' && typeof before !== 'bigint')) continue
      const after = jsonValue(before, i)
      if (after !== before) {
        out ??= copyArray(v)
        out[i] = after
      }
    }
    return out ?? v
  }
  const record = v as Record<string, unknown>
  const copy = !isPlainObject(v)
  if (copy) {
    const primitive = unboxed(v)
    if (primitive !== v) return primitive
  }
  let out: Record<string, unknown> | undefined = copy ? {} : undefined
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue
    const before = record[key]
    const after =
      before === null || (typeof before !== 'object' && typeof before !== 'bigint')
        ? before
        : jsonValue(before, key)
    if (copy) setOwn(out as Record<string, unknown>, key, after)
    else if (after !== before) {
      out ??= { ...record }
      setOwn(out, key, after)
    }
  }
  return out ?? v
}
