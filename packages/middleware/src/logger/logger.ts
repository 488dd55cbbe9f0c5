import type { Context, MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { editResponseHeaders } from '../internal/http/headers'
import { pathPatterns } from '../internal/http/path-patterns'
import { rawPath, redactPathParams } from '../internal/logging/log-path'
import { redactFields, secretNames } from '../internal/logging/redact'
import {
  assertBoolean,
  assertFunction,
  assertKnownKeys,
  assertOneOf,
  assertPositiveInteger,
  assertStringArray,
} from '../internal/options'
import {
  type DecisionRecord,
  installDecisions,
  lastDecisionEnd,
} from '../internal/outcomes/decisions'
import { settle } from '../internal/outcomes/settle'
import { passOn } from '../internal/pass-on'
import { escapeControl } from './escape'

/** A pino-shaped logger: `logger({ sink: pino() })`. Only `info`, `warn` and `error` are used. */
export interface LogTarget {
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
  /** When present (pino), `c.get('log')` is `child({ reqId })`. */
  child?(bindings: Record<string, unknown>): LogTarget
}

/**
 * The per-request logger in `c.get('log')`: every line carries the request's `reqId`. The fields
 * are copied with secret header values redacted; an `Error` given in their place is written under
 * `err`, its message the line's when none is given (as pino does).
 */
export interface RequestLogger {
  info(msg: string): void
  info(fields: Record<string, unknown> | Error, msg?: string): void
  warn(msg: string): void
  warn(fields: Record<string, unknown> | Error, msg?: string): void
  error(msg: string): void
  error(fields: Record<string, unknown> | Error, msg?: string): void
}

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
  /**
   * Receives each finished line (a JSON text in `format: 'json'`), or a pino-shaped logger that
   * gets each request as an object at its level. Default `console.log`.
   */
  sink?: ((line: string) => void) | LogTarget
  /**
   * `'text'` (default): `METHOD /path STATUS DURATIONms ID`, plus `dry-run=rateLimit:rate_limited`
   * when a guard in dry run would have refused; control characters are escaped (`\n`, `\u001b`).
   * `'json'`: one object per request with `time`, `level`, `msg`, `reqId`, `req`, `res`,
   * `responseTime` and the middleware `decisions`.
   */
  format?: 'text' | 'json'
  /**
   * Header names (case-insensitive) whose values never appear in what `c.get('log')` writes,
   * besides `authorization`, `proxy-authorization`, `cookie`, `set-cookie`, `x-api-key`,
   * `x-xsrf-token` and `x-csrf-token`: as object keys, `Headers`, `[name, value]` pairs, `Map`
   * keys and in errors, at any depth. Default `[]`.
   */
  redact?: string[]
  /**
   * Adds a `Server-Timing` header: one entry per middleware that decided, plus `handler`. Off by
   * default: it tells every client how long each check took (a timing side channel, e.g. which
   * store call was slow). Default `false`.
   */
  serverTiming?: boolean
  /**
   * Longest path written, in characters; a longer one is cut and ends in `…[+N]` (N characters
   * left out), so a 64 KB URL cannot flood the log. Default `1024`.
   */
  maxPathLength?: number
}

const NAME = 'logger'
const KNOWN = ['exclude', 'sink', 'format', 'redact', 'serverTiming', 'maxPathLength'] as const
/** Longest method and request ID written; real ones are far shorter. */
const MAX_METHOD = 32
const MAX_ID = 256
type Level = 'info' | 'warn' | 'error'

/**
 * Writes one line per finished request: `METHOD /path STATUS DURATIONms`, followed by the request
 * ID when `requestId()` put one in the context; with `format: 'json'`, one JSON object that also
 * lists what every Palisade middleware decided (`decisions`). The query string is never logged
 * (it carries tokens), nor the values of `;name=value` path parameters (`;jsessionid=…`), nor
 * headers, and paths longer than `maxPathLength` are cut. A request whose handler threw is logged
 * with the status the client got (500, or the `HTTPException`'s status), and the error still
 * reaches `app.onError`. `c.get('log')` is a logger whose lines carry the same `reqId`; what it is
 * given is copied with the values of secret headers redacted, wherever they sit (see `redact`).
 *
 * Register it first: a middleware's decision is recorded only when a consumer (this logger, or
 * `otel()`) ran before it. The text line reads the outcomes only (for its dry-run marker), so
 * they are recorded without a clock read; JSON, Server-Timing and `otel()` time them.
 *
 * @param options.exclude default `[]`; exact paths and `prefix/*` patterns
 * @param options.sink default `console.log`; a function or a pino-shaped `{ info, warn, error }`
 * @param options.format default `'text'`
 * @param options.redact default `[]` (the built-in secret headers are always redacted)
 * @param options.serverTiming default `false`
 * @param options.maxPathLength default `1024` characters
 * @example
 * ```ts
 * app.use('*', logger({ format: 'json' }))
 * app.use('*', requestId())
 * app.get('/', (c) => {
 *   c.get('log').info({ user: 42 }, 'hello')
 *   return c.text('ok')
 * })
 * // {"time":1764097507000,"level":"info","msg":"GET / 200 3ms","reqId":"…","req":{"method":"GET","path":"/"},…}
 * ```
 */
export function logger(options?: LoggerOptions): MiddlewareHandler {
  assertKnownKeys(NAME, options, KNOWN)
  const o = options ?? {}
  const exclude = pathPatterns(NAME, 'exclude', o.exclude ?? [])
  const maxPathLength = assertPositiveInteger(NAME, 'maxPathLength', o.maxPathLength ?? 1024)
  const json = assertOneOf(NAME, 'format', o.format ?? 'text', ['text', 'json'] as const) === 'json'
  const serverTiming = assertBoolean(NAME, 'serverTiming', o.serverTiming ?? false)
  const secrets = secretNames(assertStringArray(NAME, 'redact', o.redact ?? []))
  const target = isLogTarget(o.sink) ? o.sink : undefined
  const sink =
    target === undefined
      ? assertFunction<(line: string) => void>(
          NAME,
          'sink',
          o.sink ?? ((line: string) => console.log(line)),
        )
      : undefined

  function excluded(path: string): boolean {
    return !exclude.empty && exclude.matches(path)
  }

  function emit(level: Level, entry: Record<string, unknown>, msg: string): void {
    try {
      if (target !== undefined) target[level](entry, msg)
      else (sink as (line: string) => void)(JSON.stringify(entry))
    } catch {
      // A failing log sink must not turn a served request into an error.
    }
  }

  function write(
    c: Context,
    path: string,
    status: number,
    start: number,
    record: DecisionRecord,
  ): void {
    const elapsed = performance.now() - start
    const ms = Math.round(elapsed)
    const rawId = (c.get as (key: string) => unknown)('requestId')
    const id = typeof rawId === 'string' && rawId ? bound(rawId, MAX_ID) : undefined
    const method = bound(c.req.method, MAX_METHOD)
    const logged = bound(redactPathParams(path), maxPathLength)
    if (!json) {
      const dry = dryRuns(record)
      // Escaped part by part, only what came from outside (the status and the duration are
      // numbers, the rest is ours): the same text as escaping the whole line, without flattening
      // and scanning it.
      const text = `${escapeControl(method)} ${escapeControl(logged)} ${status} ${ms}ms${id ? ` ${escapeControl(id)}` : ''}${dry ? ` dry-run=${escapeControl(dry)}` : ''}`
      try {
        if (target !== undefined) target[levelOf(status)]({}, text)
        else (sink as (line: string) => void)(text)
      } catch {
        // A failing log sink must not turn a served request into an error.
      }
      return
    }
    const line = `${method} ${logged} ${status} ${ms}ms`
    const level = levelOf(status)
    const entry: Record<string, unknown> = target ? {} : { time: Date.now(), level, msg: line }
    if (id) entry.reqId = id
    entry.req = { method, path: logged }
    entry.res = { status }
    entry.responseTime = Math.round(elapsed * 1000) / 1000
    entry.decisions = record.decisions
    emit(level, entry, line)
  }

  /** After the chain: the line of a request that was answered. */
  const answered = (c: Context, path: string, start: number, record: DecisionRecord): void => {
    settle(record, c.error)
    if (serverTiming) setServerTiming(c, record, start)
    write(c, path, c.res.status, start, record)
  }
  /** After the chain: the line of a request whose chain threw, then the error passed on. */
  const threw = (
    c: Context,
    path: string,
    start: number,
    record: DecisionRecord,
    err: unknown,
  ): never => {
    settle(record, err)
    write(c, path, err instanceof HTTPException ? err.status : 500, start, record)
    throw err
  }

  // Without an async frame: the line is chained on next()'s own promise; an error is still a
  // rejected promise, never a synchronous throw.
  return function logger(c, next) {
    try {
      const path = rawPath(c.req.url)
      if (excluded(path)) return passOn(next)
      // The text line reads the decisions too, untimed: it names the dry runs.
      const record = installDecisions(c, json || serverTiming)
      c.set('log', new RequestLog(c, json, secrets, sink, target))
      const start = performance.now()
      let pending: Promise<void>
      try {
        pending = next()
      } catch (err) {
        pending = Promise.reject(err)
      }
      return pending.then(
        () => answered(c, path, start, record),
        (err: unknown) => threw(c, path, start, record, err),
      )
    } catch (err) {
      return Promise.reject(err)
    }
  }
}

/** `rateLimit:rate_limited,csrf:csrf_token_invalid`: who would have refused, with which code. */
function dryRuns(record: DecisionRecord): string {
  let out = ''
  for (const d of record.decisions) {
    if (d.outcome === 'dry-run') out += `${out ? ',' : ''}${d.middleware}:${d.code ?? ''}`
  }
  return out
}

function levelOf(status: number): Level {
  return status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info'
}

function isLogTarget(sink: unknown): sink is LogTarget {
  return (
    sink !== null &&
    typeof sink === 'object' &&
    typeof (sink as LogTarget).info === 'function' &&
    typeof (sink as LogTarget).warn === 'function' &&
    typeof (sink as LogTarget).error === 'function'
  )
}

/** `Server-Timing: rateLimit;dur=0.21, csrf;dur=0.05, handler;dur=3.4` (durations in ms). */
function setServerTiming(c: Context, record: DecisionRecord, start: number): void {
  const end = performance.now()
  const parts: string[] = []
  for (const d of record.decisions) {
    if (d.ms !== undefined) parts.push(`${d.middleware};dur=${d.ms}`)
  }
  const handlerStart = lastDecisionEnd(record) || start
  parts.push(`handler;dur=${Math.round((end - handlerStart) * 1000) / 1000}`)
  editResponseHeaders(c, (h) => h.append('server-timing', parts.join(', ')))
}

/**
 * `c.get('log')`: writes through the logger's sink (or a pino child) with the request's `reqId`,
 * looked up when a line is written, so it also works when requestId() runs after the logger.
 */
class RequestLog implements RequestLogger {
  #child: LogTarget | undefined
  constructor(
    private readonly c: Context,
    private readonly json: boolean,
    private readonly secrets: ReadonlySet<string>,
    private readonly sink: ((line: string) => void) | undefined,
    private readonly target: LogTarget | undefined,
  ) {}

  info(fields: Record<string, unknown> | Error | string, msg?: string): void {
    this.write('info', fields, msg)
  }
  warn(fields: Record<string, unknown> | Error | string, msg?: string): void {
    this.write('warn', fields, msg)
  }
  error(fields: Record<string, unknown> | Error | string, msg?: string): void {
    this.write('error', fields, msg)
  }

  private write(
    level: Level,
    fields: Record<string, unknown> | Error | string,
    msg?: string,
  ): void {
    const clean = typeof fields === 'string' ? {} : redactFields(fields, this.secrets)
    // Without a message, an error's message is the line's, as pino does.
    const err = clean.err as { message?: unknown } | undefined
    const text =
      typeof fields === 'string'
        ? fields
        : (msg ?? (typeof err?.message === 'string' ? err.message : ''))
    const rawId = (this.c.get as (key: string) => unknown)('requestId')
    const reqId = typeof rawId === 'string' && rawId ? bound(rawId, MAX_ID) : undefined
    try {
      if (this.target !== undefined) {
        if (this.target.child && reqId) {
          this.#child ??= this.target.child({ reqId })
          this.#child[level](clean, text)
        } else this.target[level](reqId ? { reqId, ...clean } : clean, text)
        return
      }
      const sink = this.sink as (line: string) => void
      if (this.json) {
        sink(JSON.stringify({ time: Date.now(), level, msg: text, reqId, ...clean }))
      } else {
        const extra = Object.keys(clean).length > 0 ? ` ${JSON.stringify(clean)}` : ''
        sink(escapeControl(`${level.toUpperCase()} ${text}${extra}${reqId ? ` ${reqId}` : ''}`))
      }
    } catch {
      // A failing log sink must not turn a served request into an error.
    }
  }
}

/** Cuts `text` to `max` characters, marking how many were left out. */
function bound(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…[+${text.length - max}]`
}
