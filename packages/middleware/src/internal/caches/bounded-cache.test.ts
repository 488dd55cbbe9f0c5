import { describe, expect, it } from 'vitest'
import { BoundedCache, TAIL_KEY_LENGTH, tailKey } from './bounded-cache'

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

  it('keeps least-recently-used order through repeated reads, deletes and evictions', () => {
    const cache = new BoundedCache<string, number>(3)
    cache.set('a', 1)
    cache.set('b', 2)
    cache.set('c', 3)
    // c is the newest: reading it again and again leaves a as the oldest.
    expect([cache.get('c'), cache.get('c'), cache.get('c')]).toEqual([3, 3, 3])
    cache.set('d', 4)
    expect(cache.get('a')).toBeUndefined()
    // b is read twice in a row (moved once), then d: c is now the oldest.
    expect([cache.get('b'), cache.get('b'), cache.get('d')]).toEqual([2, 2, 4])
    cache.set('e', 5)
    expect(cache.get('c')).toBeUndefined()
    // Deleting the newest key and setting it again makes it the newest once more.
    cache.delete('e')
    cache.set('e', 6)
    expect(cache.get('b')).toBe(2)
    cache.set('f', 7)
    expect(cache.get('d')).toBeUndefined()
    expect([cache.get('b'), cache.get('e'), cache.get('f')]).toEqual([2, 6, 7])
  })

  it('with room for one entry, the newest key replaces the old one', () => {
    const cache = new BoundedCache<string, number>(1)
    cache.set('a', 1)
    expect(cache.get('a')).toBe(1)
    cache.set('b', 2)
    expect(cache.get('a')).toBeUndefined()
    expect(cache.get('b')).toBe(2)
    expect(cache.size).toBe(1)
  })
})

describe('tailKey', () => {
  it('keeps the last characters of a long string and a short one whole', () => {
    expect(TAIL_KEY_LENGTH).toBe(16)
    expect(tailKey(`${'a'.repeat(30)}0123456789abcdef`)).toBe('0123456789abcdef')
    expect(tailKey('0123456789abcdef')).toBe('0123456789abcdef')
    expect(tailKey('short')).toBe('short')
    expect(tailKey('')).toBe('')
  })
})
