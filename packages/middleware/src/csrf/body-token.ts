import type { Context } from 'hono'
import { isJsonContentType, readBodyForm, readBodyText } from '../internal/http/json-body'

/**
 * The token from the body field, for JSON, urlencoded and multipart bodies; else undefined.
 * The body is read from a copy, so handlers can still read it.
 */
export async function bodyToken(c: Context, field: string): Promise<string | undefined> {
  const type = c.req.header('content-type')
  if (isJsonContentType(type)) {
    const text = await readBodyText(c)
    if (!text) return undefined
    try {
      const body: unknown = JSON.parse(text)
      if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
        const value = Object.hasOwn(body, field)
          ? (body as Record<string, unknown>)[field]
          : undefined
        return typeof value === 'string' ? value : undefined
      }
    } catch {
      // Malformed JSON carries no token.
    }
    return undefined
  }
  const media = type?.split(';')[0]?.trim().toLowerCase()
  if (media !== 'application/x-www-form-urlencoded' && media !== 'multipart/form-data') {
    return undefined
  }
  const form = await readBodyForm(c)
  const value = form?.get(field)
  return typeof value === 'string' ? value : undefined
}
