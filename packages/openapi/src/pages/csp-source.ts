/** Schemes whose origins a page may call: `fetch` (http, https) and WebSocket (ws, wss). */
const SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:'])
/** A CSP host-part without wildcards: labels of letters, digits and dashes (CSP3 `host-char`). */
const HOST = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/

/**
 * The CSP source expression (`scheme://host[:port]`) that allows requests to the origin of `url`,
 * or `null` when it cannot be written as one. A URL goes into a policy only through here: the
 * WHATWG parser accepts hosts like `a.example;script-src` or `a.example,b` and drops tabs and
 * newlines, so an origin read from a document (a `servers[].url`) could otherwise end the
 * directive, add another, or start a second policy. The result is rebuilt from the parsed parts
 * and checked against the CSP grammar: only letters, digits, `-`, `.`, `:` and `/` can appear.
 * Refused: anything but an absolute http, https, ws or wss URL, templated URLs
 * (`https://{region}.example.com`), wildcards, and IPv6 literals (CSP has no spelling for them).
 *
 * @example
 * cspSource('https://API.example.com:8443/v1') // 'https://api.example.com:8443'
 * cspSource("https://a.example;script-src 'unsafe-inline'") // null
 */
export function cspSource(url: string): string | null {
  if (url.includes('{') || url.includes('}')) return null
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  const { protocol, hostname, port } = parsed
  if (!SCHEMES.has(protocol) || !HOST.test(hostname) || !/^\d{0,5}$/.test(port)) return null
  return `${protocol}//${hostname}${port === '' ? '' : `:${port}`}`
}
