import type { MiddlewareHandler } from 'hono'
import { begin, clock, decide, storeTime } from '../internal/outcomes/decisions'
import { described } from '../internal/outcomes/described'
import { storeFor } from '../internal/stores/store-binding'
import { storeAttempt, storeFailures } from '../internal/stores/store-failure'
import { type IdempotencyRejects, reject } from './answers'
import { type IdempotencyOptions, idempotencyConfig, NAME } from './config'
import { idempotencyDescription } from './description'
import { defaultFingerprint } from './fingerprint'
import { parseIdempotencyKey } from './key'
import { MemoryIdempotencyStore } from './memory-store'
import { type Held, type Keeper, replay, settle } from './recording'
import type { IdempotencyBegin, IdempotencyStore } from './store'

export type { IdempotencyOptions } from './config'

const STATES = new Set(['acquired', 'in-flight', 'mismatch', 'completed'])

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
  // A lease names one request's hold on its key: unique among this middleware's requests by the
  // counter, and among instances by the random prefix (a UUID per request cost 0.2 to 0.5 µs).
  const leases = crypto.randomUUID()
  let leaseCount = 0
  const storeCanFail = store !== undefined && !(store instanceof MemoryIdempotencyStore)
  const description = idempotencyDescription(
    [...methods],
    { required, storeCanFail, failOpen },
    config.ttlMs,
  )

  return described(description, async function idempotency(c, next) {
    if (!methods.has(c.req.method)) {
      await next()
      return
    }
    const d = begin(c, NAME)
    const header = c.req.header('idempotency-key')
    if (header === undefined) {
      if (required) {
        reject(400, 'This operation requires an Idempotency-Key header', 'idempotency_key_missing')
      }
      decide(d, 'skip')
      await next()
      return
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
    const lease = `${leases}.${++leaseCount}`
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
        await next()
        return
      }
      return reject(503, 'Idempotency store unavailable', 'store_unavailable')
    }
    if (found.state === 'completed') {
      // Returned from here, not through answer(): a Response, not a promise, settles this call.
      decide(d, 'allow', 'idempotency_replayed', found.response.status)
      return replay(found.response)
    }
    return answer(next, { c, store: s, key, lease, d }, found, keeper, restore)
  })
}

/** Answers after `begin` found no answer to replay: refuses, or runs the request and settles it. */
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
