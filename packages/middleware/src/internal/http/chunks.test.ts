import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { joinChunks } from './chunks'

describe('joinChunks', () => {
  it('holds every chunk in order, whatever their number and sizes', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 8 }), (arrays) => {
        const length = arrays.reduce((sum, a) => sum + a.byteLength, 0)
        const joined = joinChunks(arrays, length)
        expect(joined.byteLength).toBe(length)
        expect([...joined]).toEqual(arrays.flatMap((a) => [...a]))
      }),
    )
  })

  it('gives back a lone chunk itself, and copies where there are more', () => {
    const one = new Uint8Array([1, 2, 3])
    expect(joinChunks([one], 3)).toBe(one)
    const two = [new Uint8Array([1]), new Uint8Array([2])]
    const joined = joinChunks(two, 2)
    joined[0] = 9
    expect(two[0]?.[0]).toBe(1)
  })
})
