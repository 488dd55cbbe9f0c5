// The request path as logs and traces write it: raw, without query string or fragment, and
// without the values of `;name=value` path parameters. Shared by logger() and otel().

// `;name=value` path parameters (RFC 3986 §3.3), e.g. Java's `;jsessionid=…`: session tokens.
const PATH_PARAM = /;([^/;=?#]*)=[^/;?#]*/g

/**
 * The path exactly as sent (still percent-encoded, so `%0A` cannot forge a new log line), without
 * query string or fragment: both carry tokens.
 */
export function rawPath(url: string): string {
  const start = url.indexOf('/', url.indexOf('://') + 3)
  if (start === -1) return '/'
  let end = url.length
  const q = url.indexOf('?', start)
  if (q !== -1) end = q
  const h = url.indexOf('#', start)
  if (h !== -1 && h < end) end = h
  return url.slice(start, end)
}

/** Replaces the value of every `;name=value` path parameter: `/cart;jsessionid=[redacted]`. */
export function redactPathParams(path: string): string {
  return path.includes(';') ? path.replace(PATH_PARAM, ';$1=[redacted]') : path
}

/**
 * Removes every `;name=value` path parameter: `/cart;jsessionid=…/items` is `/cart/items`. For
 * span attributes, where the parameter's name is no use and the path is grouped on.
 */
export function stripPathParams(path: string): string {
  return path.includes(';') ? path.replace(PATH_PARAM, '') : path
}
