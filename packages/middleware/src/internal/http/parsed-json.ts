// The handler's `c.req.json()` served from a middleware's parse of the cached body text. Its own
// module so the middleware that read a body without parsing it do not carry it.
import type { Context } from 'hono'
import { copyJson } from '../caches/json-copy'

/**
 * Serves the handler's `c.req.json()` from `value`, a middleware's `JSON.parse` of the body text
 * that `readBodyText` (json-body.ts) cached, so the route does not parse the same text again:
 * Hono's json() (4.13) parses the cached text on every call and keeps no parsed value. Each call
 * gets a fresh copy, what `JSON.parse` of the text gives (same keys in the same order, own
 * `__proto__` keys kept), at about a third of a parse's cost, so a handler that mutates its body
 * changes no later reader's. Once the cached text is no longer that text (a middleware after this
 * one replaced it), json() parses the cache as before.
 */
export function serveParsedJson(c: Context, value: unknown): void {
  const req = c.req
  const text = (req.bodyCache as { text?: Promise<string> }).text
  if (text === undefined) return
  const parse = req.json
  req.json = function json<T>(): Promise<T> {
    if ((req.bodyCache as { text?: Promise<string> }).text !== text)
      return parse.call<typeof req, [], Promise<T>>(req)
    return Promise.resolve(copyJson(value) as T)
  }
}
