// A route's `openapi.deprecated`, checked and read: the header values of RFC 9745 (Deprecation)
// and RFC 8594 (Sunset), and the Link values (RFC 8288) naming the page on it.
import type { OpenAPIDeprecation, RouteOpenAPIMeta } from '../model/route'
import { isRecord } from '../schema/common'

/** What `sunsetMode` takes: `'announce'` (default) sends the headers; `'enforce'` also answers 410 after the sunset. */
export const SUNSET_MODES = ['announce', 'enforce'] as const

/** `openapi()`'s `sunsetMode`. */
export type SunsetMode = (typeof SUNSET_MODES)[number]

/** A deprecation read once, at registration: whole seconds and the header values. */
export interface DeprecationPlan {
  /** Unix seconds of `since`, when given. */
  since?: number
  /** Unix seconds of `sunset`, when given: the route is gone from this second on. */
  sunset?: number
  /** `@1767225600` (an RFC 9651 Date), when `since` is given. */
  deprecationHeader?: string
  /** `Tue, 01 Dec 2027 00:00:00 GMT` (an IMF-fixdate), when `sunset` is given. */
  sunsetHeader?: string
  /** The Link values to append: `<link>; rel="deprecation"`, and `rel="sunset"` with a sunset. */
  links: string[]
}

const DEPRECATION_KEYS = ['since', 'sunset', 'link']
/** The largest instant an IMF-fixdate's four-digit year can carry: 9999-12-31T23:59:59Z. */
const MAX_SECONDS = 253402300799
/**
 * A URI reference as a Link header can carry it between `<` and `>`: visible ASCII without
 * space, `<`, `>`, `"`, or the characters RFC 3986 never allows (`\`, `^`, `` ` ``, `{`, `|`, `}`).
 */
const LINK = /^[!#-;=?-[\]_a-z~]+$/

function seconds(value: unknown, name: string, fail: (message: string) => never): number {
  if (!(value instanceof Date) || Number.isNaN(value.getTime()))
    fail(`openapi.deprecated.${name} must be a valid Date`)
  const s = Math.floor((value as Date).getTime() / 1000)
  if (s < 0 || s > MAX_SECONDS)
    fail(`openapi.deprecated.${name} must lie between 1970 and the end of 9999`)
  return s
}

/**
 * Checks `openapi.deprecated` (`true`, `false`, or `{ since?, sunset?, link? }`); `fail` throws
 * the route's error.
 */
export function assertDeprecated(value: unknown, fail: (message: string) => never): void {
  if (value === undefined || typeof value === 'boolean') return
  if (!isRecord(value))
    fail('openapi.deprecated must be a boolean or { since?, sunset?, link? } (Dates and a URL)')
  const d = value as Record<string, unknown>
  for (const key of Object.keys(d)) {
    if (!DEPRECATION_KEYS.includes(key))
      fail(`unknown openapi.deprecated field "${key}" (known: ${DEPRECATION_KEYS.join(', ')})`)
  }
  const since = d.since === undefined ? undefined : seconds(d.since, 'since', fail)
  const sunset = d.sunset === undefined ? undefined : seconds(d.sunset, 'sunset', fail)
  if (since !== undefined && sunset !== undefined && sunset < since)
    fail('openapi.deprecated.sunset must not be earlier than since (RFC 9745 §4)')
  if (d.link !== undefined && (typeof d.link !== 'string' || !LINK.test(d.link)))
    fail('openapi.deprecated.link must be a URL or a path (no spaces, quotes or angle brackets)')
}

/** The route's deprecation as an object, or `undefined` when it is not deprecated. */
export function deprecationOf(
  meta: Pick<RouteOpenAPIMeta, 'deprecated'> | undefined,
): OpenAPIDeprecation | undefined {
  const d = meta?.deprecated
  if (d === undefined || d === false) return undefined
  return d === true ? {} : d
}

/** `Tue, 01 Dec 2027 00:00:00 GMT`: RFC 9110's IMF-fixdate, always in GMT. */
export function httpDate(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toUTCString()
}

/** The header values of a checked deprecation (see {@link assertDeprecated}). */
export function planDeprecation(d: OpenAPIDeprecation): DeprecationPlan {
  const plan: DeprecationPlan = { links: [] }
  if (d.since !== undefined) {
    plan.since = Math.floor(d.since.getTime() / 1000)
    plan.deprecationHeader = `@${plan.since}`
  }
  if (d.sunset !== undefined) {
    plan.sunset = Math.floor(d.sunset.getTime() / 1000)
    plan.sunsetHeader = httpDate(plan.sunset)
  }
  if (d.link !== undefined) {
    plan.links.push(`<${d.link}>; rel="deprecation"`)
    if (plan.sunset !== undefined) plan.links.push(`<${d.link}>; rel="sunset"`)
  }
  return plan
}

/**
 * A sunset as `x-sunset` carries it (oasdiff's extension): `2027-12-01` at midnight UTC, as
 * oasdiff writes it, else the RFC 3339 instant to the second (`2027-12-01T12:30:00Z`).
 */
export function sunsetStamp(sunset: Date): string {
  const iso = new Date(Math.floor(sunset.getTime() / 1000) * 1000).toISOString()
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : `${iso.slice(0, 19)}Z`
}
