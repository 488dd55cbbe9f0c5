// Every read of @hono/node-server's internals by @palisade/middleware, in one place: the cache
// entry of its lightweight Response (`[status, body, headers]` under a private symbol) and the
// node:http message its lightweight Request keeps under another. Both are checked before they are
// trusted (a probe of the class, the message's identity), and both can be switched off with one
// flag, `globalThis.__PALISADE_NO_INTERNALS__ = true`: then every caller takes the standard path
// (`c.res.headers`, `c.req.raw.body`) and gives the same answers, only slower
// (docs/guide/node.md, ARCHITECTURE.md "Borrowed internals"). One more, the slot that request
// keeps its built Headers in, sits in node-server-headers.ts: only shield's header walk reads it,
// and the CommonJS build of every entry that imports this module would carry it.
//
// `c.env.incoming` itself is node-server's documented binding (`HttpBindings`) and is read
// elsewhere (client IP); what is private is the link from `c.req.raw` back to that message.
import { internalsSwitchedOff } from '@palisade/shared/internals'
import type { Context } from 'hono'
import { isLazyRequest } from './lazy-mark'

export { internalsSwitchedOff }

// ---------------------------------------------------------------------------------------------
// The lightweight Response

/** What a lightweight response's cache entry holds, as node-server built it. */
export interface LightParts {
  readonly status: unknown
  readonly body: unknown
  readonly headers: unknown
}

/**
 * The status, body and header record of node-server's lightweight response `res`, read from its
 * cache entry (no public getter gives them without building the undici Response); `undefined`
 * when the switch is off, when `res` is not an instance of the probed class (undici's own, a
 * subclass, another runtime's) or when its cache entry is gone (the response was materialised).
 */
export function lightResponseParts(res: Response): LightParts | undefined {
  if (internalsSwitchedOff()) return undefined
  const Light = res.constructor as typeof Response
  if (Light !== globalThis.Response) return undefined
  const key = Light === lastClass ? lastKey : cacheKeyOf(Light)
  const cache = key && (res as unknown as Record<symbol, unknown>)[key]
  if (!Array.isArray(cache)) return undefined
  return { status: cache[0], body: cache[1], headers: cache[2] }
}

/**
 * The class checked last (only `globalThis.Response` is ever checked, so there is one at a time)
 * and the symbol it passed with, `undefined` when it failed.
 */
let lastClass: unknown
let lastKey: symbol | undefined

function cacheKeyOf(Light: typeof Response): symbol | undefined {
  lastClass = Light
  lastKey = probeLightResponse(Light)
  return lastKey
}

/**
 * Checks a Response class through its public API: the symbol that holds `[status, body,
 * record]`, an edit to the record seen through `.headers`, and again after the body was
 * materialised. Undici's own Response has no such symbol and fails at once.
 */
function probeLightResponse(Light: typeof Response): symbol | undefined {
  try {
    const records: Record<string, string>[] = [{}, {}]
    const [one, two] = records.map((headers) => new Light('probe', { status: 299, headers }))
    const bag = one as unknown as Record<symbol, unknown>
    const key = Object.getOwnPropertySymbols(one).find((k) => {
      const v = bag[k]
      return Array.isArray(v) && v[0] === 299 && v[1] === 'probe' && v[2] === records[0]
    })
    for (const record of records) record['x-late'] = 'b'
    // One is read through `.headers` first, the other after its body was materialised.
    const seen = !two?.bodyUsed && [one, two].every((r) => r?.headers.get('x-late') === 'b')
    return seen ? key : undefined
  } catch {
    return undefined
  }
}

// ---------------------------------------------------------------------------------------------
// The socket message behind the lightweight Request

/** The parts of node:http's IncomingMessage read here (`c.env.incoming`). */
export interface NodeIncoming {
  httpVersionMajor?: unknown
  headers?: Record<string, unknown>
  rawHeaders?: unknown
  rawBody?: unknown
}

/**
 * The HTTP/1.x message @hono/node-server built `c.req.raw` from, while `c.req.raw` is still that
 * request (no middleware replaced it); `undefined` when the switch is off, on every other
 * runtime, on HTTP/2, for `app.request()` and for a fake `env`.
 */
export function socketMessage(c: Context): NodeIncoming | undefined {
  if (internalsSwitchedOff()) return undefined
  const incoming = (c.env as { incoming?: NodeIncoming } | undefined)?.incoming
  if (incoming?.httpVersionMajor !== 1 || 'rawBody' in incoming || !incoming.headers) {
    return undefined
  }
  return builtFrom(c.req.raw, incoming) ? incoming : undefined
}

/**
 * True when `c.req.raw` is the request node-server built from `incoming` (the message it holds
 * under a private symbol, as an own property); false when the switch is off. A Request some
 * middleware put in its place has no such property.
 */
export function requestBuiltFrom(c: Context, incoming: object): boolean {
  if (internalsSwitchedOff()) return false
  return !('rawBody' in incoming) && builtFrom(c.req.raw, incoming)
}

/**
 * The symbol found last is tried first: listing an object's symbols costs an array per request.
 * The identity check is the probe: the message found must be the very object in `c.env`.
 */
let messageKey: symbol | undefined

function builtFrom(raw: Request, incoming: object): boolean {
  // A request served lazily (below) was replaced: its symbols would build the real one.
  if (isLazyRequest(raw)) return false
  const r = raw as unknown as Record<symbol, unknown>
  if (messageKey !== undefined && r[messageKey] === incoming && Object.hasOwn(r, messageKey)) {
    return true
  }
  for (const key of Object.getOwnPropertySymbols(raw)) {
    if (r[key] === incoming) {
      messageKey = key
      return true
    }
  }
  return false
}

/**
 * True when the request came over HTTP/1.x through @hono/node-server, from its documented binding
 * (`c.env.incoming`, `HttpBindings`): no internal is read, so the switch leaves it on. A refusal
 * that leaves the body unread answers `Connection: close` there (socket-body.ts).
 */
export function overNodeHttp1(c: Context): boolean {
  const incoming = (c.env as { incoming?: NodeIncoming } | undefined)?.incoming
  return incoming?.httpVersionMajor === 1 && !('rawBody' in incoming)
}

// ---------------------------------------------------------------------------------------------

/** The parts of node:http's ServerResponse read here (`c.env.outgoing`). */
export interface NodeOutgoing {
  once(event: 'close', listener: () => void): unknown
  readonly closed?: boolean
  readonly destroyed?: boolean
}

/**
 * The node:http response @hono/node-server writes this request's answer to, from its documented
 * binding (`c.env.outgoing`, `HttpBindings`), when it has the `close` event: node:http emits it
 * once, when the response has been sent in full or the connection ended first. `undefined` on
 * every other runtime, for `app.request()` and when the switch is off (then callers take the
 * standard way, which needs no server).
 */
export function nodeOutgoing(c: Context): NodeOutgoing | undefined {
  if (internalsSwitchedOff()) return undefined
  const outgoing = (c.env as { outgoing?: Partial<NodeOutgoing> } | undefined)?.outgoing
  return typeof outgoing?.once === 'function' ? (outgoing as NodeOutgoing) : undefined
}

/**
 * What this module can read from the @hono/node-server running now: `lightResponse` when
 * `globalThis.Response` is its lightweight class in the shape read here (false on every other
 * runtime, and with `overrideGlobalObjects: false`); `switchedOff` when the flag is set (then
 * nothing is read). The request's message is checked per request, by identity.
 */
export function probeNodeServerInternals(): { switchedOff: boolean; lightResponse: boolean } {
  const Light = globalThis.Response
  const key = Light === lastClass ? lastKey : cacheKeyOf(Light)
  return { switchedOff: internalsSwitchedOff(), lightResponse: key !== undefined }
}
