/**
 * A copy of a value about to be logged, with the values of secret-bearing header names replaced
 * by `[redacted]` wherever they sit, and with nothing in it that can make a log sink throw or
 * hang.
 *
 * Why structural: handlers log what they have at hand, and secrets hide in many shapes. A
 * `Headers` object, `[...headers]` (name/value pairs), Node's flat `rawHeaders` list, a `Map`, an
 * HTTP client's error (`err.config.headers.Authorization`, as axios attaches it) or its `cause`,
 * a HAR-style `{ name, value }` entry. Header names are compared case-insensitively, as HTTP does.
 *
 * Why bounded: a logged value may be hostile or just huge (a cycle, a getter or a Proxy that
 * throws, a million-element array, a 10 MB buffer). The copy never throws, stops at
 * {@link MAX_DEPTH} levels, keeps at most {@link MAX_ENTRIES} entries of any one object or array
 * and visits at most {@link MAX_NODES} objects in all; what it leaves out is marked, never kept.
 *
 * What comes out is what `JSON.stringify` can always write: plain (null-prototype) objects,
 * arrays, strings, numbers, booleans, `null` and `undefined`. `toJSON()` is applied, as
 * `JSON.stringify` would, and its result is scrubbed too. Errors become `{ type, message, stack }`
 * plus their own enumerable properties, `cause` and `errors` (pino's `err` shape).
 */

/** Always redacted, besides the names a logger is given. Lower case. */
export const SECRET_HEADERS: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-xsrf-token',
  'x-csrf-token',
]

export const REDACTED = '[redacted]'
/** Nesting kept; a deeper object is written as `[…]`. */
export const MAX_DEPTH = 8
/** Entries kept of one object, array, Map, Set or Headers; the rest is counted, not written. */
export const MAX_ENTRIES = 100
/** Objects visited in one copy, so a wide and deep value (or a DAG) stays cheap. */
export const MAX_NODES = 1000

const CUT = '[…]'
const CIRCULAR = '[circular]'
const UNREADABLE = '[unreadable]'
/** Key of the marker saying how many entries of an object were left out. */
const MORE = '…'

/** The set of lower-case secret names: the built-in ones and `extra`. */
export function secretNames(extra: readonly string[] = []): ReadonlySet<string> {
  return new Set([...SECRET_HEADERS, ...extra].map((name) => name.toLowerCase()))
}

/** True when `name` is a string naming a secret header, in any case. */
export function isSecretName(name: unknown, secrets: ReadonlySet<string>): boolean {
  return typeof name === 'string' && secrets.has(name.toLowerCase())
}

type Out = Record<string, unknown>

interface Walk {
  readonly secrets: ReadonlySet<string>
  /** The objects on the path from the root: seeing one again is a cycle. */
  readonly ancestors: Set<object>
  nodes: number
}

/**
 * The scrubbed copy of `value`; see the module comment. Never throws: what cannot be read is
 * written as `[unreadable]`.
 */
export function redactValue(value: unknown, secrets: ReadonlySet<string>): unknown {
  return copy(value, { secrets, ancestors: new Set(), nodes: 0 }, 0)
}

/**
 * The fields of a log call as one scrubbed object: an `Error` given in their place goes under
 * `err` (as pino does), anything else that is not an object under `value`.
 */
export function redactFields(fields: unknown, secrets: ReadonlySet<string>): Out {
  let error = false
  try {
    error = isError(fields)
  } catch {
    // A Proxy whose prototype trap throws: copied (as unreadable) below.
  }
  const clean = redactValue(fields, secrets)
  if (error) return entry('err', clean)
  if (clean !== null && typeof clean === 'object' && !Array.isArray(clean)) return clean as Out
  return clean === undefined ? blank() : entry('value', clean)
}

function copy(value: unknown, w: Walk, depth: number): unknown {
  if (typeof value === 'bigint') return value.toString()
  // A function is not data; JSON would drop it, or call a `toJSON` hung on it.
  if (typeof value === 'function') return undefined
  if (value === null || typeof value !== 'object') return value
  if (depth >= MAX_DEPTH || w.nodes >= MAX_NODES) return CUT
  if (w.ancestors.has(value)) return CIRCULAR
  w.nodes++
  w.ancestors.add(value)
  try {
    return copyObject(value, w, depth)
  } catch {
    // A revoked Proxy, a trap or an iterator that throws.
    return UNREADABLE
  } finally {
    w.ancestors.delete(value)
  }
}

function copyObject(value: object, w: Walk, depth: number): unknown {
  if ((typeof Headers !== 'undefined' && value instanceof Headers) || value instanceof Map) {
    const entries = bounded((value as Map<unknown, unknown>).entries())
    // Keys that are not all strings cannot be object keys: then the [key, value] pairs.
    return entries.every(([key]) => typeof key === 'string')
      ? copyEntries(entries as Array<[string, unknown]>, w, depth)
      : copyArray(entries, w, depth)
  }
  if (value instanceof Set) return copyArray(bounded(value.values()), w, depth)
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
    // Bytes may be a token, and a big buffer would flood the line: only the type and size.
    return `[${value.constructor?.name ?? 'ArrayBuffer'}(${value.byteLength})]`
  }
  if (Array.isArray(value)) return copyArray(value, w, depth)
  if (isError(value)) return copyError(value as Error, w, depth)
  const toJSON = read(value, 'toJSON')
  if (typeof toJSON === 'function') {
    let json: unknown
    try {
      json = toJSON.call(value, '')
    } catch {
      return UNREADABLE
    }
    // One level deeper, so a toJSON that keeps answering a fresh object cannot recurse forever.
    if (json !== value) return copy(json, w, depth + 1)
  }
  return copyProperties(value, Object.keys(value), w, depth, blank())
}

/**
 * An array, element by element. An element right after a secret name is redacted, whatever it
 * is: that covers `[name, value]` pairs and flat `[name, value, name, value]` lists.
 */
function copyArray(value: ArrayLike<unknown>, w: Walk, depth: number): unknown[] {
  const length = value.length
  const kept = Math.min(length, MAX_ENTRIES)
  const out: unknown[] = []
  let afterSecret = false
  for (let i = 0; i < kept; i++) {
    const item = readIndex(value, i)
    out.push(afterSecret ? REDACTED : copy(item, w, depth + 1))
    afterSecret = isSecretName(item, w.secrets)
  }
  if (length > kept) out.push(`${CUT}[+${length - kept}]`)
  return out
}

/** Entries of a `Headers` or a string-keyed `Map` as an object, secret names' values redacted. */
function copyEntries(entries: Array<[string, unknown]>, w: Walk, depth: number): Out {
  const out = blank()
  const kept = Math.min(entries.length, MAX_ENTRIES)
  for (let i = 0; i < kept; i++) {
    const [name, item] = entries[i] as [string, unknown]
    out[name] = isSecretName(name, w.secrets) ? REDACTED : copy(item, w, depth + 1)
  }
  if (entries.length > kept) out[MORE] = 'more entries left out'
  return out
}

/** An error as pino writes one: `type`, `message`, `stack`, its own properties, its causes. */
function copyError(value: Error, w: Walk, depth: number): Out {
  const out = blank()
  out.type = copy(read(value, 'name'), w, depth + 1)
  out.message = copy(read(value, 'message'), w, depth + 1)
  out.stack = copy(read(value, 'stack'), w, depth + 1)
  // `cause` and AggregateError's `errors` are own but not enumerable: JSON would drop them.
  const keys = Object.keys(value)
  for (const extra of ['cause', 'errors']) {
    if (!keys.includes(extra) && Object.hasOwn(value, extra)) keys.push(extra)
  }
  return copyProperties(value, keys, w, depth, out)
}

/** Own enumerable properties, secret names' values redacted without reading them. */
function copyProperties(value: object, keys: string[], w: Walk, depth: number, out: Out): Out {
  // A HAR-style `{ name: 'Authorization', value: '…' }` (or `key:`) entry: its value is the secret.
  const named =
    isSecretName(read(value, 'name'), w.secrets) || isSecretName(read(value, 'key'), w.secrets)
  const kept = Math.min(keys.length, MAX_ENTRIES)
  for (let i = 0; i < kept; i++) {
    const key = keys[i] as string
    if (Object.hasOwn(out, key)) continue
    const secret = isSecretName(key, w.secrets) || (named && key === 'value')
    out[key] = secret ? REDACTED : copy(read(value, key), w, depth + 1)
  }
  if (keys.length > kept) out[MORE] = `${keys.length - kept} more keys left out`
  return out
}

/** Up to MAX_ENTRIES + 1 items of an iterator, so copyArray can say that more were left out. */
function bounded<T>(items: Iterator<T>): T[] {
  const out: T[] = []
  for (let step = items.next(); !step.done; step = items.next()) {
    out.push(step.value)
    if (out.length > MAX_ENTRIES) break
  }
  return out
}

/** A property read that a throwing getter or Proxy trap cannot escape. */
function read(value: object, key: string): unknown {
  try {
    return (value as Out)[key]
  } catch {
    return UNREADABLE
  }
}

function readIndex(value: ArrayLike<unknown>, i: number): unknown {
  try {
    return value[i]
  } catch {
    return UNREADABLE
  }
}

/** An Error of this realm or another (`null` reads as `[object Null]`, so needs no test). */
function isError(value: unknown): boolean {
  return (
    value instanceof Error ||
    (typeof value === 'object' && Object.prototype.toString.call(value) === '[object Error]')
  )
}

/**
 * A null-prototype object: an own `__proto__` key stays data (it never sets a prototype), and
 * pino's err serializer, finding no constructor, keeps the `type` written here.
 */
function blank(): Out {
  return Object.create(null) as Out
}

function entry(key: string, value: unknown): Out {
  const out = blank()
  out[key] = value
  return out
}
