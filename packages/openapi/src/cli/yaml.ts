// A YAML emitter for JSON-compatible data (what an OpenAPI document is), so `palisade export`
// writes openapi.yaml without a dependency. Block style throughout; a string that could read as
// anything but itself (a number, a boolean, null, an indicator, a key-value pair) is written as a
// JSON string, which YAML reads as the same double-quoted string.

const PLAIN = /^[A-Za-z_/][A-Za-z0-9_ ./{}()-]*$/
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n|~)$/i

function scalar(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null'
  if (typeof value === 'boolean') return String(value)
  const text = String(value)
  if (PLAIN.test(text) && !RESERVED.test(text) && !text.endsWith(' ') && !text.includes(' #'))
    return text
  return JSON.stringify(text)
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function emit(value: unknown, indent: string, lines: string[], prefix: string): void {
  if (Array.isArray(value)) {
    if (value.length === 0) {
      lines.push(`${prefix}[]`)
      return
    }
    if (prefix !== '') lines.push(prefix.trimEnd())
    for (const item of value) {
      if (
        (isPlainObject(item) && Object.keys(item).length > 0) ||
        (Array.isArray(item) && item.length > 0)
      ) {
        const nested: string[] = []
        emit(item, `${indent}  `, nested, '')
        const first = nested[0] ?? ''
        lines.push(`${indent}- ${first.slice(indent.length + 2)}`, ...nested.slice(1))
      } else emit(item, `${indent}  `, lines, `${indent}- `)
    }
    return
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value)
    if (entries.length === 0) {
      lines.push(`${prefix}{}`)
      return
    }
    if (prefix !== '') lines.push(prefix.trimEnd())
    for (const [key, item] of entries) {
      const head = `${indent}${scalar(key)}:`
      const composite =
        (isPlainObject(item) && Object.keys(item).length > 0) ||
        (Array.isArray(item) && item.length > 0)
      if (composite) {
        lines.push(head)
        emit(item, `${indent}  `, lines, '')
      } else emit(item, indent, lines, `${head} `)
    }
    return
  }
  lines.push(`${prefix}${scalar(value)}`)
}

/** `value` (JSON-compatible) as a YAML 1.2 document. */
export function toYAML(value: unknown): string {
  const lines: string[] = []
  emit(value, '', lines, '')
  return `${lines.join('\n')}\n`
}
