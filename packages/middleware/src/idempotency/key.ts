import { parseItem } from 'structured-headers'

/** The longest `Idempotency-Key` accepted, in characters of the string (Stripe's limit). */
export const MAX_KEY_LENGTH = 255

/**
 * The usual header, a plain sf-string: a double quote, 1 to 255 printable ASCII characters other
 * than `"` and backslash (nothing escaped), a double quote, nothing around. Its key is the text between
 * the quotes, exactly what the Structured Fields parser returns for it (key.test.ts checks that
 * over generated headers), without the parser's work (about half a microsecond a request).
 */
const PLAIN_KEY = /^"[\x20\x21\x23-\x5b\x5d-\x7e]{1,255}"$/

/** What {@link parseIdempotencyKey} found: the key, or why the header is refused. */
export type ParsedKey = { key: string } | { error: string }

/**
 * Parses an `Idempotency-Key` header value: a Structured Fields Item whose bare item is a String
 * (RFC 9651 §3.3.3, draft-ietf-httpapi-idempotency-key-header §2.1), 1 to 255 characters.
 * Parameters are allowed by the grammar and ignored. A repeated header reaches here joined by a
 * comma (Fetch's `Headers`), which is not one Item: refused, as the draft forbids more than one.
 *
 * @example
 * parseIdempotencyKey('"8e03978e-40d5-43e8-bc93-6894a57f9324"') // { key: '8e03978e-…' }
 * parseIdempotencyKey('8e03978e') // { error: … } (a Token or Integer, not a String)
 */
export function parseIdempotencyKey(value: string): ParsedKey {
  return PLAIN_KEY.test(value) ? { key: value.slice(1, -1) } : parseKeyItem(value)
}

/**
 * {@link parseIdempotencyKey} through the Structured Fields parser alone, for any header: escapes,
 * parameters, surrounding spaces, and every refusal.
 */
export function parseKeyItem(value: string): ParsedKey {
  let item: ReturnType<typeof parseItem>
  try {
    item = parseItem(value)
  } catch {
    return {
      error:
        'Idempotency-Key must be one Structured Fields string, in double quotes (e.g. "8e03978e-40d5-43e8-bc93-6894a57f9324")',
    }
  }
  const key = item[0]
  if (typeof key !== 'string') {
    return { error: 'Idempotency-Key must be a Structured Fields string, in double quotes' }
  }
  if (key.length === 0) return { error: 'Idempotency-Key must not be empty' }
  if (key.length > MAX_KEY_LENGTH) {
    return { error: `Idempotency-Key must be at most ${MAX_KEY_LENGTH} characters` }
  }
  return { key }
}
