// A small SQL tokenizer, after libinjection's idea: an injection is recognised by the shape of the
// token stream it makes when placed inside a query (as a bare value, or after the quote the
// application opened), not by a pile of patterns over the text.

export type SqlTokenType =
  | 'string'
  | 'number'
  | 'word'
  | 'variable'
  | 'operator'
  | 'open'
  | 'close'
  | 'comma'
  | 'semicolon'
  | 'comment'
  | 'dot'
  | 'other'

export interface SqlToken {
  type: SqlTokenType
  /** Lower-case text; for a string, its content without the quotes. */
  value: string
  /** A string the input ended inside of (the application's own quote would close it). */
  open?: boolean
}

export const MAX_TOKENS = 2048

// Character classes by code, looked up in a table: the tokenizer reads every character once.
const DIGIT = 1
const WORD = 2
const SPACE = 4
const CLASS = new Uint8Array(128)
for (let c = 48; c <= 57; c++) CLASS[c] = DIGIT | WORD
for (let c = 65; c <= 90; c++) CLASS[c] = WORD
for (let c = 97; c <= 122; c++) CLASS[c] = WORD
CLASS[95] = WORD // _
CLASS[36] = WORD // $
for (const c of [9, 10, 11, 12, 13, 32]) CLASS[c] = SPACE
const classOf = (code: number) =>
  code < 128 ? (CLASS[code] as number) : code === 0xa0 ? SPACE : WORD
const isDigit = (c: string) => c.length > 0 && (classOf(c.charCodeAt(0)) & DIGIT) !== 0
const isWordChar = (c: string) => c.length > 0 && (classOf(c.charCodeAt(0)) & WORD) !== 0
const isSpace = (c: string) => c.length > 0 && (classOf(c.charCodeAt(0)) & SPACE) !== 0
const wordAt = (text: string, i: number) =>
  i < text.length && (classOf(text.charCodeAt(i)) & WORD) !== 0
/** Whether `text[i]` is a character the tokenizer reads into a word, a number or a variable. */
export const sqlWordAt = (text: string, i: number) => i >= 0 && wordAt(text, i)
/** Whether `text[i]` is white space to the tokenizer (what separates tokens). */
export const sqlSpaceAt = (text: string, i: number) =>
  i >= 0 && i < text.length && (classOf(text.charCodeAt(i)) & SPACE) !== 0

/**
 * Where the word the tokenizer reads first from `text[i]` on ends, `i` being no white space (see
 * sqlSkipSpace), or `i` itself where its first token there is no word (a string, a number, an
 * operator…) or the text ends: the word `sqlTokens(text, i, 1)[0]` holds is `text[i, end)`, read
 * in place and without reading anything after it (an open string after a `;` reads to the end of
 * the text). sqli.ts's gate asks it of the word after a trigger, which in prose settles most of
 * them; a slice and a set's hash cost more there than the rest of the reading (wordsIn()).
 */
export function sqlWordEnd(text: string, i: number): number {
  // A word starts at a word character that is no digit (a digit starts a number); `#`, `-`, `/`
  // (comments), quotes, `.` and `@` are no word characters.
  const length = text.length
  if (i >= length) return i
  if ((classOf(text.charCodeAt(i)) & (WORD | DIGIT)) !== WORD) return i
  let end = i + 1
  while (end < length && (classOf(text.charCodeAt(end)) & WORD) !== 0) end++
  return end
}
/** The first index from `i` on that is no white space to the tokenizer. */
export function sqlSkipSpace(text: string, i: number): number {
  const length = text.length
  while (i < length && (classOf(text.charCodeAt(i)) & SPACE) !== 0) i++
  return i
}

/** Whether `text[start, end)` is one of a table's words, compared in place. */
export type WordsIn = (text: string, start: number, end: number) => boolean
/**
 * `words` as a table asked in place: what `words.has(text.slice(start, end))` answers, without
 * the slice and its hash. The words are kept by length and first character, and a word of the
 * bucket is compared character by character.
 */
export function wordsIn(words: Iterable<string>): WordsIn {
  const buckets = new Map<number, string[]>()
  let longest = 0
  for (const word of words) {
    if (word.length === 0) continue
    const key = word.length * 128 + (word.charCodeAt(0) & 127)
    const bucket = buckets.get(key)
    if (bucket === undefined) buckets.set(key, [word])
    else if (!bucket.includes(word)) bucket.push(word)
    longest = Math.max(longest, word.length)
  }
  // An array indexed by the key: a lookup is a load, not a hash.
  const table: (readonly string[] | null)[] = new Array((longest + 1) * 128).fill(null)
  for (const [key, bucket] of buckets) table[key] = bucket
  return (text, start, end) => {
    const length = end - start
    if (length <= 0 || length > longest) return false
    const bucket = table[length * 128 + (text.charCodeAt(start) & 127)]
    if (bucket === null || bucket === undefined) return false
    for (let b = 0; b < bucket.length; b++) {
      const word = bucket[b] as string
      let k = 0
      while (k < length && text.charCodeAt(start + k) === word.charCodeAt(k)) k++
      if (k === length) return true
    }
    return false
  }
}

const TWO_CHAR_OPERATORS = new Set(['<=', '>=', '<>', '!=', '||', '&&', '<<', '>>', ':=', '=='])
const OPERATOR_CHARS = '=<>!|&+-*/%^~'

/** Reads a quoted string starting at `start` (the quote); a doubled quote is an escaped one. */
function readString(text: string, start: number): [SqlToken, number] {
  const quote = text[start] as string
  let i = start + 1
  let value = ''
  let from = i
  while (i < text.length) {
    const c = text[i] as string
    if (c === '\\' && quote !== '`' && i + 1 < text.length) {
      value += text.slice(from, i) + text[i + 1]
      i += 2
      from = i
      continue
    }
    if (c === quote) {
      if (text[i + 1] === quote) {
        value += text.slice(from, i) + quote
        i += 2
        from = i
        continue
      }
      return [{ type: 'string', value: value + text.slice(from, i) }, i + 1]
    }
    i++
  }
  return [{ type: 'string', value: value + text.slice(from, i), open: true }, i]
}

function readComment(text: string, i: number): number | undefined {
  const c = text[i]
  if (c === '#' || (c === '-' && text[i + 1] === '-')) {
    const end = text.indexOf('\n', i)
    return end === -1 ? text.length : end
  }
  if (c === '/' && text[i + 1] === '*') {
    const end = text.indexOf('*/', i + 2)
    return end === -1 ? text.length : end + 2
  }
  return undefined
}

/**
 * Tokenizes lower-cased text; stops after MAX_TOKENS tokens (enough to see any injection's shape).
 * `from` and `limit` read the first `limit` tokens from `text[from]` on: what a whole stream holds
 * after a token starting there, as the tokenizer keeps no state but its position (sqli.ts's gate).
 */
export function sqlTokens(text: string, from = 0, limit = MAX_TOKENS): SqlToken[] {
  const tokens: SqlToken[] = []
  let i = from
  while (i < text.length && tokens.length < limit) {
    const c = text[i] as string
    if (isSpace(c)) {
      i++
      continue
    }
    const commentEnd = readComment(text, i)
    if (commentEnd !== undefined) {
      tokens.push({ type: 'comment', value: text.slice(i, Math.min(commentEnd, i + 3)) })
      i = commentEnd
      continue
    }
    if (c === "'" || c === '"' || c === '`') {
      const [token, next] = readString(text, i)
      tokens.push(token)
      i = next
      continue
    }
    if (isDigit(c) || (c === '.' && isDigit(text[i + 1] ?? ''))) {
      let j = i + 1
      while (wordAt(text, j) || text.charCodeAt(j) === 46) j++
      tokens.push({ type: 'number', value: text.slice(i, j) })
      i = j
      continue
    }
    if (c === '@') {
      let j = i + 1
      while (wordAt(text, j) || text.charCodeAt(j) === 64) j++
      tokens.push({ type: 'variable', value: text.slice(i, j) })
      i = j
      continue
    }
    if (isWordChar(c)) {
      let j = i + 1
      while (wordAt(text, j)) j++
      tokens.push({ type: 'word', value: text.slice(i, j) })
      i = j
      continue
    }
    const two = text.slice(i, i + 2)
    if (TWO_CHAR_OPERATORS.has(two)) {
      tokens.push({ type: 'operator', value: two })
      i += 2
      continue
    }
    const single: SqlTokenType =
      c === '('
        ? 'open'
        : c === ')'
          ? 'close'
          : c === ','
            ? 'comma'
            : c === ';'
              ? 'semicolon'
              : c === '.'
                ? 'dot'
                : OPERATOR_CHARS.includes(c)
                  ? 'operator'
                  : 'other'
    tokens.push({ type: single, value: c })
    i++
  }
  return tokens
}
