// A route handler wrapped so that its answer goes through the response check; in 'strip' and
// 'strict' its `c.json()` strips the value before serialising it. Replacing `c.json` while one
// handler runs is a borrowed internal (ARCHITECTURE.md "Borrowed internals"): with
// `globalThis.__PALISADE_NO_INTERNALS__ = true` the handler runs on Hono's own `c.json`, and
// its Response is read back, parsed and checked after it returns (the path `c.body()` and
// `new Response()` take), which gives the same answers, slower, except for a `c.json()` whose
// Content-Type the handler overrides with a type that is not JSON: read back, it is that type
// and leaves unchecked (docs/openapi/app.md says so; response-check.edges.test.ts holds both).
import { internalsSwitchedOff } from '@palisade/shared/internals'
import type { Context, Handler } from 'hono'
import type { EarlyStrip, ResponseChecker } from './response-checker'

/** The status `c.json()` answers without one given (and without an earlier `c.status()`). */
const DEFAULT_STATUS = 200

type Json = (o: unknown, a?: unknown, h?: unknown) => Response

/**
 * `handler` with its answer checked after it returns (a JSON body read back from the Response):
 * used alone when no declared status has a body to check, and c.json is left alone (giving a Context an own `json` per request changes its shape, which
 * costs every later access to it far more than the check itself).
 */
export function statusCheckedHandler(checker: ResponseChecker, handler: Handler): Handler {
  return function checkStatus(c, next) {
    const out = handler(c, next)
    if (out instanceof Promise) {
      return out.then((res) => checker.check(c, res, undefined, undefined)) as ReturnType<Handler>
    }
    return checker.check(c, out, undefined, undefined) as ReturnType<Handler>
  }
}

/**
 * `handler` with its answer checked, and what its `c.json()` builds remembered (the value, the
 * response) so the check does not parse it back. Not async: a handler that answers
 * synchronously, with a synchronous schema, is checked without a microtask in between.
 *
 * 'strip' and 'strict' strip inside c.json(), before the value is serialised, so a body with
 * something undeclared is serialised once, stripped, rather than serialised, stripped and
 * serialised again into a copied Response. The status is read from c.json()'s arguments (200
 * without them); a status set earlier with c.status() shows on the built response, and when it
 * is not the one guessed the value is stripped by that status's schema and serialised again.
 */
export function bodyCheckedHandler(checker: ResponseChecker, handler: Handler): Handler {
  const stripsEarly = checker.mode === 'strip' || checker.mode === 'strict'
  const afterwards = statusCheckedHandler(checker, handler)
  return function checkResponse(c, next) {
    if (internalsSwitchedOff()) return afterwards(c, next)
    const json = c.json as Json
    let built: Response | undefined
    let body: unknown
    let early: EarlyStrip | undefined
    // Defined once and left in place: once the handler has returned (or thrown) it is Hono's
    // own c.json again, so whatever answers after it (an outer middleware, onError) is not
    // stripped by this route's schema. Defining Hono's back cost every request a second
    // definition (bench/FINDINGS.md, issue 42).
    let open = true
    setJson(c, (object: unknown, arg?: unknown, headers?: unknown) => {
      if (!open) return json(object, arg, headers)
      body = object
      early = undefined
      const guess =
        typeof arg === 'number'
          ? arg
          : ((arg as { status?: number } | undefined)?.status ?? DEFAULT_STATUS)
      const first = stripsEarly ? checker.stripFor(guess, object) : undefined
      if (first === undefined) {
        built = json(object, arg, headers)
        return built
      }
      built = json(first.stripped, arg, headers)
      const status = built.status
      if (status === guess) {
        early = first
        return built
      }
      // c.status() chose another status: strip by its schema, if it declares one.
      const second = checker.stripFor(status, object)
      if (second === undefined) {
        if (first.stripped !== object) built = json(object, arg, headers)
        return built
      }
      if (second.stripped !== first.stripped) built = json(second.stripped, arg, headers)
      early = second
      return built
    })
    let out: unknown
    try {
      out = handler(c, next)
    } catch (error) {
      open = false
      throw error
    }
    if (out instanceof Promise) {
      return out.then(
        (res) => {
          open = false
          return checker.check(c, res, built, body, early)
        },
        (error) => {
          open = false
          throw error
        },
      ) as ReturnType<Handler>
    }
    open = false
    return checker.check(c, out, built, body, early) as ReturnType<Handler>
  }
}

/**
 * Gives `c` its `json` function. Defined, not assigned: on V8, assigning over the function a Hono
 * Context holds as its own field made the objects of every request outlive the young generation
 * (a whole request promoted to the old generation per scavenge, then left to a full GC), which
 * cost a server more CPU per request than the response check itself; a defined property does
 * not (bench/FINDINGS.md, "Garbage").
 */
function setJson(c: Context, json: Json): void {
  Object.defineProperty(c, 'json', {
    value: json,
    writable: true,
    enumerable: true,
    configurable: true,
  })
}
