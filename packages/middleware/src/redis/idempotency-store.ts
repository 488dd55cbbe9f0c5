import {
  checkBegin,
  checkComplete,
  checkRelease,
  decodeResponse,
  encodeResponse,
  type IdempotencyBegin,
  type IdempotencyStore,
  type IdempotentResponse,
} from '../idempotency/store'
import { boundKey } from '../internal/stores/bounded-key'
import {
  type RedisStoreOptions,
  redisScript,
  redisStoreOptions,
  replyInteger,
  replyText,
  runScript,
} from './client'

const NAME = 'RedisIdempotencyStore'

// One hash per record: f = fingerprint, l = lease (while locked), r = the stored response (once
// completed). Redis's own expiry ends the lock and the record. Every script reads and writes
// KEYS[1] only, so it runs on Redis Cluster unchanged.
// ARGV: lease, fingerprint, lockMs. Reply: {0} acquired, {1, pttl} in flight, {2} mismatch,
// {3, response} completed.
const BEGIN = `local f = redis.call('HGET', KEYS[1], 'f')
if not f then
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], 'f', ARGV[2], 'l', ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return {0}
end
if f ~= ARGV[2] then return {2} end
local r = redis.call('HGET', KEYS[1], 'r')
if not r then return {1, redis.call('PTTL', KEYS[1])} end
return {3, r}`

// ARGV: lease, response, ttlMs. Reply: 1 stored, 0 the lock is no longer this lease's.
const COMPLETE = `if redis.call('HGET', KEYS[1], 'l') ~= ARGV[1] then return 0 end
redis.call('HDEL', KEYS[1], 'l')
redis.call('HSET', KEYS[1], 'r', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`

// ARGV: lease. Deletes the record only while it is this lease's lock.
const RELEASE = `if redis.call('HGET', KEYS[1], 'l') == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`

const SCRIPTS = {
  begin: redisScript(BEGIN),
  complete: redisScript(COMPLETE),
  release: redisScript(RELEASE),
}

/** The idempotency records' own suffix: no other store's key (`#cl`, `#fw`, …) can name it. */
const SUFFIX = '#ik'

/**
 * Options of {@link RedisIdempotencyStore}.
 *
 * @example
 * const options: RedisIdempotencyStoreOptions = { sendCommand: fromIoredis(client), prefix: 'shop:ik:' }
 * app.post('/orders', idempotency({ store: new RedisIdempotencyStore(options) }), createOrder)
 */
export interface RedisIdempotencyStoreOptions extends RedisStoreOptions {
  /** Key prefix. Default `'palisade:ik:'`. */
  prefix?: string
}

/**
 * Idempotency records in Redis, shared by every instance of an app: one hash per record
 * (`<prefix><key>#ik`) holding the fingerprint, the lock's lease while the first request runs and
 * the stored response once it has answered; Redis's expiry ends the lock after `lockMs` (an
 * instance that died mid-request holds nothing longer) and the record after `ttlMs`. `begin`,
 * `complete` and `release` are one Lua script each, one key each (Redis Cluster unchanged) and one
 * round trip (`EVALSHA`, re-sent with `EVAL` after `NOSCRIPT`). Errors from `sendCommand`
 * propagate, so `idempotency`'s `failOpen` decides.
 *
 * @param options.sendCommand - Raw command function, e.g. `fromIoredis(client)`. Required.
 * @param options.prefix - Key prefix. Default `'palisade:ik:'`.
 * @example
 * import { Redis } from 'ioredis'
 * import { RedisIdempotencyStore, fromIoredis } from '@palisade/middleware/redis'
 *
 * const store = new RedisIdempotencyStore({ sendCommand: fromIoredis(new Redis()) })
 * app.post('/orders', idempotency({ store }), createOrder)
 */
export class RedisIdempotencyStore implements IdempotencyStore {
  readonly #send: RedisStoreOptions['sendCommand']
  readonly #prefix: string

  constructor(options: RedisIdempotencyStoreOptions) {
    const { send, prefix } = redisStoreOptions(NAME, options, 'palisade:ik:')
    this.#send = send
    this.#prefix = prefix
  }

  async #key(key: string): Promise<string> {
    return this.#prefix + (await boundKey(key)) + SUFFIX
  }

  async begin(
    key: string,
    lease: string,
    fingerprint: string,
    lockMs: number,
  ): Promise<IdempotencyBegin> {
    checkBegin(`${NAME}.begin`, key, lease, fingerprint, lockMs)
    const reply = await runScript(
      this.#send,
      SCRIPTS.begin,
      [await this.#key(key)],
      [lease, fingerprint, String(lockMs)],
    )
    const parts = Array.isArray(reply) ? reply : []
    const state = replyInteger(parts[0])
    if (state === 0) return { state: 'acquired' }
    if (state === 2) return { state: 'mismatch' }
    if (state === 1) {
      const pttl = replyInteger(parts[1])
      // -1 (no expiry) never happens; -2 (gone meanwhile) reads as "retry at once".
      return { state: 'in-flight', retryAfterMs: pttl !== null && pttl > 0 ? pttl : 1 }
    }
    if (state === 3) {
      const response = decodeResponse(replyText(parts[1]))
      if (response !== null) return { state: 'completed', response }
    }
    throw new Error(`${NAME}: unexpected reply to the begin script`)
  }

  async complete(
    key: string,
    lease: string,
    response: IdempotentResponse,
    ttlMs: number,
  ): Promise<boolean> {
    checkComplete(`${NAME}.complete`, key, lease, response, ttlMs)
    const reply = replyInteger(
      await runScript(
        this.#send,
        SCRIPTS.complete,
        [await this.#key(key)],
        [lease, encodeResponse(response), String(ttlMs)],
      ),
    )
    if (reply === null) throw new Error(`${NAME}: unexpected reply to the complete script`)
    return reply === 1
  }

  async release(key: string, lease: string): Promise<void> {
    checkRelease(`${NAME}.release`, key, lease)
    await runScript(this.#send, SCRIPTS.release, [await this.#key(key)], [lease])
  }
}
