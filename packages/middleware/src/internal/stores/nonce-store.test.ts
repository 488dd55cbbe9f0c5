import { describe, expect, it } from 'vitest'
import { MemoryNonceStore } from './nonce-store'

describe('MemoryNonceStore', () => {
  it('grants a nonce once within its lifetime, again after it expires', async () => {
    let now = 1_000
    const store = new MemoryNonceStore({ now: () => now })
    expect(await store.claim('a', 500)).toBe(true)
    expect(await store.claim('a', 500)).toBe(false)
    now += 499
    expect(await store.claim('a', 500)).toBe(false)
    now += 1
    expect(await store.claim('a', 500)).toBe(true)
  })

  it('gives exactly one of many concurrent claims', async () => {
    const store = new MemoryNonceStore()
    const results = await Promise.all(Array.from({ length: 50 }, () => store.claim('n', 10_000)))
    expect(results.filter(Boolean)).toHaveLength(1)
  })

  it('sweeps expired nonces and never evicts a live one', async () => {
    let now = 0
    const store = new MemoryNonceStore({ now: () => now })
    for (let i = 0; i < 100; i++) await store.claim(`old${i}`, 10)
    await store.claim('live', 60_000)
    now = 2_000
    await store.claim('fresh', 10)
    expect(store.size).toBe(2)
    expect(await store.claim('live', 60_000)).toBe(false)
  })

  it('refuses bad arguments with the store named', async () => {
    const store = new MemoryNonceStore()
    await expect(store.claim('', 1)).rejects.toThrow(/MemoryNonceStore.claim: nonce/)
    await expect(store.claim('x'.repeat(513), 1)).rejects.toThrow(/nonce/)
    await expect(store.claim('x', 0)).rejects.toThrow(/ttlMs/)
    await expect(store.claim('x', 1.5)).rejects.toThrow(/ttlMs/)
    expect(() => new MemoryNonceStore({ now: 1 as never })).toThrow(/"now" must be a function/)
  })
})
