/**
 * csrf's layers 1 and 2, the origin check: `Origin` (or, without it, the `Referer`'s origin)
 * must be allowed, and `Sec-Fetch-Site: cross-site` needs an allowed `Origin`.
 */
import type { Context } from 'hono'

/**
 * Layers 1 and 2. `Sec-Fetch-Site: cross-site` needs an allowed `Origin`. Otherwise `Origin` must
 * be allowed; without `Origin`, the `Referer`'s origin must be. With neither (a non-browser
 * client, or a browser that strips both), the token check alone decides.
 */
export function originAllowed(c: Context, origins: ReadonlySet<string> | undefined): boolean {
  const origin = c.req.header('origin')
  // With an Origin, the Origin rule covers cross-site requests too: one header read fewer.
  if (origin !== undefined) return isAllowed(origin, c, origins)
  if (c.req.header('sec-fetch-site') === 'cross-site') return false
  const referer = c.req.header('referer')
  if (referer === undefined) return true
  let refererOrigin: string
  try {
    refererOrigin = new URL(referer).origin
  } catch {
    return false
  }
  return isAllowed(refererOrigin, c, origins)
}

/** Listed in `origins`, or (without the option) on the host the request was sent to. */
function isAllowed(origin: string, c: Context, origins: ReadonlySet<string> | undefined): boolean {
  if (origins) return origins.has(origin.toLowerCase())
  const url = c.req.url
  // Fast path, the common case: the URL starts with exactly this origin, then its path.
  if (
    url.length > origin.length &&
    url.charCodeAt(origin.length) === 47 &&
    url.startsWith(origin) &&
    origin.indexOf('/', origin.indexOf('://') + 3) === -1 &&
    !origin.includes('@')
  ) {
    return true
  }
  // The scheme is not compared: behind a TLS-terminating proxy the app sees http:// URLs for
  // pages the browser loaded over https. The host (with port) is what tells sites apart.
  const host = hostOf(origin)
  return host !== '' && host === hostOf(url)
}

/** The `host[:port]` of an absolute URL or origin, lowercased; '' when there is none. */
function hostOf(url: string): string {
  const start = url.indexOf('://')
  if (start === -1) return ''
  let end = url.length
  for (let i = start + 3; i < url.length; i++) {
    const ch = url.charCodeAt(i)
    // '/', '?', '#'
    if (ch === 47 || ch === 63 || ch === 35) {
      end = i
      break
    }
  }
  const host = url.slice(start + 3, end)
  // Credentials in an origin are not an origin.
  if (host.includes('@')) return ''
  return host.toLowerCase()
}
