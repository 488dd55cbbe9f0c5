import { describe, expect, it, vi } from 'vitest'
import { MemoryApiKeyStore } from './index'

const KEY = 'sk_test_the-secret-key-value'

describe('MemoryApiKeyStore', () => {
  it('returns a random id from add that is not derived from the key', async () => {
    const a = new MemoryApiKeyStore()
    const b = new MemoryApiKeyStore()
    const idA = await a.add(KEY)
    const idB = await b.add(KEY)
    expect(idA).toMatch(/^[0-9a-f-]{36}$/)
    expect(idA).not.toBe(idB)
    expect(idA).not.toContain(KEY)
  })

  it('validates a known key to { id, metadata } and an unknown one to null', async () => {
    const store = new MemoryApiKeyStore()
    const id = await store.add(KEY, { plan: 'pro' })
    expect(await store.validate(KEY)).toEqual({ id, metadata: { plan: 'pro' } })
    expect(await store.validate('other')).toBeNull()
    expect(await store.validate('')).toBeNull()
  })

  it('hashes a presented key in JavaScript, without a WebCrypto job per validate', async () => {
    const store = new MemoryApiKeyStore()
    const id = await store.add(KEY)
    const digest = vi.spyOn(crypto.subtle, 'digest')
    expect(await store.validate(KEY)).toEqual({ id })
    expect(await store.validate('other')).toBeNull()
    expect(digest).not.toHaveBeenCalled()
    digest.mockRestore()
  })

  it.each([
    ['a non-ASCII key', 'sk_clé_🔑_ключ'],
    ['a key at the synchronous-hash limit', 'k'.repeat(4096)],
    ['a key past it (hashed by WebCrypto)', 'k'.repeat(4097)],
  ])('finds %s again and tells it from a near twin', async (_, key) => {
    const store = new MemoryApiKeyStore()
    const id = await store.add(key)
    expect(await store.validate(key)).toEqual({ id })
    expect(await store.validate(`${key}x`)).toBeNull()
    expect(await store.validate(key.slice(0, -1))).toBeNull()
    expect(await store.remove(key)).toBe(true)
  })

  it('omits metadata when none was given', async () => {
    const store = new MemoryApiKeyStore()
    const id = await store.add(KEY)
    expect(await store.validate(KEY)).toEqual({ id })
  })

  it('keeps only SHA-256 hashes, never the key', async () => {
    const store = new MemoryApiKeyStore()
    const spy = vi.spyOn(Map.prototype, 'set')
    await store.add(KEY, { note: 'n' })
    const stored = spy.mock.calls.map((call) => JSON.stringify(call))
    spy.mockRestore()
    expect(stored.length).toBeGreaterThan(0)
    for (const s of stored) expect(s).not.toContain(KEY)
    expect(stored.join()).toContain(
      // sha256('sk_test_the-secret-key-value')
      await (async () => {
        const d = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(KEY))
        return [...new Uint8Array(d)].map((x) => x.toString(16).padStart(2, '0')).join('')
      })(),
    )
    expect(JSON.stringify(store)).not.toContain(KEY)
  })

  it('keeps the id and replaces metadata when a key is added again', async () => {
    const store = new MemoryApiKeyStore()
    const id = await store.add(KEY, { v: 1 })
    expect(await store.add(KEY, { v: 2 })).toBe(id)
    expect(await store.validate(KEY)).toEqual({ id, metadata: { v: 2 } })
    expect(store.size).toBe(1)
  })

  it('copies metadata on the way in and out', async () => {
    const store = new MemoryApiKeyStore()
    const metadata = { scopes: ['read'] }
    await store.add(KEY, metadata)
    metadata.scopes.push('admin')
    const first = await store.validate(KEY)
    ;(first!.metadata!.scopes as string[]).push('write')
    expect((await store.validate(KEY))?.metadata).toEqual({ scopes: ['read'] })
  })

  it('removes a key and reports whether it was there', async () => {
    const store = new MemoryApiKeyStore()
    await store.add(KEY)
    expect(await store.remove(KEY)).toBe(true)
    expect(await store.remove(KEY)).toBe(false)
    expect(await store.validate(KEY)).toBeNull()
  })

  it('forgets everything on destroy', async () => {
    const store = new MemoryApiKeyStore()
    await store.add(KEY)
    await store.add('another')
    await store.destroy()
    expect(store.size).toBe(0)
    expect(await store.validate(KEY)).toBeNull()
  })

  it('rejects an empty key in add and remove without echoing it', async () => {
    const store = new MemoryApiKeyStore()
    await expect(store.add('')).rejects.toThrow(/key must be a non-empty string/)
    await expect(store.remove('')).rejects.toThrow(TypeError)
  })

  it('rejects non-object metadata', async () => {
    const store = new MemoryApiKeyStore()
    await expect(store.add(KEY, 'x' as never)).rejects.toThrow(/metadata must be an object/)
  })
})
