import type { Context } from 'hono'
import { storeFor } from '../internal/stores/store-binding'
import { storeFailures } from '../internal/stores/store-failure'
import type { RateLimitRequest, RateLimitStore } from '../rate-limit/store'
import type { BanConfig } from './config'

/**
 * Repeat offenders, counted in a rate-limit store (so every instance sharing it bans alike):
 * each detection takes one unit of a fixed window of `after` units per `windowMs`; the detection
 * that reaches `after` asks for one more, which the store refuses and answers with a block of
 * `durationMs` (its `blockMs`). A banned client is one whose key is blocked, read with a
 * `cost: 0` call that records nothing. A failing store bans nobody (the request is still
 * inspected); the failure is warned once per outage.
 */
export class Ban {
  readonly #config: BanConfig
  readonly #count: RateLimitRequest
  readonly #read: RateLimitRequest
  readonly #report: (error: unknown, c: Context) => void
  readonly #recovered: () => void

  constructor(config: BanConfig) {
    this.#config = config
    const limits = [{ max: config.after, windowMs: config.windowMs }]
    const base = { algorithm: 'fixed-window', limits, blockMs: config.durationMs } as const
    this.#count = { ...base, cost: 1 }
    this.#read = { ...base, cost: 0 }
    ;[this.#report, this.#recovered] = storeFailures('shield', true, undefined)
  }

  async #key(c: Context): Promise<string> {
    return `${this.#config.prefix}ban:${await this.#config.keyOf(c)}`
  }

  #store(c: Context): RateLimitStore & Required<Pick<RateLimitStore, 'consume'>> {
    return storeFor(this.#config.store, c) as RateLimitStore &
      Required<Pick<RateLimitStore, 'consume'>>
  }

  /** Milliseconds the client stays banned (0: not banned, or the store failed). */
  async bannedFor(c: Context): Promise<number> {
    try {
      const verdict = await this.#store(c).consume(await this.#key(c), this.#read)
      this.#recovered()
      return Math.max(verdict.blockedMs, 0)
    } catch (error) {
      this.#report(error, c)
      return 0
    }
  }

  /** Counts one detection; true when it bans the client. */
  async detected(c: Context): Promise<boolean> {
    try {
      const store = this.#store(c)
      const key = await this.#key(c)
      let verdict = await store.consume(key, this.#count)
      if (verdict.allowed && (verdict.limits[0]?.count ?? 0) >= this.#config.after) {
        // The `after`-th detection: one unit more is refused, and the refusal sets the block.
        verdict = await store.consume(key, this.#count)
      }
      this.#recovered()
      return verdict.blockedMs > 0
    } catch (error) {
      this.#report(error, c)
      return false
    }
  }
}
