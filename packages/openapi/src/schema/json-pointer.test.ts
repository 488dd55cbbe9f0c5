import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { resolveLocalRef, unescapeToken } from './json-pointer'

/** How a key is written into a URI-fragment JSON Pointer: escaped (RFC 6901), then percent-encoded. */
const encodeToken = (key: string): string =>
  encodeURIComponent(key.replace(/~/g, '~0').replace(/\//g, '~1'))

describe('JSON Pointer references', () => {
  it('unescapes ~1 before ~0, so ~01 stays the key "~1"', () => {
    expect(unescapeToken('a~1b')).toBe('a/b')
    expect(unescapeToken('~01')).toBe('~1')
    expect(unescapeToken('~0~1')).toBe('~/')
  })

  it('resolves # to the root and a path of object keys, percent-decoded', () => {
    const root = { paths: { '/users/{id}': { get: { operationId: 'getUser' } } } }
    expect(resolveLocalRef(root, '#')).toBe(root)
    expect(resolveLocalRef(root, '#/paths/~1users~1%7Bid%7D/get')).toEqual({
      operationId: 'getUser',
    })
  })

  it('answers undefined for a missing step, a non-local or malformed reference, and inherited keys', () => {
    const root = { a: { b: 1 }, list: [{ x: 1 }] }
    expect(resolveLocalRef(root, '#/a/c')).toBeUndefined()
    expect(resolveLocalRef(root, '#/a/b/c')).toBeUndefined()
    expect(resolveLocalRef(root, '#/list/0')).toBeUndefined()
    expect(resolveLocalRef(root, 'other.json#/a')).toBeUndefined()
    expect(resolveLocalRef(root, '#/a%E0%A4%A')).toBeUndefined()
    expect(resolveLocalRef(root, '#/toString')).toBeUndefined()
    expect(resolveLocalRef(root, '#/__proto__')).toBeUndefined()
  })

  it('finds any nested key written the way a writer encodes it', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 4 }), (keys) => {
        const leaf = { found: true }
        let root: unknown = leaf
        for (const key of [...keys].reverse()) {
          const node: Record<string, unknown> = {}
          Object.defineProperty(node, key, { value: root, enumerable: true })
          root = node
        }
        expect(resolveLocalRef(root, `#/${keys.map(encodeToken).join('/')}`)).toBe(leaf)
      }),
    )
  })
})
