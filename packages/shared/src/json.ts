// The one JSON body reader of both packages (request validation in openapi, xssSanitize and
// ssrfGuard in middleware): the same depth limit and the same answer to the same fault.

/**
 * Deepest nesting of arrays and objects a JSON body may have. Nothing legitimate needs more, and
 * recursive validators (`z.json()`, recursive schemas) and the handler's own `JSON.stringify`
 * overflow the stack a few thousand levels down.
 */
export const MAX_JSON_DEPTH = 1000

/** The outcome of {@link readJsonText}: the value, or why there is none. */
export type JsonText =
  | { ok: true; value: unknown }
  | { ok: false; reason: 'malformed' | 'too_deep'; message: string }

/**
 * Parses `text` as JSON after checking, in one linear scan without recursion, that it nests no
 * deeper than `maxDepth`; a deeper body is refused before anything parses or walks it.
 *
 * @param maxDepth - default {@link MAX_JSON_DEPTH}
 * @example
 * readJsonText('{"a":[1]}') // { ok: true, value: { a: [1] } }
 * readJsonText('['.repeat(5000) + ']'.repeat(5000)).ok // false: too_deep
 */
export function readJsonText(text: string, maxDepth = MAX_JSON_DEPTH): JsonText {
  if (!fewerOpeners(text, maxDepth)) {
    const deep = tooDeep(text, maxDepth)
    if (deep !== undefined) return deep
  }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false, reason: 'malformed', message: 'The request body is not valid JSON' }
  }
}

/**
 * Whether `text` holds at most `maxDepth` of `[` and `{` in all, inside strings or not: then it
 * cannot nest deeper (each level opens with one), and the scan below is not needed. indexOf jumps
 * from one to the next, far faster than reading each character; it stops past `maxDepth`.
 */
function fewerOpeners(text: string, maxDepth: number): boolean {
  let count = 0
  for (let at = text.indexOf('['); at !== -1; at = text.indexOf('[', at + 1)) {
    if (++count > maxDepth) return false
  }
  for (let at = text.indexOf('{'); at !== -1; at = text.indexOf('{', at + 1)) {
    if (++count > maxDepth) return false
  }
  return true
}

/** The refusal of `text` when it nests deeper than `maxDepth` (strings read as strings), or undefined. */
function tooDeep(text: string, maxDepth: number): JsonText | undefined {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 34 /* " */) {
      // A string's characters cannot nest: jump to its closing quote.
      i = closingQuote(text, i)
      if (i === -1) break
    } else if (code === 91 /* [ */ || code === 123 /* { */) {
      if (++depth > maxDepth) {
        return {
          ok: false,
          reason: 'too_deep',
          message: `The JSON body nests deeper than ${maxDepth} levels`,
        }
      }
    } else if (code === 93 /* ] */ || code === 125 /* } */) depth--
  }
  return undefined
}

/**
 * The index of the quote that closes the string opened at `open`, or -1: the next quote not
 * escaped (after an even run of backslashes). indexOf skips the string's text far faster than a
 * loop over its characters; each backslash run is counted once, so the scan stays linear.
 */
function closingQuote(text: string, open: number): number {
  for (let at = text.indexOf('"', open + 1); at !== -1; at = text.indexOf('"', at + 1)) {
    let backslashes = 0
    while (text.charCodeAt(at - 1 - backslashes) === 92 /* \ */) backslashes++
    if (backslashes % 2 === 0) return at
  }
  return -1
}
