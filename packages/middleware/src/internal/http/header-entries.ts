import type { Context } from 'hono'
import { TOKEN } from './header-syntax'
import { unbuiltHeaderList } from './node-server-headers'

// The request's headers as iterating `c.req.raw.headers` gives them, without making
// @hono/node-server build an undici `Headers` (and validate each pair again) for a reader that
// only walks them: shield, on a route that may never read a header itself.

/**
 * The request's header pairs, exactly those iterating `c.req.raw.headers` gives, in the same
 * order: on @hono/node-server, while its request has not built its `Headers` yet, from the
 * message's raw header list (node-server-headers.ts `unbuiltHeaderList`); anywhere else, and
 * whenever that list holds what `Headers` would refuse, `c.req.raw.headers` itself.
 *
 * @example
 * ```ts
 * for (const [name, value] of requestHeaderEntries(c)) if (name === 'content-type') type = value
 * ```
 */
export function requestHeaderEntries(c: Context): Iterable<[string, string]> {
  const list = unbuiltHeaderList(c)
  const entries = list !== undefined && headersAgree() ? headerListEntries(list) : undefined
  return entries ?? c.req.raw.headers
}

/** HTTP whitespace, what `Headers` trims off each value: tab, LF, CR, space. */
function isHttpWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d
}

/** A value `Headers` refuses (after trimming): NUL, CR or LF, or a character past U+00FF. */
const BAD_VALUE = /[\0\n\r\u0100-\uffff]/

/**
 * What iterating a `Headers` gives after `append(name, value)` of each pair of a raw header list
 * (`[name, value, name, value…]`), names starting with `:` (HTTP/2's pseudo-headers) left out,
 * as node-server builds them: names lower-cased and sorted (by UTF-16 code unit); each value
 * trimmed of HTTP whitespace; the values of a repeated name joined in order, by `; ` for
 * `cookie` and `, ` for any other, but for `set-cookie`, whose copies come one by one.
 * `undefined` where building the `Headers` would throw (a name that is not a token, a value with
 * NUL, CR, LF or a character past U+00FF, an odd count, anything not a string): the caller then
 * takes the standard path, which throws as before.
 *
 * @example
 * ```ts
 * headerListEntries(['Host', 'a', 'X-B', ' 1 ', 'x-b', '2']) // [['host', 'a'], ['x-b', '1, 2']]
 * ```
 */
export function headerListEntries(list: readonly unknown[]): [string, string][] | undefined {
  const count = list.length
  if (count % 2 !== 0) return undefined
  const entries: [string, string][] = []
  for (let i = 0; i < count; i += 2) {
    const name = list[i]
    const raw = list[i + 1]
    if (typeof name !== 'string' || typeof raw !== 'string') return undefined
    if (name.charCodeAt(0) === 0x3a) continue
    if (!TOKEN.test(name)) return undefined
    // Most values have no white space at either end: no new string for them.
    const value =
      isHttpWhitespace(raw.charCodeAt(0)) || isHttpWhitespace(raw.charCodeAt(raw.length - 1))
        ? trimHttpWhitespace(raw)
        : raw
    if (BAD_VALUE.test(value)) return undefined
    entries.push([name.toLowerCase(), value])
  }
  sortByName(entries)
  return combined(entries)
}

/** `value` without HTTP whitespace at either end (a loop: a regular expression anchored at the
 * end backtracks over every run of white space inside a value). */
function trimHttpWhitespace(value: string): string {
  let start = 0
  let end = value.length
  while (start < end && isHttpWhitespace(value.charCodeAt(start))) start++
  while (end > start && isHttpWhitespace(value.charCodeAt(end - 1))) end--
  return value.slice(start, end)
}

/**
 * Sorts by name, keeping the order of equal names (their values are joined in that order, and
 * `set-cookie` copies come in it): an insertion sort for the few headers of most requests, where
 * `Array.prototype.sort` (stable too) costs a call per comparison.
 */
function sortByName(entries: [string, string][]): void {
  if (entries.length > 32) {
    entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    return
  }
  for (let i = 1; i < entries.length; i++) {
    const entry = entries[i] as [string, string]
    const name = entry[0]
    let j = i - 1
    while (j >= 0 && (entries[j] as [string, string])[0] > name) {
      entries[j + 1] = entries[j] as [string, string]
      j--
    }
    entries[j + 1] = entry
  }
}

/** Sorted entries with the copies of each name but `set-cookie` joined, in place. */
function combined(entries: [string, string][]): [string, string][] {
  let kept = 0
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as [string, string]
    const last = kept > 0 ? (entries[kept - 1] as [string, string]) : undefined
    if (last !== undefined && last[0] === entry[0] && entry[0] !== 'set-cookie') {
      last[1] += (entry[0] === 'cookie' ? '; ' : ', ') + entry[1]
    } else {
      entries[kept++] = entry
    }
  }
  entries.length = kept
  return entries
}

/**
 * Whether the `Headers` class node-server builds from (the global one, when it builds) iterates
 * as {@link headerListEntries} says, on a sample with each rule in it: checked once per class, so
 * a polyfill that iterates otherwise (unsorted, say) keeps the standard path.
 */
function headersAgree(): boolean {
  const Current = globalThis.Headers
  if (Current !== checkedClass) {
    checkedClass = Current
    checkedAgrees = sampleAgrees(Current)
  }
  return checkedAgrees
}

let checkedClass: unknown
let checkedAgrees = false

/** One list with each rule in it: case, white space, `cookie`, `set-cookie`, order. */
const SAMPLE =
  /* @__PURE__ */ 'b| 2\t|A|1|cookie|x|Set-Cookie|s|Cookie|y|set-cookie|t|B|3|a_|4|a-|5'.split('|')

function sampleAgrees(Class: typeof Headers): boolean {
  try {
    const headers = new Class()
    for (let i = 0; i < SAMPLE.length; i += 2) headers.append(SAMPLE[i] ?? '', SAMPLE[i + 1] ?? '')
    const want = headerListEntries(SAMPLE) ?? []
    const got = [...headers]
    return (
      got.length === want.length &&
      got.every(([name, value], i) => name === want[i]?.[0] && value === want[i]?.[1])
    )
  } catch {
    return false
  }
}
