import type { CookieSettings } from '../internal/cookies/cookie'
import {
  assertCookieName,
  assertCookieSettings,
  MAX_COOKIE_AGE,
} from '../internal/cookies/cookie-settings'
import {
  assertSecretList,
  type CookieSigner,
  createCookieSigner,
} from '../internal/cookies/cookie-signing'
import {
  assertBoolean,
  assertKnownKeys,
  assertNonEmptyString,
  assertPositiveInteger,
  optionError,
} from '../internal/options'
import { assertNoDryRun } from '../internal/outcomes/reject-or-record'
import { META_KEY } from './session-data'
import type { SessionData, SessionStore } from './store'

/**
 * Options of {@link sessions}.
 *
 * @example
 * const options: SessionsOptions = {
 *   secret: process.env.SESSION_SECRET!,
 *   cookieName: '__Host-sid',
 *   maxAge: 30 * 60, // idle timeout with rolling: 30 minutes without a request
 *   rolling: true,
 *   absoluteTimeout: 12 * 3600, // logged out 12 hours after login, however active
 * }
 * app.use(sessions(options))
 */
export interface SessionsOptions {
  /**
   * HMAC secret(s) for the cookie signature (required, at least 32 characters each). With a list,
   * the first signs, all verify.
   */
  secret: string | string[]
  /** Cookie name. Default `'sid'`; `'__Host-sid'` is recommended on https (see the README). */
  cookieName?: string
  /**
   * Lifetime in seconds of the store entry and the cookie, counted from the last save. Without
   * `rolling` a save happens when the data changes; with it, on every request. Default `86400`.
   */
  maxAge?: number
  /**
   * Save on every request that carries a valid session, so `maxAge` becomes an idle timeout.
   * Default `false`.
   */
  rolling?: boolean
  /**
   * Seconds after creation (or `regenerate()`) at which the session ends, however active it is.
   * Unset: no absolute limit.
   */
  absoluteTimeout?: number
  /** Session store. Default: a `MemorySessionStore` per middleware, created on first use. */
  store?: SessionStore
  /** Context key of the {@link Session}. Default `'session'`. */
  contextKey?: string
  /**
   * Cookie attributes. Defaults: `HttpOnly`, `SameSite=Lax`, `Path=/`, `Secure` on https.
   * `httpOnly: false` is refused: scripts never need the session ID, and an XSS could steal it.
   */
  cookie?: Pick<CookieSettings, 'httpOnly' | 'secure' | 'sameSite' | 'path' | 'domain'>
}

const KNOWN = [
  'secret',
  'cookieName',
  'maxAge',
  'rolling',
  'absoluteTimeout',
  'store',
  'contextKey',
  'cookie',
] as const

/** The options of one `sessions` middleware, checked once at construction. */
export interface SessionsConfig {
  cookieName: string
  maxAge: number
  rolling: boolean
  absoluteTimeout: number | undefined
  contextKey: string
  settings: CookieSettings
  signer: CookieSigner
  /** The store given, or `undefined` for a `MemorySessionStore` created on first use. */
  store: SessionStore | undefined
}

/** Validates the options of `sessions`; a bad one throws a `TypeError` starting `sessions:`. */
export function sessionsConfig(options: SessionsOptions): SessionsConfig {
  const factory = 'sessions'
  if (options === undefined) throw optionError(factory, '"secret" is required')
  assertNoDryRun(factory, options)
  assertKnownKeys(factory, options, KNOWN)
  const secrets = assertSecretList(factory, options.secret)
  const cookieName = assertCookieName(factory, 'cookieName', options.cookieName ?? 'sid')
  const maxAge = assertPositiveInteger(factory, 'maxAge', options.maxAge ?? 86_400)
  if (maxAge > MAX_COOKIE_AGE) {
    throw optionError(factory, `"maxAge" must be at most ${MAX_COOKIE_AGE} seconds (400 days)`)
  }
  const rolling =
    options.rolling === undefined ? false : assertBoolean(factory, 'rolling', options.rolling)
  const absoluteTimeout =
    options.absoluteTimeout === undefined
      ? undefined
      : assertPositiveInteger(factory, 'absoluteTimeout', options.absoluteTimeout)
  const contextKey = assertNonEmptyString(factory, 'contextKey', options.contextKey ?? 'session')
  const settings = assertCookieSettings(factory, cookieName, options.cookie, [
    'httpOnly',
    'secure',
    'sameSite',
    'path',
    'domain',
  ])
  if (settings.httpOnly === false) {
    throw optionError(
      factory,
      '"cookie.httpOnly" cannot be false: scripts never need the session ID, and an XSS could steal it',
    )
  }
  const store = options.store
  if (
    store !== undefined &&
    (store === null ||
      typeof store !== 'object' ||
      typeof store.get !== 'function' ||
      typeof store.set !== 'function' ||
      typeof store.destroy !== 'function' ||
      (store.update !== undefined && typeof store.update !== 'function'))
  ) {
    throw optionError(factory, '"store" must be a SessionStore with get, set and destroy')
  }
  const signer = createCookieSigner(secrets, 'sessions')
  return { cookieName, maxAge, rolling, absoluteTimeout, contextKey, settings, signer, store }
}

/** Seconds the store entry and cookie live from now: `maxAge`, capped by the absolute limit. */
export function sessionLifetime(
  { maxAge, absoluteTimeout }: SessionsConfig,
  created: number | undefined,
  now: number,
): number {
  if (absoluteTimeout === undefined || created === undefined) return maxAge
  const left = Math.ceil((created + absoluteTimeout * 1000 - now) / 1000)
  return Math.max(1, Math.min(maxAge, left))
}

/** Whether stored data is older than `absoluteTimeout` (never, without one). */
export function isPastAbsolute(
  { absoluteTimeout }: SessionsConfig,
  data: SessionData,
  now: number,
): boolean {
  if (absoluteTimeout === undefined) return false
  const created = (data[META_KEY] as { created?: unknown } | undefined)?.created
  return typeof created === 'number' && now - created >= absoluteTimeout * 1000
}
