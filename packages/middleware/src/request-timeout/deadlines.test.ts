import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Deadlines } from './deadlines'

describe('Deadlines: one timer for the pending requests of one requestTimeout()', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('expires each entry at its own deadline, in order, and not a millisecond before', async () => {
    const list = new Deadlines(100)
    const expired: string[] = []
    list.add(() => expired.push('a'))
    await vi.advanceTimersByTimeAsync(30)
    list.add(() => expired.push('b'))
    await vi.advanceTimersByTimeAsync(40)
    list.add(() => expired.push('c'))
    expect(vi.getTimerCount()).toBe(1)
    await vi.advanceTimersByTimeAsync(29)
    expect(expired).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(expired).toEqual(['a'])
    await vi.advanceTimersByTimeAsync(29)
    expect(expired).toEqual(['a'])
    await vi.advanceTimersByTimeAsync(1)
    expect(expired).toEqual(['a', 'b'])
    await vi.advanceTimersByTimeAsync(40)
    expect(expired).toEqual(['a', 'b', 'c'])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('never expires a removed entry, wherever it sits, and clears its timer once none is left', async () => {
    const list = new Deadlines(100)
    const expired: string[] = []
    const a = list.add(() => expired.push('a'))
    await vi.advanceTimersByTimeAsync(10)
    const b = list.add(() => expired.push('b'))
    await vi.advanceTimersByTimeAsync(10)
    const c = list.add(() => expired.push('c'))
    list.remove(b)
    list.remove(b)
    list.remove(a)
    // The head left: its timer fires early, finds nothing due and waits for c.
    await vi.advanceTimersByTimeAsync(99)
    expect(expired).toEqual([])
    expect(vi.getTimerCount()).toBe(1)
    list.remove(c)
    expect(vi.getTimerCount()).toBe(0)
    await vi.advanceTimersByTimeAsync(1000)
    expect(expired).toEqual([])
  })

  it('arms again for an entry added after the list emptied', async () => {
    const list = new Deadlines(50)
    const expired: number[] = []
    list.remove(list.add(() => expired.push(1)))
    expect(vi.getTimerCount()).toBe(0)
    list.add(() => expired.push(2))
    expect(vi.getTimerCount()).toBe(1)
    await vi.advanceTimersByTimeAsync(50)
    expect(expired).toEqual([2])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('takes entries added or removed while another expires', async () => {
    const list = new Deadlines(20)
    const expired: string[] = []
    const later = list.add(() => expired.push('removed'))
    list.remove(later)
    const kept = list.add(() => expired.push('kept'))
    list.add(() => {
      expired.push('first')
      list.remove(kept)
      list.add(() => expired.push('added'))
    })
    // `kept` was added before the one that removes it: it expires first.
    await vi.advanceTimersByTimeAsync(20)
    expect(expired).toEqual(['kept', 'first'])
    await vi.advanceTimersByTimeAsync(20)
    expect(expired).toEqual(['kept', 'first', 'added'])
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('Deadlines: a timer that fires before performance.now() reaches the deadline', () => {
  afterEach(() => {
    vi.useRealTimers()
    vi.restoreAllMocks()
  })

  it('waits for the rest instead of expiring early', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let now = 1000.5
    vi.spyOn(performance, 'now').mockImplementation(() => now)
    const list = new Deadlines(100)
    const expired: number[] = []
    list.add(() => expired.push(1))
    // The event loop's clock ran ahead of performance.now() by 3 ms.
    now = 1097.6
    await vi.advanceTimersByTimeAsync(100)
    expect(expired).toEqual([])
    expect(vi.getTimerCount()).toBe(1)
    now = 1100.5
    await vi.advanceTimersByTimeAsync(3)
    expect(expired).toEqual([1])
    expect(vi.getTimerCount()).toBe(0)
  })
})
