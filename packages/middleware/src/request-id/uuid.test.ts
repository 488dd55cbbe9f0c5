import { afterEach, describe, expect, it, vi } from 'vitest'
import { randomUuid } from './uuid'

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** The UUIDs made from the next draw of random bytes, `fill` giving the bytes of that draw. */
function fromDraw(fill: (i: number) => number, count: number): string[] {
  const draw = vi.spyOn(crypto, 'getRandomValues').mockImplementation(<T>(array: T): T => {
    const bytes = array as unknown as Uint8Array
    for (let i = 0; i < bytes.length; i++) bytes[i] = fill(i)
    return array
  })
  // Use up what is left of the current draw; the UUID that takes a new one is its first.
  let first = randomUuid()
  for (let left = 128; draw.mock.calls.length === 0 && left > 0; left--) first = randomUuid()
  expect(draw).toHaveBeenCalledTimes(1)
  const ids = [first]
  while (ids.length < count) ids.push(randomUuid())
  draw.mockRestore()
  return ids
}

describe('randomUuid', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('gives version 4 UUIDs, all different, across several draws of random bytes', () => {
    // 128 UUIDs a draw: 1,000 cross seven draws.
    const ids = Array.from({ length: 1000 }, randomUuid)
    for (const id of ids) expect(id).toMatch(V4)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('writes 16 random bytes a UUID, in order, with only the version and variant bits set', () => {
    expect(fromDraw((i) => (i * 17 + 3) & 0xff, 2)).toEqual([
      '03142536-4758-497a-8b9c-adbecfe0f102',
      '13243546-5768-498a-9bac-bdcedff00112',
    ])
    expect(fromDraw(() => 0xff, 1)).toEqual(['ffffffff-ffff-4fff-bfff-ffffffffffff'])
    expect(fromDraw(() => 0, 1)).toEqual(['00000000-0000-4000-8000-000000000000'])
  })

  it('is a plain 36-character string', () => {
    const id = randomUuid()
    expect(typeof id).toBe('string')
    expect(id).toHaveLength(36)
    expect(JSON.parse(JSON.stringify(id))).toBe(id)
  })
})
