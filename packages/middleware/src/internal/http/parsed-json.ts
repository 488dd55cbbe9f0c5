// The handler's `c.req.json()` served from a middleware's parse of the cached body text. Its own
// module so the middleware that read a body without parsing it do not carry it.
import type { Context } from 'hono'

/**
 * Serves the handler's first `c.req.json()` with `value`, a middleware's `JSON.parse` of the body
 * text that `readBodyText` (json-body.ts) cached, so the route does not parse the same text
 * again: Hono's json() (4.13) parses the cached text on every call and keeps no parsed value.
 * The middleware is done with `value` and keeps no reference to it, so the first call gets it
 * as it is, not a copy (what `JSON.parse` of the text gives: the same keys in the same order,
 * own `__proto__` keys kept); every later call parses the cached text as Hono does, so each call
 * still gets a value of its own and a handler that mutates its body changes no later reader's.
 * Once the cached text is no longer that text (a middleware after this one replaced it), json()
 * parses the cache as before.
 *
 * The request's json is defined, not assigned: assigning a new function to a member of a
 * per-request object is what made V8 keep every object of recent requests alive through
 * scavenges (bench/FINDINGS.md, "Garbage"); here it put shield's 1 KiB row at about 2.0x
 * instead of 1.6x in about half of the processes.
 */
export function serveParsedJson(c: Context, value: unknown): void {
  const req = c.req
  const text = (req.bodyCache as { text?: Promise<string> }).text
  if (text === undefined) return
  const parse = req.json
  let served = false
  let held = value
  function json<T>(): Promise<T> {
    if (served || (req.bodyCache as { text?: Promise<string> }).text !== text)
      return parse.call<typeof req, [], Promise<T>>(req)
    served = true
    const first = held
    // Held no longer than needed: from here on it is the handler's.
    held = undefined
    return Promise.resolve(first as T)
  }
  // A fresh descriptor each time: a shared one, reused, brought the retention back (FINDINGS).
  Object.defineProperty(req, 'json', {
    value: json,
    writable: true,
    enumerable: true,
    configurable: true,
  })
}
