import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ATTACK_CATEGORIES, detect } from './detect'
import { compilePointers, escapeSegment, NONE, unescapeSegment } from './pointers'
import { Scan, Verdicts } from './scan'
import { scanJson } from './walk-json'

const options = { rules: new Set(ATTACK_CATEGORIES), paranoia: 1 as const }
const PAYLOAD = '<script>alert(1)</script>'

/**
 * Benign text: hex digits that no detector fires on. Hex alone is not enough: `1e309` is one of
 * SQL's overflow numbers (as in CRS 942220), and `c99` was a compiler's name until a name alone
 * stopped counting as a command.
 */
const benign = fc
  .string({ unit: fc.constantFrom(...'0123456789abcdef'), maxLength: 8 })
  .filter((text) => detect(text, 'body', options) === undefined)
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

/** The walk without pointers, each key checked every time (locations as the walk makes them). */
function everyKey(value: unknown, scan: Scan, at: string): boolean {
  if (typeof value === 'string')
    return scan.body(value, 'body', () => `body:${at}`, lastSegment(at))
  if (typeof value !== 'object' || value === null) return false
  if (Array.isArray(value)) {
    return value.some((item, i) => everyKey(item, scan, `${at}/${i}`))
  }
  const keys = Object.keys(value)
  for (const name of keys) if (scan.body(name, 'name', () => `body-name:${at}`)) return true
  return keys.some((name) =>
    everyKey((value as Record<string, unknown>)[name], scan, `${at}/${escapeSegment(name)}`),
  )
}

/** The last segment of a pointer, unescaped: the name a string came under (`''` at the root). */
const lastSegment = (at: string) => unescapeSegment(at.slice(at.lastIndexOf('/') + 1))

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

  it('repeated keys (arrays of like objects) give what checking every key gives, budget included', () => {
    // The reference: every key of every object through scan.body, as the walk did before it
    // remembered the last clean keys. Keys repeat (few names, objects in arrays), one may fire
    // (`__proto__`, a key with markup), and the budget may run out anywhere.
    const names = fc.constantFrom('id', 'name', 'tags', '__proto__', '<svg onload=x>', 'ab', '')
    const record = fc.dictionary(names, fc.oneof(benign, fc.constant(PAYLOAD), fc.integer()), {
      maxKeys: 4,
    })
    const body = fc.array(fc.oneof(record, fc.array(record, { maxLength: 3 })), { maxLength: 6 })
    fc.assert(
      fc.property(body, fc.integer({ min: 1, max: 200 }), (root, budget) => {
        const json = JSON.parse(JSON.stringify(root)) as unknown
        const walked = new Scan(options, budget)
        const checked = new Scan(options, budget)
        expect(scanJson(json, walked, [])).toBe(everyKey(json, checked, ''))
        expect(walked.hit).toEqual(checked.hit)
        expect(walked.budget).toBe(checked.budget)
      }),
      { numRuns: 500 },
    )
  })

  it('keys remembered clean across bodies (one Verdicts) give what checking every key gives', () => {
    // shield() walks each request's body with its instance's Verdicts, which remember the last
    // clean keys from one body to the next: a sequence of bodies, budgets and all, must end as
    // checking every key of each would (the reference knows nothing of earlier bodies).
    const names = fc.constantFrom('id', 'name', 'tags', '__proto__', '<svg onload=x>', 'ab', '')
    const record = fc.dictionary(names, fc.oneof(benign, fc.constant(PAYLOAD), fc.integer()), {
      maxKeys: 4,
    })
    const body = fc.array(fc.oneof(record, fc.array(record, { maxLength: 3 })), { maxLength: 4 })
    const bodies = fc.array(fc.tuple(body, fc.integer({ min: 1, max: 120 })), { maxLength: 6 })
    fc.assert(
      fc.property(bodies, (sequence) => {
        const verdicts = new Verdicts()
        for (const [root, budget] of sequence) {
          const json = JSON.parse(JSON.stringify(root)) as unknown
          const walked = new Scan(options, budget, verdicts)
          const checked = new Scan(options, budget)
          expect(scanJson(json, walked, NONE)).toBe(everyKey(json, checked, ''))
          expect(walked.hit).toEqual(checked.hit)
          expect(walked.budget).toBe(checked.budget)
        }
      }),
      { numRuns: 300 },
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
