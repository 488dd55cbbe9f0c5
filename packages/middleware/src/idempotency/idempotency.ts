import type { Context, MiddlewareHandler } from 'hono'
import { sha256HexSyncBytes } from '../internal/crypto'
import { peekBodyBytes } from '../internal/http/json-body'
import { begin, clock, decide, storeTime } from '../internal/outcomes/decisions'
import { described } from '../internal/outcomes/described'
import { storeFor } from '../internal/stores/store-binding'
import { storeAttempt, storeFailures } from '../internal/stores/store-failure'
import { type IdempotencyRejects, reject } from './answers'
import { type IdempotencyOptions, idempotencyConfig, NAME } from './config'
import { idempotencyDescription } from './description'
import { parseIdempotencyKey } from './key'
import { MemoryIdempotencyStore } from './memory-store'
import { type Held, type Keeper, replay, settle } from './recording'
import type { IdempotencyBegin, IdempotencyStore } from './store'

export type { IdempotencyOptions } from './config'

const STATES = new Set(['acquired', 'in-flight', 'mismatch', 'completed'])

/** Inputs up to this many bytes are hashed synchronously (cheaper than a WebCrypto job). */
const SYNC_HASH_MAX = 16_384
const encoder = new TextEncoder()

/** Lower-case hex of the SHA-256 of `bytes`, through WebCrypto (for inputs over SYNC_HASH_MAX). */
async function subtleSha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>),
  )
  let hex = ''
  for (const b of digest) hex += b.toString(16).padStart(2, '0')
  return hex
}

/** What the default fingerprint read: the fingerprint, and how to hand the body to the handler. */
interface Fingerprinted {
  fingerprint: string
  restore: () => void
}

/**
 * The default fingerprint: the SHA-256 of the method, the path with its query, a line break, and
 * the body bytes (read into Hono's body cache: the handler still reads the body; `restore()` makes
 * `c.req.raw` readable again before it runs). `null` when the body cannot be read.
 */
async function defaultFingerprint(c: Context): Promise<Fingerprinted | null> {
  const read = await peekBodyBytes(c)
  if (read === null) return null
  const url = c.req.url
  const target = url.slice(url.indexOf('/', url.indexOf('//') + 2))
  const head = encoder.encode(`${c.req.method} ${target}\n`)
  const all = new Uint8Array(head.length + read.bytes.length)
  all.set(head)
  all.set(read.bytes, head.length)
  // A small body is hashed in this turn: no promise, no await, for the common case.
  const hex = all.length <= SYNC_HASH_MAX ? sha256HexSyncBytes(all) : await subtleSha256(all)
  return { fingerprint: `sha256:${hex}`, restore: read.restore }
}

const NOTHING_TO_RESTORE = () => {}

/**
 * Makes retries of POST and PATCH safe (draft-ietf-httpapi-idempotency-key-header, Stripe's
 * `Idempotency-Key`). A request with `Idempotency-Key: "<key>"` takes a lock on (client, key)
 * and runs; its answer (status, body, `replayHeaders`) is stored for `ttlMs` and replayed to
 * every retry with `Idempotent-Replayed: true`, without running the handler again. A retry while
 * the first still runs gets 409 `idempotency_in_flight` with `Retry-After`; the same key with
 * another method, path, query or body gets 422 `idempotency_key_reused`. A 5xx answer or a thrown
 * handler is not stored: the key is released and a retry runs again. 4xx answers are stored.
 *
 * @param options.methods default `['POST', 'PATCH']`
 * @param options.required default `false` (true: 400 `idempotency_key_missing` without a key)
 * @param options.scope default: API key id, else JWT `sub`, else client IP
 * @param options.fingerprint default: method, path and query, SHA-256 of the body
 * @param options.store default `new MemoryIdempotencyStore()` (created lazily)
 * @param options.lockMs default `60000`
 * @param options.ttlMs default `86400000` (24 h)
 * @param options.maxBodyBytes default `1048576`
 * @param options.replayHeaders default `['content-type', 'location']`
 * @param options.failOpen default `false`
 * @example
 * ```ts
 * app.post('/orders', idempotency({ required: true }), async (c) => c.json(await createOrder(c), 201))
 * // curl -X POST -H 'Idempotency-Key: "8e03978e-40d5-43e8-bc93-6894a57f9324"' …
 * ```
 */
export function idempotency(options?: IdempotencyOptions): MiddlewareHandler & IdempotencyRejects {
  const config = idempotencyConfig(options)
  const { methods, required, scopeOf, fingerprintOf, lockMs, failOpen } = config
  let store = config.store
  const [report, recovered] = storeFailures(NAME, failOpen, config.onStoreError)
  const keeper: Keeper = {
    ttlMs: config.ttlMs,
    maxBodyBytes: config.maxBodyBytes,
    replayHeaders: config.replayHeaders,
    attempt: storeAttempt(report, recovered),
  }
  const storeCanFail = store !== undefined && !(store instanceof MemoryIdempotencyStore)
  const description = idempotencyDescription(
    [...methods],
    { required, storeCanFail, failOpen },
    config.ttlMs,
  )

  return described(description, async function idempotency(c, next) {
    if (!methods.has(c.req.method)) return next()
    const d = begin(c, NAME)
    const header = c.req.header('idempotency-key')
    if (header === undefined) {
      if (required) {
        reject(400, 'This operation requires an Idempotency-Key header', 'idempotency_key_missing')
      }
      decide(d, 'skip')
      return next()
    }
    const parsed = parseIdempotencyKey(header)
    if ('error' in parsed) reject(400, parsed.error, 'idempotency_key_invalid')
    // Awaited only when it is a promise: the default scope is synchronous.
    const scoped = scopeOf(c)
    const scope = typeof scoped === 'string' ? scoped : await scoped
    if (typeof scope !== 'string') {
      throw new TypeError(`idempotency: scope(c) must return a string, got ${typeof scope}`)
    }
    const read = fingerprintOf
      ? { fingerprint: await fingerprintOf(c), restore: NOTHING_TO_RESTORE }
      : await defaultFingerprint(c)
    if (read === null) reject(400, 'The request body could not be read', 'idempotency_key_invalid')
    const { fingerprint, restore } = read
    if (typeof fingerprint !== 'string' || fingerprint.length === 0 || fingerprint.length > 512) {
      throw new TypeError('idempotency: fingerprint(c) must return a string of 1 to 512 characters')
    }
    // JSON keeps the scope and the key apart whatever they contain.
    const key = JSON.stringify([scope, parsed.key])
    store ??= new MemoryIdempotencyStore()
    const lease = crypto.randomUUID()
    let s: IdempotencyStore
    let found: IdempotencyBegin
    try {
      s = storeFor(store, c)
      const t = clock(d)
      found = await s.begin(key, lease, fingerprint, lockMs)
      if (!STATES.has(found?.state)) throw new TypeError('store returned an invalid begin state')
      storeTime(d, 'begin', t)
      recovered()
    } catch (error) {
      report(error, c)
      if (failOpen) {
        decide(d, 'skip', 'store_unavailable')
        return next()
      }
      return reject(503, 'Idempotency store unavailable', 'store_unavailable')
    }
    return answer(next, { c, store: s, key, lease, d }, found, keeper, restore)
  })
}

/** Answers after `begin`: refuses, replays, or runs the request and settles its answer. */
async function answer(
  next: () => Promise<void>,
  held: Held,
  found: IdempotencyBegin,
  keeper: Keeper,
  restore: () => void,
): Promise<Response | undefined> {
  const { d } = held
  switch (found.state) {
    case 'mismatch':
      return reject(
        422,
        'This Idempotency-Key was already used for a different request',
        'idempotency_key_reused',
      )
    case 'in-flight': {
      const seconds = Math.max(1, Math.ceil(found.retryAfterMs / 1000))
      return reject(
        409,
        'A request with this Idempotency-Key is still being processed',
        'idempotency_in_flight',
        { 'Retry-After': String(seconds) },
      )
    }
    case 'completed':
      decide(d, 'allow', 'idempotency_replayed', found.response.status)
      return replay(found.response)
    default:
      break
  }
  decide(d, 'allow')
  restore()
  try {
    await next()
  } catch (error) {
    await keeperRelease(held, keeper)
    throw error
  }
  await settle(held, keeper)
  return undefined
}

async function keeperRelease(held: Held, keeper: Keeper): Promise<void> {
  if (held.d !== undefined) held.d.decision.cause = 'not stored: the handler threw'
  await keeper.attempt(held.c, () => held.store.release(held.key, held.lease))
}
