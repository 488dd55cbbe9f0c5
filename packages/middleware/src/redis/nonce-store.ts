import { boundKey } from '../internal/stores/bounded-key'
import { checkClaim, type NonceStore } from '../internal/stores/nonce-store'
import { type RedisStoreOptions, redisStoreOptions, replyText } from './client'

const NAME = 'RedisNonceStore'

/** The nonce record's own suffix: no other store's key (`#fw`, `#cl`, …) can name it. */
const SUFFIX = '#nc'

/**
 * Options of {@link RedisNonceStore}.
 *
 * @example
 * const options: RedisNonceStoreOptions = { sendCommand: fromIoredis(client), prefix: 'shop:nonce:' }
 */
export interface RedisNonceStoreOptions extends RedisStoreOptions {
  /** Key prefix. Default `'palisade:nonce:'`. */
  prefix?: string
}

/**
 * Replay records in Redis, shared by every instance of an app: `claim` is one
 * `SET <prefix><nonce>#nc 1 PX <ttl> NX`, atomic on the server (of two concurrent claims exactly
 * one sets the key), one key per command (so it runs on Redis Cluster unchanged) and expired by
 * Redis itself. Nonces longer than 128 characters are held as their SHA-256. Errors from
 * `sendCommand` propagate: the middleware refuses the request rather than let a replay through.
 *
 * @param options.sendCommand - Raw command function, e.g. `fromIoredis(client)`. Required.
 * @param options.prefix - Key prefix. Default `'palisade:nonce:'`.
 * @example
 * import { Redis } from 'ioredis'
 * import { RedisNonceStore, fromIoredis } from '@palisade/middleware/redis'
 *
 * const nonce = new RedisNonceStore({ sendCommand: fromIoredis(new Redis()) })
 * app.use('/api/*', httpSignature({ keys, nonce }))
 */
export class RedisNonceStore implements NonceStore {
  readonly #send: RedisStoreOptions['sendCommand']
  readonly #prefix: string

  constructor(options: RedisNonceStoreOptions) {
    const { send, prefix } = redisStoreOptions(NAME, options, 'palisade:nonce:')
    this.#send = send
    this.#prefix = prefix
  }

  async claim(nonce: string, ttlMs: number): Promise<boolean> {
    checkClaim(`${NAME}.claim`, nonce, ttlMs)
    const key = this.#prefix + (await boundKey(nonce)) + SUFFIX
    const reply = await this.#send(['SET', key, '1', 'PX', String(ttlMs), 'NX'])
    if (reply === null || reply === undefined) return false
    if (replyText(reply) === 'OK') return true
    throw new Error(`${NAME}: unexpected reply to SET NX`)
  }
}
