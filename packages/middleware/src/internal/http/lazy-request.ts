// The request whose body a middleware read, served lazily: a read of how undici's Request takes
// another request (its state under symbols), so it sits behind the internals switch like the
// node-server adapter (ARCHITECTURE.md "Borrowed internals"). Its own module so the middleware
// that never read a body do not carry it.
import { LAZY_REQUEST } from './lazy-mark'
import { internalsSwitchedOff } from './node-server'

/** What reads or moves a Request's body; everything else is the original request's. */
const BODY_MEMBERS = new Set<string | symbol>([
  'body',
  'bodyUsed',
  'arrayBuffer',
  'text',
  'json',
  'blob',
  'formData',
  'bytes',
  'clone',
])

/**
 * `raw` (whose body was read) as a request whose body is readable again, without building that
 * request until someone reads or moves the body: a Proxy that answers the URL, method, headers,
 * signal… from `raw`, and the body members above, and every symbol (where undici keeps the
 * state `new Request(r)` and `fetch(r)` read) from `build()`, called once. Building the Request
 * costs about 35 µs per request on Node 20 (its body stream and the signal that follows `raw`'s),
 * more than the HMAC a webhook checks; a handler that reads the body through `c.req.json()`,
 * `text()` or `arrayBuffer()` is served from Hono's cache and never needs it.
 *
 * `undefined` (the caller builds the request at once) when the switch is off, or where a Proxy
 * cannot stand in for a Request: a runtime whose Request checks its receiver's brand (private
 * fields, native classes) fails the probe below, which `new Request(proxy)` must pass.
 *
 * Node 24 is such a runtime: its undici (7.x) keeps a Request's state in private fields
 * (`#state`, `#signal`), and `new Request(proxy)` or `fetch(proxy)` throw "Cannot read private
 * member". No stand-in can pass there: a private field exists only on an object that Request's
 * own constructor (or `clone()`) made, and the state it holds (body, signal) is read from that
 * object directly, past any getter. A real Request made early is the rebuild itself; a clone
 * before the read tees the stream (slower to read than the rebuild); replacing `c.req.raw` only
 * when it is read does not help, as Hono's `c.req.header()`, `url`, `text()`… all read it
 * (bench/FINDINGS.md, "Touching the request body", 2026-12-07).
 */
export function lazyBodyRequest(raw: Request, build: () => Request): Request | undefined {
  if (internalsSwitchedOff()) return undefined
  if (proxyProbe === undefined) proxyProbe = probeProxy()
  return proxyProbe ? lazyProxy(raw, build) : undefined
}

function lazyProxy(raw: Request, build: () => Request): Request {
  let real: Request | undefined
  let bound: Map<string | symbol, unknown> | undefined
  const lazy = new Proxy(raw, {
    get(target, key) {
      if (key === LAZY_REQUEST) return true
      let from = target
      if (BODY_MEMBERS.has(key) || typeof key === 'symbol') {
        if (real === undefined) real = build()
        from = real
      }
      const value = Reflect.get(from, key, from)
      if (typeof value !== 'function') return value
      // Methods run on the object that owns the state; bound once per name.
      const cacheKey = from === target ? key : `real:${String(key)}`
      bound ??= new Map()
      let fn = bound.get(cacheKey)
      if (fn === undefined) {
        fn = value.bind(from)
        bound.set(cacheKey, fn)
      }
      return fn
    },
  })
  return lazy
}

/** Whether a lazily served Request passes for one here; asked once per process. */
let proxyProbe: boolean | undefined

/** `new Request(proxy)` must take the body `build()` gave, and every public member must work. */
function probeProxy(): boolean {
  try {
    const raw = new Request('http://probe.invalid/', { method: 'POST', body: 'probe' })
    const built = new Request(raw, { body: 'probe' })
    const lazy = lazyProxy(raw, () => built)
    if (!(lazy instanceof Request) || lazy.method !== 'POST' || lazy.bodyUsed) return false
    const copy = new Request(lazy)
    return copy.body !== null && built.bodyUsed && lazy.bodyUsed && copy.method === 'POST'
  } catch {
    return false
  }
}
