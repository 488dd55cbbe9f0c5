import { describe, expect, it } from 'vitest'
import { rateLimitConfig } from './config'
import { keySource } from './key-source'
import { MemoryRateLimitStore } from './memory-store'
import type { RateLimitStore } from './store'

/** A store that is not the memory store (its methods are never called here). */
const remote: RateLimitStore = {
  increment: async () => ({ count: 1, ttl: 1000 }),
  consume: async () => ({ allowed: true, limits: [], blockedMs: 0 }),
}

describe('rateLimitConfig', () => {
  it('fills in the defaults and freezes the result', () => {
    const config = rateLimitConfig({})
    expect(config).toMatchObject({
      algorithm: 'fixed-window',
      windowMs: 60_000,
      max: 60,
      cost: 1,
      blockMs: 0,
      consumes: false,
      standardHeaders: 'draft-6',
      message: 'Too many requests',
      failOpen: false,
      dryRun: false,
      denyCache: false,
    })
    expect(Object.isFrozen(config)).toBe(true)
  })

  it('sorts limits tightest window first, and consumes with them', () => {
    const config = rateLimitConfig({
      limits: [
        { max: 1000, windowMs: 3_600_000 },
        { max: 10, windowMs: 1000 },
      ],
      store: remote,
    })
    expect(config.limits?.map((l) => l.windowMs)).toEqual([1000, 3_600_000])
    expect(config.consumes).toBe(true)
  })

  it('remembers refusals for a store of another process, never in dry run or when told not to', () => {
    expect(rateLimitConfig({ store: remote }).denyCache).toBe(true)
    expect(rateLimitConfig({ store: new MemoryRateLimitStore() }).denyCache).toBe(false)
    expect(rateLimitConfig({ store: remote, dryRun: true }).denyCache).toBe(false)
    expect(rateLimitConfig({ store: remote, denyCache: false }).denyCache).toBe(false)
    expect(rateLimitConfig({ denyCache: true }).denyCache).toBe(true)
  })

  it('keeps max and cost functions for the request path', () => {
    const max = () => 5
    const cost = () => 2
    const config = rateLimitConfig({ max, cost, store: remote })
    expect(config.maxFn).toBe(max)
    expect(config.max).toBe(0)
    expect(config.costFn).toBe(cost)
    expect(config.consumes).toBe(true)
  })
})

describe('keySource', () => {
  it('answers a synchronous key without a promise (no await per request)', () => {
    const key = keySource(() => 'client', true)({} as never)
    expect(key).toEqual({ key: 'client', local: 'client' })
  })

  it('keeps a long key by its hash when the limiter keeps anything by key', async () => {
    const long = 'u'.repeat(10_000)
    const kept = await keySource(async () => long, true)({} as never)
    expect(kept.key).toBe(long)
    expect(kept.local).toMatch(/^sha256:[0-9a-f]{64}$/)
    const unkept = await keySource(async () => long, false)({} as never)
    expect(unkept.local).toBe(long)
  })
})
