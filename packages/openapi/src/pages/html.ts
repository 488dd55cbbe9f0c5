// The openapi package cannot import @palisade/middleware's internals (it does not depend on that
// package), so the docs pages carry the same two helpers with the same semantics.

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Encodes `&`, `<`, `>`, `"` and `'` as HTML entities. Safe in text and quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] as string)
}

/**
 * Serialises a value as JSON that is safe inside a `<script>` element: `<`, `>`, `&`, U+2028 and
 * U+2029 become `\u` escapes, so no string in the data can close the element or open a comment.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}
