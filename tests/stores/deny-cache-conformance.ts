/**
 * A store's `reset(key)` reaches the deny cache of every rateLimit in front of it in this
 * process: the key passes at once, not after its remembered refusal ends. For the stores that
 * run in the test's own process (a remote store's reset runs in another runtime, where these
 * middlewares are not).
 */
import { type RateLimitStore, rateLimit } from '@palisade/middleware/rate-limit'
import { Hono } from 'hono'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

export function denyCacheResetConformance<S extends RateLimitStore>(
  name: string,
  makeStore: () => S | Promise<S>,
  options: { release?: (store: S) => unknown } = {},
): void {
  describe(`rateLimit's deny cache and reset(key): ${name}`, () => {
    let store: S | undefined
    beforeEach(async () => {
      store = await makeStore()
    })
    afterEach(async () => {
      if (store !== undefined) await options.release?.(store)
    })

    for (const algorithm of ['fixed-window', 'token-bucket'] as const) {
      for (const consume of [false, true]) {
        it(`lets a reset key pass at once (${algorithm}${consume ? ', consume' : ''})`, async () => {
          const s = store as S
          for (const key of ['user-1', `${'\0'}${'u'.repeat(300)}`]) {
            const app = new Hono()
            app.use(
              rateLimit({
                max: 1,
                windowMs: 60_000,
                algorithm,
                store: s,
                denyCache: true,
                keyGenerator: () => key,
                ...(consume ? { cost: 1 } : {}),
              }),
            )
            app.get('/', (c) => c.text('ok'))
            expect((await app.request('/')).status).toBe(200)
            expect((await app.request('/')).status).toBe(429)
            await s.reset?.(key)
            expect((await app.request('/')).status).toBe(200)
          }
        })
      }
    }
  })
}
