const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}
const HTML_SPECIAL = /[&<>"']/g

/** Encodes `&`, `<`, `>`, `"` and `'` as HTML entities. Safe in text and quoted attributes. */
export function escapeHtml(value: string): string {
  // Fast path: most strings contain nothing to encode, so avoid allocating a new one.
  HTML_SPECIAL.lastIndex = 0
  if (!HTML_SPECIAL.test(value)) return value
  HTML_SPECIAL.lastIndex = 0
  return value.replace(HTML_SPECIAL, (ch) => HTML_ESCAPES[ch] as string)
}

/**
 * Serialises a value as JSON that is safe inside an inline `<script>`: `<`, `>`, `&`, U+2028 and
 * U+2029 are written as `\u` escapes, so the data can never close the script element.
 */
export function jsonForScript(value: unknown): string {
  // JSON.stringify returns undefined (not a string) for undefined, functions and symbols.
  return (JSON.stringify(value) ?? 'null')
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}
