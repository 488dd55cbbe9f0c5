import { type FieldHints, fieldHintsOf } from '@palisade/shared/field-hints'
import type { Context, MiddlewareHandler } from 'hono'
import { matchedRoutes } from 'hono/route'
import { decodedCodings } from '../internal/http/content-coding'
import { begin, decide, type Pending } from '../internal/outcomes/decisions'
import { described } from '../internal/outcomes/described'
import { rejectOrRecord, type ShieldRejects } from './answers'
import { Ban } from './ban'
import { scanBody } from './body'
import { NAME, type ShieldConfig, type ShieldOptions, shieldConfig } from './config'
import { shieldDescription } from './description'
import { scanRequestParts } from './inputs'
import { compilePointers, type PointerTrie } from './pointers'
import { type Hit, Scan, Verdicts } from './scan'

/** The response body of every refusal: nothing about which rule fired, nor where. */
const MESSAGE = 'Forbidden'

/**
 * Recognises attacks that fit the contract: SQL injection, XSS, path traversal and file
 * inclusion, command injection, PHP, Java/JNDI, template injection, prototype-pollution keys and
 * scanner probes, in the path, the query, cookies, headers (all but {@link UNREAD_HEADERS}:
 * credentials, signatures, and the Cookie header, read as cookies) and bodies (JSON walked value
 * by value, forms, multipart text fields and file names, XML, text), within `maxInspectBytes`.
 * A detection answers `403 Forbidden` (`attack_detected`); the body never says which rule fired.
 * The decision records the category and the location (`body:/comment`, `query:q`), never the
 * value. The body stays readable by the handler.
 *
 * Behind `@palisade/openapi`, a route's request schema tells shield which body fields hold no
 * free text (numbers, booleans, enums, uuids, dates, emails, and fields marked
 * `x-palisade-shield: false`): they are validated, not inspected.
 *
 * @param options.rules default: every category on.
 * @param options.paranoia default `1`.
 * @param options.maxInspectBytes default `65536`.
 * @param options.dryRun default `false`.
 * @example
 * ```ts
 * app.use('/api/*', shield({ dryRun: true, onDetect: (d) => console.warn('shield', d) }))
 * ```
 */
export function shield(options?: ShieldOptions): MiddlewareHandler & ShieldRejects {
  const config = shieldConfig(options)
  const ban = config.ban ? new Ban(config.ban) : undefined
  const routeFields = new WeakMap<FieldHints, PointerTrie>()
  const detectOptions = { rules: config.rules, paranoia: config.paranoia }
  const verdicts = new Verdicts()

  /** The body pointers of this request: the user's, with the matched route's schema hints. */
  function fieldsOf(c: Context): PointerTrie | undefined {
    const hints = routeHints(c)
    if (hints === undefined) return config.fields
    let trie = routeFields.get(hints)
    if (trie === undefined) {
      trie = compilePointers([...config.skip, ...hints.skip], config.inspect)
      routeFields.set(hints, trie)
    }
    return trie
  }

  const description = shieldDescription({ refuseUninspected: config.refuseUninspected })
  return described(description, async function shield(c, next) {
    const d = begin(c, NAME)
    // Awaited only when there is a function to ask: no promise or turn per request otherwise.
    if (config.exemptFn !== undefined ? (await config.exemptFn(c)) === true : exempted(c, config)) {
      decide(d, 'skip')
      await next()
      return
    }
    if (ban !== undefined && (await ban.bannedFor(c)) > 0) {
      note(d, undefined, 'ban', 'client banned after repeated detections')
      rejectOrRecord(d, config.dryRun, 403, MESSAGE, 'attack_detected')
      await next()
      return
    }
    const scan = new Scan(detectOptions, config.maxInspect, verdicts)
    const found =
      scanRequestParts(c, scan) || (await scanBody(c, scan, fieldsOf)) ? scan.hit : undefined
    if (scan.capped) {
      scan.note(
        `body over maxInspectBytes: first ${config.maxInspect} of ${scan.bodyChars} characters inspected`,
      )
    }
    const cause = scan.notes?.join('; ')
    if (found === undefined && config.refuseUninspected && (scan.capped || scan.uninspected)) {
      if (d !== undefined && cause !== undefined) d.decision.cause = cause
      refuseUninspected(d, config, scan.uninspected === 'coding')
      await next()
      return
    }
    if (found === undefined) {
      decide(d, 'allow')
      if (d !== undefined && cause !== undefined) d.decision.cause = cause
      await next()
      return
    }
    await refuse(c, d, config, found, cause, ban)
    await next()
  })
}

/** Records the hit, tells `onDetect`, counts it toward a ban, and refuses (or records a dry run). */
async function refuse(
  c: Context,
  d: Pending | undefined,
  config: ShieldConfig,
  hit: Hit,
  cause: string | undefined,
  ban: Ban | undefined,
): Promise<void> {
  note(d, hit.category, hit.location, cause)
  if (config.onDetect) {
    await config.onDetect(
      { category: hit.category, location: hit.location, dryRun: config.dryRun },
      c,
    )
  }
  if (ban !== undefined && (await ban.detected(c)) && d !== undefined) {
    d.decision.cause = cause ? `${cause}; client banned` : 'client banned'
  }
  rejectOrRecord(d, config.dryRun, 403, MESSAGE, 'attack_detected')
}

/**
 * `uninspected: 'refuse'`: a body shield could not inspect whole. 415 with the codings it
 * decodes here (RFC 9110 §15.5.16 and §12.5.3) for a content coding it does not; 413 for a body
 * longer than it inspects. Not a detection: no `onDetect`, no count toward a ban.
 */
function refuseUninspected(d: Pending | undefined, config: ShieldConfig, coding: boolean): void {
  if (coding) {
    rejectOrRecord(d, config.dryRun, 415, 'Unsupported Media Type', 'unsupported_media_type', {
      'Accept-Encoding': decodedCodings().join(', '),
    })
  } else {
    rejectOrRecord(d, config.dryRun, 413, 'Content Too Large', 'body_too_large')
  }
}

/** Sets what the decision says beyond its code: cause, category, location (in that key order). */
function note(
  d: Pending | undefined,
  category: string | undefined,
  location: string,
  cause: string | undefined,
): void {
  if (d === undefined) return
  if (cause !== undefined) d.decision.cause = cause
  if (category !== undefined) d.decision.category = category
  d.decision.location = location
}

/** Whether the request's path is one of the `exempt` paths (`exemptFn` is asked by the caller). */
function exempted(c: Context, config: ShieldConfig): boolean {
  return config.exempt !== undefined && !config.exempt.empty && config.exempt.matches(c.req.path)
}

/**
 * The field hints of the route this request matched (`@palisade/openapi` puts them on the
 * route's request validator; see `@palisade/shared/field-hints`), or `undefined`.
 */
function routeHints(c: Context): FieldHints | undefined {
  const routes = routesOf(c)
  if (routes === undefined) return undefined
  for (const route of routes) {
    const hints = fieldHintsOf(route.handler)
    if (hints !== undefined) return hints
  }
  return undefined
}

/**
 * The request class (HonoRequest's prototype) of another copy of hono than the one shield
 * imports `hono/route` from, once met. That helper reads the match under its own copy's symbol,
 * so on such a copy's requests it throws on every request: each throw cost about 14 µs
 * (measured on shield's 1 KiB row, 2026-12-07), and the route's field hints were lost. Two
 * copies are common enough: a monorepo, or a package manager that did not dedupe `hono`.
 */
let foreignRequest: object | null | undefined

/** The routes this request matched, in order; `undefined` when they cannot be read. */
function routesOf(c: Context): readonly { handler: unknown }[] | undefined {
  const request = Object.getPrototypeOf(c.req) as object | null
  if (request !== foreignRequest) {
    try {
      return matchedRoutes(c)
    } catch {
      foreignRequest = request
    }
  }
  // Another copy of hono: its request's own `matchedRoutes` (deprecated in favour of the helper,
  // but read through the request's own class) gives the same routes.
  try {
    const routes = (c.req as { matchedRoutes?: unknown }).matchedRoutes
    return Array.isArray(routes) ? routes : undefined
  } catch {
    return undefined
  }
}
