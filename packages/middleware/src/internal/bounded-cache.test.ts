import { describe, expect, it } from 'vitest'
import { BoundedCache } from './bounded-cache'

describe('BoundedCache', () => {
  it('never holds more than max entries and evicts the least recently used', () => {
    const cache = new BoundedCache<string, number>(3)
    cache.set('a', 1)
    cache.set('b', 2)
    cache.set('c', 3)
    expect(cache.get('a')).toBe(1) // a is now the most recent; b is the oldest
    cache.set('d', 4)
    expect(cache.size).toBe(3)
    expect(cache.get('b')).toBeUndefined()
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([1, 3, 4])
  })

  it('replacing a key keeps the size and refreshes the value', () => {
    const cache = new BoundedCache<string, number>(2)
    cache.set('a', 1)
    cache.set('a', 2)
    cache.set('b', 3)
    expect(cache.size).toBe(2)
    expect(cache.get('a')).toBe(2)
  })

  it('matches keys exactly and forgets deleted ones', () => {
    const cache = new BoundedCache<string, string>(10)
    cache.set('token', 'v')
    expect(cache.get('Token')).toBeUndefined()
    expect(cache.get('token ')).toBeUndefined()
    cache.delete('token')
    expect(cache.get('token')).toBeUndefined()
    expect(cache.size).toBe(0)
  })
})
