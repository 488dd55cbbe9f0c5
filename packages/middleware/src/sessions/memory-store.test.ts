import { afterEach, describe, expect, it, vi } from 'vitest'
import { MemorySessionStore } from './index'

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('MemorySessionStore', () => {
  it('stores, returns and destroys sessions', async () => {
    const store = new MemorySessionStore()
    await store.set('id1', { user: 'a', n: 1 }, 60)
    expect(await store.get('id1')).toEqual({ user: 'a', n: 1 })
    expect(await store.get('missing')).toBeNull()
    await store.destroy('id1')
    await store.destroy('missing')
    expect(await store.get('id1')).toBeNull()
    store.destroy_()
  })

  it('returns copies, so callers cannot change stored data in place', async () => {
    const store = new MemorySessionStore()
    const data = { list: [1] }
    await store.set('id', data, 60)
    data.list.push(2)
    const out = (await store.get('id')) as { list: number[] }
    out.list.push(3)
    expect(await store.get('id')).toEqual({ list: [1] })
    store.destroy_()
  })

  it('gives back what JSON gives back: dates as text, undefined dropped, toJSON applied', async () => {
    const store = new MemorySessionStore()
    const data = { d: new Date(0), u: undefined, nested: { toJSON: () => 'x' }, list: [undefined] }
    await store.set('id', data as never, 60)
    const expected = { d: '1970-01-01T00:00:00.000Z', nested: 'x', list: [null] }
    expect(await store.get('id')).toStrictEqual(expected)
    // Every read is its own copy, also after a read changed the one it got.
    ;((await store.get('id')) as { list: unknown[] }).list.push(1)
    expect(await store.get('id')).toStrictEqual(expected)
    store.destroy_()
  })

  it('expires a session maxAge seconds after its last set, checked on access', async () => {
    let now = 0
    const store = new MemorySessionStore({ now: () => now })
    await store.set('id', { a: 1 }, 10)
    now = 9_999
    expect(await store.get('id')).toEqual({ a: 1 })
    await store.set('id', { a: 2 }, 10)
    now = 19_998
    expect(await store.get('id')).toEqual({ a: 2 })
    now = 19_999
    expect(await store.get('id')).toBeNull()
    expect(store.size).toBe(0)
    store.destroy_()
  })

  it('holds none of 100,000 expired sessions after the sweep', async () => {
    vi.useFakeTimers({ now: 0 })
    const store = new MemorySessionStore()
    for (let i = 0; i < 100_000; i++) await store.set(`session-${i}`, { i }, 60)
    expect(store.size).toBe(100_000)
    vi.advanceTimersByTime(120_000)
    expect(store.size).toBe(0)
    store.destroy_()
  })

  it('keeps live sessions through a sweep', async () => {
    vi.useFakeTimers({ now: 0 })
    const store = new MemorySessionStore({ sweepIntervalMs: 1_000 })
    await store.set('short', {}, 1)
    await store.set('long', {}, 3600)
    vi.advanceTimersByTime(2_000)
    expect(store.size).toBe(1)
    expect(await store.get('long')).toEqual({})
    store.destroy_()
  })

  it('starts no timer until the first set, unrefs it, and stops it when empty', async () => {
    vi.useFakeTimers({ now: 0 })
    const spy = vi.spyOn(globalThis, 'setInterval')
    const store = new MemorySessionStore()
    expect(spy).not.toHaveBeenCalled()
    await store.set('a', {}, 1)
    expect(spy).toHaveBeenCalledTimes(1)
    expect((spy.mock.results[0]!.value as { hasRef(): boolean }).hasRef()).toBe(false)
    vi.advanceTimersByTime(60_000)
    expect(vi.getTimerCount()).toBe(0)
    store.destroy_()
  })

  it('destroy_ releases the timer and clears the store', async () => {
    vi.useFakeTimers({ now: 0 })
    const store = new MemorySessionStore()
    await store.set('a', { x: 1 }, 60)
    store.destroy_()
    expect(vi.getTimerCount()).toBe(0)
    expect(store.size).toBe(0)
    expect(await store.get('a')).toBeNull()
  })

  it('rejects a non-positive maxAge and non-object data', async () => {
    const store = new MemorySessionStore()
    await expect(store.set('a', {}, 0)).rejects.toThrow(TypeError)
    await expect(store.set('a', {}, Number.NaN)).rejects.toThrow(TypeError)
    await expect(store.set('a', [] as never, 1)).rejects.toThrow(/plain object/)
    expect(() => new MemorySessionStore({ sweepIntervalMs: -1 })).toThrow(TypeError)
    store.destroy_()
  })
})
