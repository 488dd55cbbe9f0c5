// One pass over a value for the pre-filter (prefilter.ts): which punctuation characters, digits,
// breaks and non-ASCII characters it holds, and which of the pre-filter's keyword groups occur in
// it. Before this, each group was a regular expression scanning the value on its own (about 17
// scans over a value with punctuation); here one Aho–Corasick automaton over every group's words,
// compiled once into typed arrays, reads each character once whatever the number of words.
//
// The automaton reads the value through a character-class table: each character a keyword uses
// has its own class, every other character one class, and every white-space character (exactly
// what `\s` matches) the class written ` ` in a keyword. A run of white space is read as one such
// character, so the keyword `union select` occurs where the value matches `union\s+select`, and
// `t :` where it matches `t\s+:`. The value is read as if a white-space character preceded it:
// a keyword ` 1` also occurs at the very start (`^\s*1`). Nothing else is read into the words:
// a keyword occurs in that reading wherever it occurs in the value itself.

/** The punctuation characters of `Shape.punct`, one bit each in this order. */
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'
const PUNCT_BIT = new Int32Array(128)
for (let i = 0; i < PUNCTUATION.length; i++) PUNCT_BIT[PUNCTUATION.charCodeAt(i)] = 2 ** i

/** The mask of `Shape.punct` holding each of `chars` (punctuation only). */
export function punctuation(chars: string): number {
  let mask = 0
  for (let i = 0; i < chars.length; i++) mask |= PUNCT_BIT[chars.charCodeAt(i)] as number
  return mask
}

/** Bits of `Shape.other`. */
export const DIGIT = 1
export const NEWLINE = 2
export const CONTROL = 4
export const NON_ASCII = 8
const OTHER_BIT = new Int32Array(128)
for (let code = 0; code < 32; code++) OTHER_BIT[code] = CONTROL
OTHER_BIT[10] = NEWLINE
OTHER_BIT[13] = NEWLINE
for (let code = 48; code <= 57; code++) OTHER_BIT[code] = DIGIT

/** What a value holds: one bit per punctuation character, the other characters, the keyword groups. */
export interface Shape {
  /** One bit per character of PUNCTUATION present. */
  punct: number
  /** DIGIT, NEWLINE, CONTROL, NON_ASCII. */
  other: number
  /** The bits of the keyword groups one of whose words occurs. */
  words: number
}

/** A keyword group: its bit (one of 1 << 0 … 1 << 30), and its words (lower case ASCII; ` ` is any run of white space). */
export type KeywordGroup = readonly [bit: number, words: readonly string[]]

/**
 * Every character `\s` matches (ECMAScript WhiteSpace and LineTerminator). Printable ASCII and
 * the C1 controls (`!` to U+009F) hold none and are most of what is asked: answered first.
 */
export function isWhiteSpace(code: number): boolean {
  if (code > 32 && code < 0xa0) return false
  return (
    (code >= 9 && code <= 13) ||
    code === 32 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  )
}

/** The low bits of an entry of `KeywordAutomaton.classes`: the class; `Shape.other`'s bits are above. */
const CLASS_BITS = 8
const CLASS_MASK = (1 << CLASS_BITS) - 1
const OTHER_CLASS = 0
const SPACE_CLASS = 1

/**
 * The compiled automaton: a full transition table (no failure links left to follow at run time).
 * A state is the offset of its row in `table`: `table[state]` holds its number (its groups are
 * `found[number]`), `table[state + 1 + class]` the state after a character of that class. The
 * states where words end come last, from offset `ends` on, so one comparison says whether a
 * character ended words. One array read and no multiplication per character (and two reads more
 * where words end).
 *
 * The table is 16-bit (the pre-filter's groups cut their words to fit it, prefilter.ts): under
 * a fourth of the bytes of the 32-bit table the whole words made. The states are numbered
 * breadth first, those where words end after the others.
 */
export interface KeywordAutomaton {
  /** Character class of each ASCII code (the low {@link CLASS_BITS}), its `Shape.other` bits above. */
  readonly classes: Int32Array
  readonly table: Uint16Array
  /** `table` from its second entry: `next[state + class]` is `table[state + 1 + class]`, one add fewer a character. */
  readonly next: Uint16Array
  /** The groups with a word ending in each state, by the state's number (`table[state]`). */
  readonly found: Int32Array
  /** The first offset of a state where words end. */
  readonly ends: number
  /** The state after the white space read before the value. */
  readonly start: number
}

/** The character classes of the groups' words: one per distinct character, ` ` the white-space class. */
function classTable(groups: readonly KeywordGroup[]): { classes: Uint8Array; width: number } {
  const classes = new Uint8Array(128)
  for (let code = 0; code < 128; code++) if (isWhiteSpace(code)) classes[code] = SPACE_CLASS
  let width = 2
  for (const [, words] of groups) {
    for (const word of words) {
      if (word === '' || word !== word.toLowerCase() || word.includes('  '))
        throw new Error(`keyword ${JSON.stringify(word)}: lower case, not empty, one space at most`)
      for (let i = 0; i < word.length; i++) {
        const code = word.charCodeAt(i)
        if (code >= 128) throw new Error(`keyword ${JSON.stringify(word)}: ASCII only`)
        if (classes[code] === OTHER_CLASS) classes[code] = width++
      }
    }
  }
  return { classes, width }
}

/** Compiles the groups into one automaton (Aho–Corasick, its failure links folded into `next`). */
export function compileKeywords(groups: readonly KeywordGroup[]): KeywordAutomaton {
  const { classes, width } = classTable(groups)
  // The trie: `child[state * width + class]`, 0 for none (the root is never a child).
  const child: number[] = new Array(width).fill(0)
  const ends: number[] = [0]
  for (const [bit, words] of groups) {
    for (const word of words) {
      let state = 0
      for (let i = 0; i < word.length; i++) {
        const at = state * width + (classes[word.charCodeAt(i)] as number)
        if (child[at] === 0) {
          child[at] = ends.length
          ends.push(0)
          for (let c = 0; c < width; c++) child.push(0)
        }
        state = child[at] as number
      }
      ends[state] = (ends[state] as number) | bit
    }
  }
  // Breadth first: a state's failure is the longest proper suffix of its word that is a trie
  // state; its missing transitions are its failure's, and it reports its failure's groups too.
  const next = new Int32Array(child)
  const found = new Int32Array(ends)
  const failure = new Int32Array(ends.length)
  const queue: number[] = []
  for (let c = 0; c < width; c++) if ((next[c] as number) !== 0) queue.push(next[c] as number)
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head] as number
    found[state] = (found[state] as number) | (found[failure[state] as number] as number)
    for (let c = 0; c < width; c++) {
      const at = state * width + c
      const fallback = next[(failure[state] as number) * width + c] as number
      if ((child[at] as number) !== 0) {
        failure[child[at] as number] = fallback
        queue.push(child[at] as number)
      } else next[at] = fallback
    }
  }
  // A run of white space is one character: a state entered on white space stays there on more
  // (its words were read on entering it), so the loop needs no test for a run.
  for (let state = 0; state < ends.length; state++) {
    const after = child[state * width + SPACE_CLASS] as number
    if (after !== 0) next[after * width + SPACE_CLASS] = after
  }
  // Rows in breadth-first order (the root first), the states where words end after the others
  // (each part breadth first too): a character that ends words is one whose next state is at or
  // past `ends`, and the scan reads that state's groups only then.
  const order = [0, ...queue]
  const numbered = [
    ...order.filter((state) => (found[state] as number) === 0),
    ...order.filter((state) => (found[state] as number) !== 0),
  ]
  const row = width + 1
  if (numbered.length * row > 0x10000)
    throw new Error(`${numbered.length} states of ${row} entries: more than a 16-bit table holds`)
  const offset = new Int32Array(numbered.length)
  numbered.forEach((state, at) => {
    offset[state] = at * row
  })
  const table = new Uint16Array(numbered.length * row)
  for (const state of numbered) {
    table[offset[state] as number] = state
    for (let c = 0; c < width; c++)
      table[(offset[state] as number) + 1 + c] = offset[next[state * width + c] as number] as number
  }
  const firstEnd = numbered.findIndex((state) => (found[state] as number) !== 0)
  // Each ASCII code's class, with its `Shape.other` bits above CLASS_BITS: one table read a character.
  const entries = new Int32Array(128)
  for (let code = 0; code < 128; code++)
    entries[code] = (classes[code] as number) | ((OTHER_BIT[code] as number) << CLASS_BITS)
  return {
    classes: entries,
    table,
    next: table.subarray(1),
    found,
    ends: firstEnd === -1 ? table.length : firstEnd * row,
    start: offset[next[SPACE_CLASS] as number] as number,
  }
}

/**
 * Reads `lower` once: its characters' shape and the keyword groups occurring in it, written into
 * `into` (by default a new Shape) and returned. detect() passes one Shape it reuses for every value:
 * a value's shape is read only while that value is checked, and no object is made per value.
 */
export function scanValue(
  automaton: KeywordAutomaton,
  lower: string,
  into: Shape = { punct: 0, other: 0, words: 0 },
): Shape {
  const { classes, table, next, found, ends } = automaton
  let punct = 0
  let other = 0
  let state = automaton.start
  let words = found[table[state] as number] as number
  for (let i = 0; i < lower.length; i++) {
    const code = lower.charCodeAt(i)
    let kind: number
    if (code < 128) {
      punct |= PUNCT_BIT[code] as number
      const entry = classes[code] as number
      other |= entry
      kind = entry & CLASS_MASK
    } else {
      other |= NON_ASCII << CLASS_BITS
      kind = isWhiteSpace(code) ? SPACE_CLASS : OTHER_CLASS
    }
    state = next[state + kind] as number
    if (state >= ends) words |= found[table[state] as number] as number
  }
  into.punct = punct
  into.other = other >>> CLASS_BITS
  into.words = words
  return into
}
