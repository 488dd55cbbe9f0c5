// Function calls in a value: a word followed by optional whitespace and `(`. PHP and SQL look the
// word up in a set of names; one alternation of every name was a pattern recheck's automaton could
// not decide, this one it proves linear.

/** One `name(` or `name (`: the name (a whole run of `\w`), where it starts, the call's text up to `(`. */
export interface WordCall {
  name: string
  index: number
  text: string
}

/** Every call in `text`, in order. */
export function* wordCalls(text: string): Generator<WordCall> {
  for (const match of text.matchAll(/\b(\w+)\s*\(/g)) {
    yield { name: match[1] as string, index: match.index as number, text: match[0] }
  }
}
