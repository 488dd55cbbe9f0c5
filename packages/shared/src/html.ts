/**
 * Encodes `&`, `<`, `>`, `"` and `'` as HTML entities. Safe in text and quoted attributes.
 * One pass over char codes: no regex, and no new string when nothing needs encoding (the common
 * case), so sanitizing a large body stays linear and cheap.
 */
export function escapeHtml(value: string): string {
  let out = ''
  let last = 0
  for (let i = 0; i < value.length; i++) {
    let entity: string
    switch (value.charCodeAt(i)) {
      case 38: // &
        entity = '&amp;'
        break
      case 60: // <
        entity = '&lt;'
        break
      case 62: // >
        entity = '&gt;'
        break
      case 34: // "
        entity = '&quot;'
        break
      case 39: // '
        entity = '&#39;'
        break
      default:
        continue
    }
    out += value.slice(last, i) + entity
    last = i + 1
  }
  return last === 0 ? value : out + value.slice(last)
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
