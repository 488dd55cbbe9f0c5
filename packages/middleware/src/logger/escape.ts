// What a text log line must not carry raw: C0 controls (CR and LF forge a new line, ESC starts a
// terminal escape sequence), DEL, C1 controls (0x9B is a one-byte CSI in some terminals), the
// Unicode line and paragraph separators (line breaks to many viewers) and the bidi overrides
// and isolates (they reorder what a reader sees).
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/
const CONTROLS = new RegExp(CONTROL.source, 'g')
const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/**
 * `text` with every control character written as an escape: `\n`, `\r`, `\t`, or `\u` and four
 * hex digits (as JSON writes them), so one log call is one line, shown as it was written. A
 * backslash stays a backslash: the line stays readable, and a literal `\n` in a message cannot
 * start a line either.
 */
export function escapeControl(text: string): string {
  return CONTROL.test(text) ? text.replace(CONTROLS, escapeOne) : text
}

function escapeOne(ch: string): string {
  return SHORT[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`
}
