import type { CookieSettings } from '../internal/cookies/cookie'
import { assertCookieName, assertCookieSettings } from '../internal/cookies/cookie-settings'
import {
  assertSecretList,
  type CookieSigner,
  createCookieSigner,
} from '../internal/cookies/cookie-signing'
import { TOKEN as HTTP_TOKEN } from '../internal/http/header-syntax'
import {
  assertBoolean,
  assertFunction,
  assertKnownKeys,
  assertNonEmptyString,
  assertStringArray,
  optionError,
} from '../internal/options'

/**
 * Options of {@link csrf}.
 *
 * @example
 * const options: CsrfOptions = {
 *   secret: process.env.CSRF_SECRET!,
 *   origins: ['https://app.example.com'],
 * }
 * app.use(csrf(options))
 */
export interface CsrfOptions {
  /** Cookie carrying the token. Default `'XSRF-TOKEN'`. */
  cookieName?: string
  /** Header the client echoes the token in. Default `'X-XSRF-Token'`. */
  headerName?: string
  /** Body field read when the header is absent (JSON, urlencoded, multipart). Default `'_csrf'`. */
  bodyField?: string
  /** Methods that are never checked. Default `['GET', 'HEAD', 'OPTIONS', 'QUERY']`. */
  safeMethods?: string[]
  /** Random token source. Default `crypto.randomUUID()`. */
  generateToken?: () => string
  /** Cookie attributes. Defaults: readable by scripts, `SameSite=Lax`, `Path=/`, `Secure` on https. */
  cookie?: CookieSettings
  /**
   * HMAC secret(s), at least 32 characters each: tokens become `<random>.<signature>` and a
   * cookie this server did not sign (one planted by a sibling subdomain, say) is rejected and
   * replaced. When `sessions()` runs before `csrf()`, the signature also covers the session ID,
   * so a token works only with the session it was issued to. First signs, all verify.
   */
  secret?: string | string[]
  /**
   * Allowed origins (`https://app.example.com`). An unsafe request whose `Origin` (or, without
   * one, `Referer`) is not listed is rejected before the token is looked at. Unset: the origin
   * must have the request's own host.
   */
  origins?: string[]
  /**
   * Report instead of refuse: an unsafe request without a valid token passes, and its decision
   * is `dry-run` (`csrf_token_invalid`). Default `false`.
   */
  dryRun?: boolean
}

/**
 * `csrf`'s options, checked once at construction, with their defaults filled in. Frozen: the
 * request path reads it, never changes it.
 */
export interface CsrfConfig {
  readonly cookieName: string
  /** The header name as given (described), and lowercased (read on every request). */
  readonly headerName: string
  readonly headerKey: string
  readonly bodyField: string
  /** Upper case. */
  readonly safeMethods: ReadonlySet<string>
  readonly generateToken: () => string
  readonly settings: CookieSettings
  /** Signs and verifies tokens; `undefined` without a `secret`. */
  readonly signer: CookieSigner | undefined
  /** Allowed origins, normalised; `undefined`: the request's own host. */
  readonly origins: ReadonlySet<string> | undefined
  readonly dryRun: boolean
}

export const FACTORY = 'csrf'

const KNOWN = [
  'cookieName',
  'headerName',
  'bodyField',
  'safeMethods',
  'generateToken',
  'cookie',
  'secret',
  'origins',
  'dryRun',
] as const

/**
 * Checks `options` and returns the frozen configuration, or throws the first problem found (in
 * the order of the checks below, which is the order the error messages were written for).
 */
export function csrfConfig(options: CsrfOptions): CsrfConfig {
  assertKnownKeys(FACTORY, options, KNOWN)
  const dryRun = assertBoolean(FACTORY, 'dryRun', options.dryRun ?? false)
  const cookieName = assertCookieName(FACTORY, 'cookieName', options.cookieName ?? 'XSRF-TOKEN')
  const headerName = assertNonEmptyString(
    FACTORY,
    'headerName',
    options.headerName ?? 'X-XSRF-Token',
  )
  if (!HTTP_TOKEN.test(headerName)) {
    throw optionError(FACTORY, '"headerName" must be a valid header name')
  }
  const bodyField = assertNonEmptyString(FACTORY, 'bodyField', options.bodyField ?? '_csrf')
  const safeMethods = new Set(
    assertStringArray(
      FACTORY,
      'safeMethods',
      options.safeMethods ?? ['GET', 'HEAD', 'OPTIONS', 'QUERY'],
    ).map((m) => m.toUpperCase()),
  )
  const generateToken =
    options.generateToken === undefined
      ? () => crypto.randomUUID()
      : assertFunction<() => string>(FACTORY, 'generateToken', options.generateToken)
  const settings = assertCookieSettings(FACTORY, cookieName, options.cookie, [
    'httpOnly',
    'secure',
    'sameSite',
    'path',
    'domain',
    'maxAge',
  ])
  const signer =
    options.secret === undefined
      ? undefined
      : createCookieSigner(assertSecretList(FACTORY, options.secret), 'csrf')
  const origins = options.origins === undefined ? undefined : originsOption(options.origins)
  return Object.freeze({
    cookieName,
    headerName,
    // Lowercased once: Headers.get would lowercase the name on every request.
    headerKey: headerName.toLowerCase(),
    bodyField,
    safeMethods,
    generateToken,
    settings,
    signer,
    origins,
    dryRun,
  })
}

/** The `origins` option as a set of origins; each entry must be an origin already. */
function originsOption(value: unknown): Set<string> {
  return new Set(
    assertStringArray(FACTORY, 'origins', value, { allowEmpty: false }).map((o) => {
      let parsed: URL | undefined
      try {
        parsed = new URL(o)
      } catch {
        parsed = undefined
      }
      if (
        !parsed ||
        parsed.origin === 'null' ||
        parsed.origin !== o.replace(/\/$/, '').toLowerCase()
      ) {
        throw optionError(
          FACTORY,
          `"origins" entries must be origins like "https://app.example.com", got ${JSON.stringify(o)}`,
        )
      }
      return parsed.origin
    }),
  )
}
