import type { JSONWebKeySet } from 'jose'
import { createLocalJWKSet } from 'jose/jwks/local'
import { BoundedCache } from '../internal/bounded-cache'
import { parseIPv4 } from '../internal/ip'
import {
  assertKnownKeys,
  assertPositiveInteger,
  formatValue,
  optionError,
} from '../internal/options'
import { isJoseError, type KeySource } from './keys'

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

/** A fetch failed, timed out or answered something unusable, and no usable keys are left. */
export class JwksUnavailableError extends Error {
  constructor(message = 'JWKS unavailable') {
    super(message)
    this.name = 'JwksUnavailableError'
  }
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
      fail(new JwksUnavailableError('JWKS fetch timed out'))
    }, timeoutMs)
  })
  const read = async (): Promise<unknown> => {
    const res = await fetchImpl(url, {
      method: 'GET',
      redirect: 'manual',
      signal: controller.signal,
      headers: { accept: 'application/json, application/jwk-set+json' },
    })
    const declared = Number(res.headers.get('content-length') ?? 0)
    if (res.status !== 200 || res.body === null || declared > JWKS_MAX_BYTES) {
      await res.body?.cancel().catch(() => {})
      throw new JwksUnavailableError(`JWKS fetch answered ${res.status}`)
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
        throw new JwksUnavailableError('JWKS response too large')
      }
      chunks.push(value)
    }
    const bytes = new Uint8Array(size)
    let offset = 0
    for (const chunk of chunks) {
      bytes.set(chunk, offset)
      offset += chunk.byteLength
    }
    return JSON.parse(new TextDecoder().decode(bytes))
  }
  try {
    return await Promise.race([read(), timeout])
  } finally {
    clearTimeout(timer)
  }
}

type LocalSet = ReturnType<typeof createLocalJWKSet>

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
  #keys: LocalSet | undefined
  #fetchedAt = Number.NEGATIVE_INFINITY
  #attemptAt = Number.NEGATIVE_INFINITY
  #generation = 0
  #pending: Promise<void> | undefined
  /** The discovered `jwks_uri`, kept while fetches from it succeed. */
  #jwksUrl: string | undefined

  constructor(source: RemoteSource, settings: Required<JwksCacheOptions>, fetchImpl: JwksFetch) {
    this.#source = source
    this.#settings = settings
    this.#fetch = fetchImpl
    this.#jwksUrl = 'jwksUrl' in source ? source.jwksUrl : undefined
  }

  /** The generation of the keys while they are within max age, else `-1`. */
  generation(): number {
    return Date.now() - this.#fetchedAt < this.#settings.maxAgeMs ? this.#generation : -1
  }

  /** The key for a token header (jose's key-resolver shape). */
  async key(header: { alg?: string; kid?: string }, token: unknown): Promise<CryptoKey> {
    const { maxAgeMs, maxStaleMs, cooldownMs } = this.#settings
    if (this.#keys === undefined || Date.now() - this.#fetchedAt >= maxAgeMs) {
      // Expired or never fetched: one fetch for everyone, at most once per cooldown when the
      // provider keeps failing; in between, stale keys (or a 503) answer without a fetch.
      if (this.#pending !== undefined || Date.now() - this.#attemptAt >= cooldownMs) {
        await this.#join(this.#refresh()).catch(() => {})
      }
      if (this.#keys === undefined || Date.now() - this.#fetchedAt >= maxAgeMs + maxStaleMs) {
        throw new JwksUnavailableError()
      }
    }
    const keys = this.#keys
    try {
      return await keys(header, token as never)
    } catch (err) {
      if (!isJoseError(err, 'ERR_JWKS_NO_MATCHING_KEY') || header.kid === undefined) throw err
      // An unknown kid: perhaps the provider rotated. One refetch per cooldown, shared.
      if (this.#pending === undefined && Date.now() - this.#attemptAt < cooldownMs) throw err
      await this.#join(this.#refresh()).catch(() => {})
      if (this.#keys === keys) throw err
      return this.#keys(header, token as never)
    }
  }

  /**
   * Waits for the shared fetch, but never longer than `timeoutMs` on this caller's own timer. On
   * Workers the fetch belongs to the request that started it; if that request is cancelled, the
   * others waiting on it must get their answer (stale keys or 503), not hang.
   */
  #join(pending: Promise<void>): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const own = new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(new JwksUnavailableError()), this.#settings.timeoutMs)
    })
    return Promise.race([pending, own]).finally(() => clearTimeout(timer))
  }

  #refresh(): Promise<void> {
    if (this.#pending === undefined) {
      this.#attemptAt = Date.now()
      const pending = this.#load()
        .then((keys) => {
          this.#keys = keys
          this.#fetchedAt = Date.now()
          this.#generation++
        })
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
      const doc = (await fetchJson(discoveryUrl(issuer), timeoutMs, this.#fetch)) as {
        issuer?: unknown
        jwks_uri?: unknown
      } | null
      // OpenID Connect Discovery §4.3: the document must name the issuer it was read for.
      if (doc === null || typeof doc !== 'object' || doc.issuer !== issuer) {
        throw new JwksUnavailableError('discovery document of another issuer')
      }
      const jwksUri = typeof doc.jwks_uri === 'string' ? allowedUrl(doc.jwks_uri) : null
      if (jwksUri === null)
        throw new JwksUnavailableError('discovery: jwks_uri missing or not https')
      url = jwksUri.href
    }
    try {
      const json = (await fetchJson(url as string, timeoutMs, this.#fetch)) as JSONWebKeySet
      if (!Array.isArray(json?.keys) || json.keys.length > JWKS_MAX_KEYS) {
        throw new JwksUnavailableError('JWKS malformed or with too many keys')
      }
      const set = createLocalJWKSet(json)
      this.#jwksUrl = url
      return set
    } catch (err) {
      // A discovered jwks_uri that stopped answering is discovered again next time.
      if ('issuer' in this.#source) this.#jwksUrl = undefined
      throw err
    }
  }
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
  ].join('\n')
  let set = registry.get(id)
  if (set === undefined) {
    set = new RemoteKeySet(source, settings, fetchImpl ?? platformFetch)
    registry.set(id, set)
  }
  const shared = set
  return {
    key: (header, token) => shared.key(header, token),
    generation: () => shared.generation(),
  }
}
