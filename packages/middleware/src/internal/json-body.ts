import type { Context } from 'hono'
import { mayHaveBody } from './body'

// `application/json`, `application/<anything>+json` (merge-patch, problem, vnd.api…), any params.
const JSON_TYPE = /^application\/(?:[a-z0-9!#$&^_.-]+\+)?json\s*(?:;|$)/i

/** True for a JSON media type: `application/json` or a `+json` suffix type, parameters allowed. */
export function isJsonContentType(header: string | null | undefined): boolean {
  return header ? JSON_TYPE.test(header.trim()) : false
}

/**
 * Reads the request body as text without using it up: the handler can still call `c.req.json()`,
 * `c.req.text()` or read `c.req.raw` afterwards. A body Hono already cached is read from the cache;
 * otherwise a clone of the raw request is read. Returns `null` when the body cannot be read (a
 * stream error, or a body some earlier code consumed without Hono's cache).
 */
export async function readBodyText(c: Context): Promise<string | null> {
  try {
    if (Object.keys(c.req.bodyCache).length > 0) return await c.req.text()
    if (!mayHaveBody(c)) return ''
    const raw = c.req.raw
    if (raw.bodyUsed) return null
    return await raw.clone().text()
  } catch {
    return null
  }
}

/**
 * Parses a urlencoded or multipart body without using it up, like {@link readBodyText}. Returns
 * `null` when the body is missing, already consumed outside Hono's cache, or not a valid form.
 */
export async function readBodyForm(c: Context): Promise<FormData | null> {
  try {
    if (Object.keys(c.req.bodyCache).length > 0) return await c.req.formData()
    if (!mayHaveBody(c)) return null
    const raw = c.req.raw
    if (raw.bodyUsed) return null
    return await raw.clone().formData()
  } catch {
    return null
  }
}
