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
 * On @hono/node-server, `raw` is its lightweight request, and the `Request` it installs as the
 * global unwraps such a request before taking it: `new Request(r)` calls the method `r` keeps
 * under node-server's `getRequestCache` symbol. The Proxy answers that symbol with `build()`,
 * so `new Request(c.req.raw)` gets the real request with the body, on every Node version. (Until
 * 2026-12-07 it was answered from `build()` like every symbol, where the built request has no
 * such method: `new Request(c.req.raw)` after a body reader threw "input[getRequestCache] is not
 * a function" on Node 20 and 22.)
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
 * (bench/FINDINGS.md, "Touching the request body", 2026-12-07). node-server's own lightweight
 * request is no Request either, so there the unwrap above serves Node 24 too: `fetch(c.req.raw)`
 * fails behind a body reader exactly as it fails without one, and `new Request(c.req.raw)` works.
 */
export function lazyBodyRequest(raw: Request, build: () => Request): Request | undefined {
  if (internalsSwitchedOff()) return undefined
  const unwrap = nodeServerUnwrapKey(raw)
  if (unwrap !== undefined) return lazyProxy(raw, build, unwrap)
  if (proxyProbe === undefined) proxyProbe = probeProxy()
  return proxyProbe ? lazyProxy(raw, build) : undefined
}

function lazyProxy(raw: Request, build: () => Request, unwrap?: symbol): Request {
  let real: Request | undefined
  let bound: Map<string | symbol, unknown> | undefined
  const realRequest = () => {
    if (real === undefined) real = build()
    return real
  }
  const lazy = new Proxy(raw, {
    get(target, key) {
      if (key === LAZY_REQUEST) return true
      if (key === unwrap) return realRequest
      let from = target
      if (BODY_MEMBERS.has(key) || typeof key === 'symbol') from = realRequest()
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

/**
 * The symbol under which `raw`'s class keeps node-server's unwrap method (`getRequestCache`),
 * when the global `Request` calls it on an object that has it; `undefined` for every other
 * request, for node-server's `overrideGlobalObjects: false` and on every other runtime. Checked
 * once per prototype (there is one at a time: node-server's lightweight request's).
 */
function nodeServerUnwrapKey(raw: Request): symbol | undefined {
  const proto = Object.getPrototypeOf(raw) as object | null
  if (proto !== unwrapProto) {
    unwrapProto = proto
    unwrapKey = proto === null ? undefined : probeUnwrap(proto)
  }
  return unwrapKey
}

let unwrapProto: object | null | undefined
let unwrapKey: symbol | undefined

/** The prototype's `getRequestCache` method, if `new Request(x)` takes `x[key]()` for `x`. */
function probeUnwrap(proto: object): symbol | undefined {
  try {
    const bag = proto as Record<symbol, unknown>
    const key = Object.getOwnPropertySymbols(proto).find(
      (k) => k.description === 'getRequestCache' && typeof bag[k] === 'function',
    )
    if (key === undefined) return undefined
    const inner = new Request('http://probe.invalid/', { method: 'POST', body: 'probe' })
    const standIn = { [key]: () => inner } as unknown as Request
    const copy = new Request(standIn)
    return copy.method === 'POST' && copy.body !== null && inner.bodyUsed ? key : undefined
  } catch {
    return undefined
  }
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
