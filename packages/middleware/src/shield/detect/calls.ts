// Function calls in a value: a word followed by optional whitespace and `(`. PHP and SQL look the
// word up in a set of names; one alternation of every name was a pattern recheck's automaton could
// not decide, this one it proves linear.

/**
 * Every `name(` and `name (` in `text`, in order: `match[1]` is the name (a whole run of `\w`),
 * `match.index` where it starts, `match[0]` the name, the whitespace and the parenthesis.
 */
export const wordCalls = (text: string) => text.matchAll(/\b(\w+)\s*\(/g)
