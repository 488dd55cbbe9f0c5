import type { JSONWebKeySet } from 'jose'
import { BoundedCache } from '../caches/bounded-cache'
import { joinChunks } from '../http/chunks'
import { parseIPv4 } from '../network/ip'
import { assertKnownKeys, assertPositiveInteger, formatValue, optionError } from '../options'
import { isJoseError, type KeySource } from './key-source'

/**
 * A remote JWKS, shared by jwtAuth (`jwks` URL, discovery) and httpSignature (`keys` URL): fetched
 * on first use, cached, single-flight, bounded in time, size and key count, `https` except
 * loopback, stale keys served through an outage up to a limit.
 */

/**
 * How `jwtAuth` caches a remote JWKS. Every value is milliseconds.
 *
 * @example
 * const jwksCache: JwksCacheOptions = { maxAgeMs: 300_000, maxStaleMs: 6 * 3_600_000 }
 * app.use('/api/*', jwtAuth({ issuer: 'https://auth.example.com/', discovery: true, jwksCache }))
 */
export interface JwksCacheOptions {
  /** Keys are fetched again once they are this old. Default `600000` (10 minutes). */
  maxAgeMs?: number
  /**
   * Shortest time between two fetches: a token with an unknown `kid` triggers a refetch only
   * when the last attempt is older than this, and a failed attempt is retried only after it.
   * Default `30000` (30 seconds).
   */
  cooldownMs?: number
  /**
   * When the provider cannot be reached, keys past their max age keep verifying for this long
   * (counted from the end of their max age); after that, requests get 503 `jwks_unavailable`.
   * Default `3600000` (1 hour).
   */
  maxStaleMs?: number
  /** Longest wait for one fetch, body included. Default `5000`. */
  timeoutMs?: number
}

/**
 * The `fetch` a JWKS is read with: the platform's own by default. Give one to route the fetch
 * through a proxy, a service binding or a test server.
 *
 * @example
 * const fetchVia: JwksFetch = (url, init) => env.AUTH.fetch(url, init)
 */
export type JwksFetch = (input: string, init: RequestInit) => Promise<Response> | Response

export const JWKS_CACHE_DEFAULTS: Readonly<Required<JwksCacheOptions>> = {
  maxAgeMs: 600_000,
  cooldownMs: 30_000,
  maxStaleMs: 3_600_000,
  timeoutMs: 5_000,
}
/** Largest JWKS or discovery document read, in bytes: real ones are a few kilobytes. */
export const JWKS_MAX_BYTES = 256 * 1024
/** Most keys a fetched JWKS may hold; a larger set is refused whole. */
export const JWKS_MAX_KEYS = 100

/**
 * A fetch of the key set failed, timed out or answered something unusable. Its message names the
 * URL and what went wrong (for the operator: `onKeySetError`, the warning, the decision record;
 * the client only ever sees `Service Unavailable`).
 */
export class JwksUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'JwksUnavailableError'
  }
}

/** What a thrown value says, with the cause a platform fetch hides behind "fetch failed". */
function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err)
  const cause = err.cause instanceof Error ? err.cause.message : undefined
  return cause === undefined || cause === err.message ? err.message : `${err.message}: ${cause}`
}

/** `err` as a {@link JwksUnavailableError} that says what it was. */
function unavailable(err: unknown): JwksUnavailableError {
  return err instanceof JwksUnavailableError
    ? err
    : new JwksUnavailableError(`fetching the key set failed: ${reasonOf(err)}`, { cause: err })
}

/** A value from a provider's document, quoted and cut short for a message. */
function quoted(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}

/** True for `localhost`, `127.0.0.0/8` and `[::1]` (hostnames as `URL` spells them). */
export function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true
  const v4 = parseIPv4(hostname)
  return v4 !== null && Math.floor(v4 / 2 ** 24) === 127
}

/** `https`, or `http` on loopback only; no credentials in the URL. `null` when it is not. */
function allowedUrl(value: string | URL): URL | null {
  let url: URL
  try {
    url = new URL(value instanceof URL ? value.href : value)
  } catch {
    return null
  }
  if (url.username !== '' || url.password !== '') return null
  const ok = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))
  return ok ? url : null
}

/** Validates a remote URL option at construction (`https`, or `http` on loopback). */
export function remoteUrl(factory: string, name: string, value: unknown): URL {
  const url = typeof value === 'string' || value instanceof URL ? allowedUrl(value) : null
  if (url === null) {
    throw optionError(
      factory,
      `"${name}" must be an https URL without credentials (http only on localhost, 127.0.0.0/8 or [::1]), got ${formatValue(value instanceof URL ? value.href : value)}`,
    )
  }
  url.hash = ''
  return url
}

/** The OpenID discovery document of an issuer (OpenID Connect Discovery 1.0 §4). */
export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`
}

/** Validates `jwksCache` and fills in the defaults. */
export function jwksCacheSettings(factory: string, value: unknown): Required<JwksCacheOptions> {
  if (value === undefined) return JWKS_CACHE_DEFAULTS
  if (typeof value !== 'object' || value === null) {
    throw optionError(factory, '"jwksCache" must be an object')
  }
  assertKnownKeys(factory, value, ['maxAgeMs', 'cooldownMs', 'maxStaleMs', 'timeoutMs'])
  const out = { ...JWKS_CACHE_DEFAULTS }
  for (const key of Object.keys(out) as (keyof JwksCacheOptions)[]) {
    const v = (value as JwksCacheOptions)[key]
    if (v !== undefined) out[key] = assertPositiveInteger(factory, `jwksCache.${key}`, v)
  }
  return out
}

/**
 * GETs `url` and parses its JSON, bounded: `timeoutMs` for headers and body together (also
 * when the injected fetch ignores the abort signal), at most {@link JWKS_MAX_BYTES} read, no
 * redirects followed (a redirect could leave https).
 */
async function fetchJson(url: string, timeoutMs: number, fetchImpl: JwksFetch): Promise<unknown> {
  const controller = new AbortController()
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => {
      controller.abort()
      fail(new JwksUnavailableError(`${url} did not answer within ${timeoutMs} ms`))
    }, timeoutMs)
  })
  const read = async (): Promise<unknown> => {
    let res: Response
    try {
      res = await fetchImpl(url, {
        method: 'GET',
        // Never followed: a redirect could leave https, or lead to keys nobody configured.
        redirect: 'manual',
        signal: controller.signal,
        headers: { accept: 'application/json, application/jwk-set+json' },
      })
    } catch (err) {
      throw new JwksUnavailableError(`fetching ${url} failed: ${reasonOf(err)}`, { cause: err })
    }
    const declared = Number(res.headers.get('content-length') ?? 0)
    // Only a 200 carries the document: a 201/203/206 is not it, and a 3xx is not followed.
    if (res.status !== 200 || res.body === null || declared > JWKS_MAX_BYTES) {
      await res.body?.cancel().catch(() => {})
      const redirect = res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)
      throw new JwksUnavailableError(
        res.status !== 200
          ? `${url} answered ${res.status}${redirect ? ', a redirect (never followed)' : ''}; only a 200 is accepted`
          : res.body === null
            ? `${url} answered 200 without a body`
            : `${url} announced ${declared} bytes, more than the ${JWKS_MAX_BYTES} read`,
      )
    }
    const reader = res.body.getReader()
    const chunks: Uint8Array[] = []
    let size = 0
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > JWKS_MAX_BYTES) {
        await reader.cancel().catch(() => {})
        throw new JwksUnavailableError(`${url} answered more than ${JWKS_MAX_BYTES} bytes`)
      }
      chunks.push(value)
    }
    try {
      return JSON.parse(new TextDecoder().decode(joinChunks(chunks, size)))
    } catch {
      throw new JwksUnavailableError(`${url} answered something that is not JSON`)
    }
  }
  try {
    return await Promise.race([read(), timeout])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * A fetched key set, as the feature reads it: the key for a header (`kid`, `alg`). It throws an
 * error with jose's code `ERR_JWKS_NO_MATCHING_KEY` for an unknown `kid`, which makes the remote
 * set refetch (once per cooldown). jwtAuth uses jose's local JWKS; httpSignature its own lookup,
 * where the key decides the algorithm.
 */
export type LocalSet = (
  header: { alg?: string; kid?: string },
  token: unknown,
) => Promise<CryptoKey>

/** Builds a {@link LocalSet} from a fetched JWKS; throws when the set is unusable. */
export type LocalSetBuilder = (jwks: JSONWebKeySet) => LocalSet

/** Where a remote key set comes from: a JWKS URL, or an issuer's discovery document. */
export type RemoteSource = { jwksUrl: string } | { issuer: string }

/**
 * A JWKS fetched on first use and cached: single-flight, refetched after max age, refetched for
 * an unknown `kid` at most once per cooldown, served stale through an outage up to a limit.
 */
export class RemoteKeySet {
  readonly #source: RemoteSource
  readonly #settings: Required<JwksCacheOptions>
  readonly #fetch: JwksFetch
  readonly #build: LocalSetBuilder
  #keys: LocalSet | undefined
  #fetchedAt = Number.NEGATIVE_INFINITY
  #attemptAt = Number.NEGATIVE_INFINITY
  #generation = 0
  #pending: Promise<void> | undefined
  /** Why the last fetch failed; `undefined` once one succeeds (the outage is over). */
  #failure: JwksUnavailableError | undefined
  /** The discovered `jwks_uri`, kept while fetches from it succeed. */
  #jwksUrl: string | undefined

  constructor(
    source: RemoteSource,
    settings: Required<JwksCacheOptions>,
    fetchImpl: JwksFetch,
    build: LocalSetBuilder,
  ) {
    this.#build = build
    this.#source = source
    this.#settings = settings
    this.#fetch = fetchImpl
    this.#jwksUrl = 'jwksUrl' in source ? source.jwksUrl : undefined
  }

  /** The generation of the keys while they are within max age, else `-1`. */
  generation(): number {
    return Date.now() - this.#fetchedAt < this.#settings.maxAgeMs ? this.#generation : -1
  }

  /** Why the last fetch failed, while no later one has succeeded. */
  failure(): JwksUnavailableError | undefined {
    return this.#failure
  }

  /**
   * The key for a token header (jose's key-resolver shape). Throws a
   * {@link JwksUnavailableError} when no usable keys are left; `failed` hears of a fetch failure
   * this request met and got past (stale keys served, an unknown `kid` not refetched).
   */
  async key(
    header: { alg?: string; kid?: string },
    token: unknown,
    failed?: (error: JwksUnavailableError) => void,
  ): Promise<CryptoKey> {
    const { maxAgeMs, maxStaleMs, cooldownMs } = this.#settings
    if (this.#keys === undefined || Date.now() - this.#fetchedAt >= maxAgeMs) {
      // Expired or never fetched: one fetch for everyone, at most once per cooldown when the
      // provider keeps failing; in between, stale keys (or a 503) answer without a fetch.
      let failure = this.#failure
      if (this.#pending !== undefined || Date.now() - this.#attemptAt >= cooldownMs) {
        failure = await this.#attempt()
      }
      if (this.#keys === undefined || Date.now() - this.#fetchedAt >= maxAgeMs + maxStaleMs) {
        throw failure ?? this.#failure ?? new JwksUnavailableError('the key set has no usable keys')
      }
      if (failure !== undefined) failed?.(failure)
    }
    const keys = this.#keys
    try {
      return await keys(header, token as never)
    } catch (err) {
      if (!isJoseError(err, 'ERR_JWKS_NO_MATCHING_KEY') || header.kid === undefined) throw err
      // An unknown kid: perhaps the provider rotated. One refetch per cooldown, shared.
      if (this.#pending === undefined && Date.now() - this.#attemptAt < cooldownMs) {
        // Not refetched; if the last fetch failed, the kid may be a rotation we could not see.
        if (this.#failure !== undefined) failed?.(this.#failure)
        throw err
      }
      const failure = await this.#attempt()
      if (failure !== undefined) failed?.(failure)
      if (this.#keys === keys) throw err
      return this.#keys(header, token as never)
    }
  }

  /** Joins (or starts) the shared fetch: `undefined` when it succeeded, else why it failed. */
  #attempt(): Promise<JwksUnavailableError | undefined> {
    return this.#join(this.#refresh()).then(() => undefined, unavailable)
  }

  /**
   * Waits for the shared fetch, but never longer than `timeoutMs` on this caller's own timer. On
   * Workers the fetch belongs to the request that started it; if that request is cancelled, the
   * others waiting on it must get their answer (stale keys or 503), not hang.
   */
  #join(pending: Promise<void>): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const { timeoutMs } = this.#settings
    const own = new Promise<never>((_, fail) => {
      timer = setTimeout(
        () => fail(new JwksUnavailableError(`fetching the key set took over ${timeoutMs} ms`)),
        timeoutMs,
      )
    })
    return Promise.race([pending, own]).finally(() => clearTimeout(timer))
  }

  #refresh(): Promise<void> {
    if (this.#pending === undefined) {
      this.#attemptAt = Date.now()
      const pending = this.#load()
        .then(
          (keys) => {
            this.#keys = keys
            this.#fetchedAt = Date.now()
            this.#generation++
            this.#failure = undefined
          },
          (err: unknown) => {
            this.#failure = unavailable(err)
            throw this.#failure
          },
        )
        .finally(() => {
          if (this.#pending === pending) this.#pending = undefined
        })
      this.#pending = pending
    }
    return this.#pending
  }

  async #load(): Promise<LocalSet> {
    const { timeoutMs } = this.#settings
    let url = this.#jwksUrl
    if (url === undefined && 'issuer' in this.#source) {
      const issuer = this.#source.issuer
      const docUrl = discoveryUrl(issuer)
      const doc = (await fetchJson(docUrl, timeoutMs, this.#fetch)) as {
        issuer?: unknown
        jwks_uri?: unknown
      } | null
      if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
        throw new JwksUnavailableError(`the discovery document at ${docUrl} is not a JSON object`)
      }
      // OpenID Connect Discovery §4.3: the document must name the issuer it was read for.
      if (doc.issuer !== issuer)
        throw new JwksUnavailableError(issuerMismatch(docUrl, doc.issuer, issuer))
      const jwksUri = typeof doc.jwks_uri === 'string' ? allowedUrl(doc.jwks_uri) : null
      if (jwksUri === null) {
        throw new JwksUnavailableError(
          doc.jwks_uri === undefined
            ? `the discovery document at ${docUrl} has no jwks_uri`
            : `the discovery document at ${docUrl} names jwks_uri ${quoted(doc.jwks_uri)}, not an https URL (http only on loopback)`,
        )
      }
      url = jwksUri.href
    }
    try {
      const json = (await fetchJson(url as string, timeoutMs, this.#fetch)) as JSONWebKeySet
      if (!Array.isArray(json?.keys)) {
        throw new JwksUnavailableError(`${url} answered JSON without a "keys" array, not a JWKS`)
      }
      if (json.keys.length > JWKS_MAX_KEYS) {
        throw new JwksUnavailableError(
          `${url} holds ${json.keys.length} keys, more than the ${JWKS_MAX_KEYS} accepted`,
        )
      }
      let set: LocalSet
      try {
        set = this.#build(json)
      } catch (err) {
        throw new JwksUnavailableError(`${url} is not a usable JWKS: ${reasonOf(err)}`)
      }
      this.#jwksUrl = url
      return set
    } catch (err) {
      // A discovered jwks_uri that stopped answering is discovered again next time.
      if ('issuer' in this.#source) this.#jwksUrl = undefined
      throw err
    }
  }
}

/**
 * Why a discovery document was refused for naming another issuer, and the fix when the two differ
 * only by a trailing slash (`https://tenant.auth0.com/` against `https://tenant.auth0.com`): the
 * issuer must be given exactly as the provider spells it, since tokens carry it in `iss`.
 */
function issuerMismatch(docUrl: string, named: unknown, issuer: string): string {
  const text = `the discovery document at ${docUrl} names issuer ${named === undefined ? 'none' : quoted(named)}, not the configured ${quoted(issuer)}`
  if (typeof named !== 'string' || named.replace(/\/+$/, '') !== issuer.replace(/\/+$/, '')) {
    return text
  }
  // Quoted (JSON-escaped), as every value from the document is: it ends up in log lines.
  return `${text}: they differ only by a trailing slash; give issuer: ${quoted(named)}, exactly as the provider spells it (tokens carry it in iss)`
}

// Two middleware on the same URL with the same settings share one key set. Bounded, so an app
// that builds middleware per request cannot grow it without limit (an evicted set keeps working
// for the middleware that hold it, it just stops being shared).
const registry = new BoundedCache<string, RemoteKeySet>(64)
const fetchIds = new WeakMap<JwksFetch, number>()
let nextFetchId = 1

const platformFetch: JwksFetch = (input, init) => globalThis.fetch(input, init)

/** The shared key set for a source and its settings (created lazily: no I/O here). */
export function remoteKeySource(
  source: RemoteSource,
  settings: Required<JwksCacheOptions>,
  fetchImpl: JwksFetch | undefined,
  builder: { name: string; build: LocalSetBuilder },
): KeySource {
  let fetchId = 0
  if (fetchImpl !== undefined) {
    fetchId = fetchIds.get(fetchImpl) ?? nextFetchId++
    fetchIds.set(fetchImpl, fetchId)
  }
  const id = [
    'jwksUrl' in source ? `jwks ${source.jwksUrl}` : `issuer ${source.issuer}`,
    settings.maxAgeMs,
    settings.cooldownMs,
    settings.maxStaleMs,
    settings.timeoutMs,
    fetchId,
    builder.name,
  ].join('\n')
  let set = registry.get(id)
  if (set === undefined) {
    set = new RemoteKeySet(source, settings, fetchImpl ?? platformFetch, builder.build)
    registry.set(id, set)
  }
  const shared = set
  return {
    key: (header, token, failed) => shared.key(header, token, failed),
    generation: () => shared.generation(),
    failure: () => shared.failure(),
  }
}
