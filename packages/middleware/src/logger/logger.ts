import type { Context, MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import {
  assertFunction,
  assertKnownKeys,
  assertPositiveInteger,
  assertStringArray,
  optionError,
} from '../internal/options'

/**
 * Options of {@link logger}.
 *
 * @example
 * const options: LoggerOptions = {
 *   exclude: ['/health', '/static/*'],
 *   sink: (line) => console.info(line),
 * }
 * app.use(logger(options))
 */
export interface LoggerOptions {
  /** Paths not logged: exact (`/health`) or a prefix (`/static/*`, also matching `/static`). Default `[]`. */
  exclude?: string[]
  /** Receives each finished line. Default `console.log`. */
  sink?: (line: string) => void
  /**
   * Longest path written, in characters; a longer one is cut and ends in `…[+N]` (N characters
   * left out), so a 64 KB URL cannot flood the log. Default `1024`.
   */
  maxPathLength?: number
}

const NAME = 'logger'
const KNOWN = ['exclude', 'sink', 'maxPathLength'] as const
/** Longest method and request ID written; real ones are far shorter. */
const MAX_METHOD = 32
const MAX_ID = 256
// `;name=value` path parameters (RFC 3986 §3.3), e.g. Java's `;jsessionid=…`: session tokens.
const MATRIX_PARAM = /;([^/;=?#]*)=[^/;?#]*/g

/**
 * Writes one line per finished request: `METHOD /path STATUS DURATIONms`, followed by the request
 * ID when `requestId()` put one in the context. The query string is never logged (it carries
 * tokens), nor the values of `;name=value` path parameters (`;jsessionid=…`), and paths longer
 * than `maxPathLength` are cut. A request whose handler threw is logged with the status the client got (500, or the
 * `HTTPException`'s status), and the error still reaches `app.onError`.
 *
 * @param options.exclude default `[]`; exact paths and `prefix/*` patterns
 * @param options.sink default `console.log`
 * @param options.maxPathLength default `1024` characters
 * @example
 * ```ts
 * app.use('*', requestId())
 * app.use('*', logger({ exclude: ['/health', '/static/*'] }))
 * // GET /users/42 200 3ms 1b4e28ba-2fa1-11d2-883f-0016d3cca427
 * ```
 */
export function logger(options?: LoggerOptions): MiddlewareHandler {
  assertKnownKeys(NAME, options, KNOWN)
  const o = options ?? {}
  const exact = new Set<string>()
  const prefixes: string[] = []
  for (const pattern of assertStringArray(NAME, 'exclude', o.exclude ?? [])) {
    if (!pattern.startsWith('/')) {
      throw optionError(NAME, `"exclude" entry ${JSON.stringify(pattern)} must start with "/"`)
    }
    if (pattern.endsWith('/*')) prefixes.push(pattern.slice(0, -2))
    else if (pattern.includes('*')) {
      throw optionError(
        NAME,
        `"exclude" entry ${JSON.stringify(pattern)}: "*" is only allowed as a final "/*"`,
      )
    } else exact.add(pattern)
  }
  const maxPathLength = assertPositiveInteger(NAME, 'maxPathLength', o.maxPathLength ?? 1024)
  const sink = assertFunction<(line: string) => void>(
    NAME,
    'sink',
    o.sink ?? ((line: string) => console.log(line)),
  )

  function excluded(path: string): boolean {
    if (exact.has(path)) return true
    for (const prefix of prefixes) {
      if (path === prefix || path.startsWith(`${prefix}/`)) return true
    }
    return false
  }

  function write(c: Context, path: string, status: number, start: number): void {
    const ms = Math.round(performance.now() - start)
    const id = (c.get as (key: string) => unknown)('requestId')
    const line = `${bound(c.req.method, MAX_METHOD)} ${bound(redact(path), maxPathLength)} ${status} ${ms}ms`
    try {
      sink(typeof id === 'string' && id ? `${line} ${bound(id, MAX_ID)}` : line)
    } catch {
      // A failing log sink must not turn a served request into an error.
    }
  }

  return async function logger(c, next) {
    const path = rawPath(c.req.url)
    if (excluded(path)) return next()
    const start = performance.now()
    try {
      await next()
    } catch (err) {
      write(c, path, err instanceof HTTPException ? err.status : 500, start)
      throw err
    }
    write(c, path, c.res.status, start)
  }
}

/** Replaces the value of every `;name=value` path parameter: `/cart;jsessionid=[redacted]`. */
function redact(path: string): string {
  return path.includes(';') ? path.replace(MATRIX_PARAM, ';$1=[redacted]') : path
}

/** Cuts `text` to `max` characters, marking how many were left out. */
function bound(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…[+${text.length - max}]`
}

/**
 * The path exactly as sent (still percent-encoded, so `%0A` cannot forge a new log line), without
 * query string or fragment.
 */
function rawPath(url: string): string {
  const start = url.indexOf('/', url.indexOf('://') + 3)
  if (start === -1) return '/'
  let end = url.length
  const q = url.indexOf('?', start)
  if (q !== -1) end = q
  const h = url.indexOf('#', start)
  if (h !== -1 && h < end) end = h
  return url.slice(start, end)
}
