import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ATTACK_CATEGORIES } from './detect'
import { compilePointers, escapeSegment, unescapeSegment } from './pointers'
import { Scan } from './scan'
import { scanJson } from './walk-json'

const options = { rules: new Set(ATTACK_CATEGORIES), paranoia: 1 as const }
const PAYLOAD = '<script>alert(1)</script>'

/** Benign text: hex digits only, nothing any detector fires on. */
const benign = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), maxLength: 8 })
/** Keys with the two characters a JSON pointer escapes. */
const key = fc.string({ unit: fc.constantFrom('a', 'b', '~', '/', '0', '1'), maxLength: 4 })
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    benign,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(key, tie('node'), { maxKeys: 4 }),
  ),
})).node

/** Every path to a string in `root`, as the list of keys/indices. */
function stringPaths(root: unknown, at: string[] = [], out: string[][] = []): string[][] {
  if (typeof root === 'string') out.push(at)
  else if (Array.isArray(root)) {
    for (let i = 0; i < root.length; i++) stringPaths(root[i], [...at, String(i)], out)
  } else if (root !== null && typeof root === 'object') {
    for (const [k, v] of Object.entries(root)) stringPaths(v, [...at, k], out)
  }
  return out
}

function setAt(root: unknown, path: string[], v: unknown): unknown {
  if (path.length === 0) return v
  const [head, ...rest] = path as [string, ...string[]]
  const node = root as Record<string, unknown>
  node[head] = setAt(node[head], rest, v)
  return root
}

/** RFC 6901 resolution of `pointer` in `root`. */
function resolve(root: unknown, pointer: string): unknown {
  if (pointer === '') return root
  let at = root
  for (const raw of pointer.slice(1).split('/')) {
    at = (at as Record<string, unknown>)[unescapeSegment(raw)]
  }
  return at
}

describe('the JSON walk (property)', () => {
  it('finds a payload planted at any string of any body, at the pointer that resolves to it', () => {
    fc.assert(
      fc.property(value, fc.nat(), (body, pick) => {
        const paths = stringPaths(body)
        if (paths.length === 0) return
        const path = paths[pick % paths.length] as string[]
        const planted = setAt(structuredClone(body), path, PAYLOAD)
        const scan = new Scan(options, 1 << 20)
        expect(scanJson(planted, scan, [])).toBe(true)
        const location = scan.hit?.location ?? ''
        expect(location.startsWith('body:')).toBe(true)
        expect(resolve(planted, location.slice(5))).toBe(PAYLOAD)
      }),
    )
  })

  it('a benign body never fires, and a skip pointer on the planted field hides it', () => {
    fc.assert(
      fc.property(value, fc.nat(), (body, pick) => {
        expect(scanJson(body, new Scan(options, 1 << 20), [])).toBe(false)
        const paths = stringPaths(body)
        if (paths.length === 0) return
        const path = paths[pick % paths.length] as string[]
        const planted = setAt(structuredClone(body), path, PAYLOAD)
        const pointer = path.map((p) => `/${escapeSegment(p)}`).join('')
        const skip = compilePointers([pointer], [])
        expect(scanJson(planted, new Scan(options, 1 << 20), [skip])).toBe(false)
        const forced = compilePointers([pointer], [pointer])
        expect(scanJson(planted, new Scan(options, 1 << 20), [forced])).toBe(true)
      }),
    )
  })

  it('pointer segments round-trip through escape and unescape', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(unescapeSegment(escapeSegment(s))).toBe(s)
        expect(escapeSegment(s).includes('/')).toBe(false)
      }),
    )
  })
})
