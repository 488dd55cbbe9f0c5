import type { Context } from 'hono'
import { boundKey } from '../internal/stores/bounded-key'
import { checkClaim, type NonceStore } from '../internal/stores/nonce-store'
import {
  checkAndSet,
  type DenoKvLike,
  type DenoKvStoreOptions,
  type DenoKvTarget,
  denoKvStoreOptions,
} from './kv'

const NAME = 'DenoKvNonceStore'

/**
 * Options of {@link DenoKvNonceStore}.
 *
 * @example
 * const options: DenoKvNonceStoreOptions = { kv: await Deno.openKv(), prefix: 'shop:nonce' }
 */
export interface DenoKvNonceStoreOptions extends DenoKvStoreOptions {
  /** Key prefix (first key part). Default `'palisade:nonce'`. */
  prefix?: string
}

/**
 * Replay records in Deno KV. `claim` reads the nonce's record and commits it with an atomic
 * operation checked against what it read (the versionstamp, `null` for absent), so of two
 * concurrent claims exactly one commits; the loser reads again and finds the record live. The
 * record is written with `expireIn`, and its expiry is kept in the value too, since KV may
 * delete expired keys some time later. A failed call rejects: the middleware refuses the request
 * rather than let a replay through.
 *
 * @param options.kv - An open Deno KV handle (`await Deno.openKv()`), or a resolver returning it
 *   (or the promise of it) for a request. Required.
 * @param options.prefix - Key prefix. Default `'palisade:nonce'`.
 * @example
 * import { DenoKvNonceStore } from '@palisade/middleware/deno-kv'
 *
 * const nonce = new DenoKvNonceStore({ kv: await Deno.openKv() })
 * app.use('/api/*', httpSignature({ keys, nonce }))
 */
export class DenoKvNonceStore implements NonceStore {
  readonly #kv: DenoKvLike
  readonly #prefix: string
  readonly #target: DenoKvTarget<DenoKvNonceStore>

  constructor(options: DenoKvNonceStoreOptions) {
    this.#target = denoKvStoreOptions<DenoKvNonceStore>(NAME, options, 'palisade:nonce')
    this.#kv = this.#target.kv
    this.#prefix = this.#target.prefix
  }

  /**
   * The store for the request `c`: this one when it was built with a handle; built with a
   * resolver, the store on the handle the resolver returns (made once per handle).
   */
  forContext(c: Context): DenoKvNonceStore {
    return this.#target.forContext(
      c,
      this,
      (kv) => new DenoKvNonceStore({ kv, prefix: this.#prefix }),
    )
  }

  async claim(nonce: string, ttlMs: number): Promise<boolean> {
    checkClaim(`${NAME}.claim`, nonce, ttlMs)
    const key = [this.#prefix, await boundKey(nonce)] as const
    return checkAndSet(NAME, async () => {
      const entry = await this.#kv.get<{ expiresAt: number }>(key)
      if (entry.value !== null && entry.value.expiresAt > Date.now()) {
        return { committed: true, value: false }
      }
      const { ok } = await this.#kv
        .atomic()
        .check({ key, versionstamp: entry.versionstamp })
        .set(key, { expiresAt: Date.now() + ttlMs }, { expireIn: ttlMs })
        .commit()
      return ok ? { committed: true, value: true } : undefined
    })
  }
}
