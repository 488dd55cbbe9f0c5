// The one read of @hono/node-server's internals outside node-server.ts: the slot its lightweight
// Request keeps its built `Headers` in. A module of its own so that only the entries that walk
// the request headers (shield) carry it; node-server.ts checks the request itself (the message's
// identity), and the same switch turns both off (ARCHITECTURE.md "Borrowed internals").
import type { Context } from 'hono'
import { type NodeIncoming, requestBuiltFrom } from './node-server'

/**
 * The message's raw header list (`c.env.incoming.rawHeaders`: name, value, name, value… as
 * received, node-server's documented binding) while `c.req.raw` is still the request
 * @hono/node-server built from that message and has not built its `Headers` yet. Then
 * `c.req.raw.headers` would be built from this very list (every version appends its pairs in
 * order, leaving out names that start with `:`), and nothing can have edited them: every edit
 * goes through `.headers`, which keeps what it built on the request. HTTP/1.x and HTTP/2 alike.
 *
 * `undefined` when the switch is off, on every other runtime, for a replaced request, once the
 * request's `Headers` exist (a `c.req.header()` before, on 2.x as on 1.x), and for the first
 * request of each node-server request class (the probe, {@link probeHeadersSlot}).
 */
export function unbuiltHeaderList(c: Context): readonly unknown[] | undefined {
  const incoming = (c.env as { incoming?: NodeIncoming } | undefined)?.incoming
  const list = incoming?.rawHeaders
  if (!Array.isArray(list)) return undefined
  // The switch is asked there, and the message's identity checked.
  if (!requestBuiltFrom(c, incoming as object)) return undefined
  return headersUnbuilt(c.req.raw) ? list : undefined
}

/**
 * The request class (prototype) probed last (node-server keeps one for every request; two
 * copies of it in one process take turns at the slot, each first request taking the standard
 * path; `undefined` before the first) and the symbol its requests keep their built `Headers`
 * under, `undefined` when the probe failed.
 */
let headersClass: object | null | undefined
let headersSlot: symbol | undefined

function headersUnbuilt(raw: Request): boolean {
  const proto = Object.getPrototypeOf(raw)
  if (proto !== headersClass) {
    headersClass = proto
    headersSlot = probeHeadersSlot(raw)
    return false
  }
  return (
    headersSlot !== undefined &&
    (raw as unknown as Record<symbol, unknown>)[headersSlot] === undefined
  )
}

/**
 * Where requests of `raw`'s class keep their `Headers` once built, found through the public
 * API: reading `.headers` twice gives one object, held under exactly one own symbol of the
 * request. Builds `raw`'s headers (its caller reads them next, on the standard path). A class
 * that builds them anew on every read, or keeps them elsewhere, fails: its requests always take
 * the standard path.
 */
function probeHeadersSlot(raw: Request): symbol | undefined {
  try {
    const headers = raw.headers
    if (!(headers instanceof Headers) || raw.headers !== headers) return undefined
    const r = raw as unknown as Record<symbol, unknown>
    const slots = Object.getOwnPropertySymbols(raw).filter((k) => r[k] === headers)
    return slots.length === 1 ? slots[0] : undefined
  } catch {
    return undefined
  }
}
