// The generator's limits: schemas nothing satisfies, or that ask for more than a fuzz run can
// hold, end as a CannotGenerate naming the place in the request, never as a hang or a heap.
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { OpenAPISchema } from '../schema/types'
import { CannotGenerate, filterOrGiveUp, MAX_ATTEMPTS, MAX_ITEMS, MAX_LENGTH } from './limits'
import { boundaryValues, schemaArbitrary } from './schema-arbitrary'

const resolve = (s: OpenAPISchema) => s
const body = { pointer: '/body' }
const generate = (schema: OpenAPISchema) => schemaArbitrary(fc, schema, resolve, body)

/** The CannotGenerate `run` throws (the test fails when it throws nothing or something else). */
function cannotGenerate(run: () => unknown): CannotGenerate {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(CannotGenerate)
    return error as CannotGenerate
  }
  throw new Error('expected a CannotGenerate, nothing was thrown')
}

describe('schemas the fuzzer refuses to build, with where and why', () => {
  it.each<[string, OpenAPISchema, string, string]>([
    [
      'a minLength past the limit',
      { type: 'object', properties: { text: { type: 'string', minLength: 10_000_000 } } },
      '/body/text',
      `minLength 10000000 is above the fuzzer's limit of ${MAX_LENGTH} characters`,
    ],
    [
      'a minItems past the limit',
      { type: 'array', items: { type: 'number' }, minItems: 10_000_000 },
      '/body',
      `minItems 10000000 is above the fuzzer's limit of ${MAX_ITEMS} items`,
    ],
    [
      'a minLength above the maxLength',
      { type: 'string', minLength: 5, maxLength: 4 },
      '/body',
      'minLength 5 is above maxLength 4',
    ],
    [
      'a minItems above the maxItems',
      { type: 'array', minItems: 3, maxItems: 2 },
      '/body',
      'minItems 3 is above maxItems 2',
    ],
    [
      'an integer range with no integer in it',
      { type: 'integer', minimum: 1.2, maximum: 1.8 },
      '/body',
      'no safe integer from 2 to 1',
    ],
    [
      'an empty number range',
      { type: 'number', exclusiveMinimum: 1, exclusiveMaximum: 1 },
      '/body',
      'no number from 1 to 1',
    ],
    [
      'a pattern that repeats past the limit',
      { type: 'string', pattern: '^a{10000000}$' },
      '/body',
      "pattern ^a{10000000}$ repeats {10000000} times, above the fuzzer's limit of 4096 characters",
    ],
    [
      'a nested item, under a property name with a slash',
      {
        type: 'object',
        properties: { 'a/b': { type: 'array', items: { type: 'string', minLength: 1e9 } } },
      },
      '/body/a~1b/0',
      `minLength 1000000000 is above the fuzzer's limit of ${MAX_LENGTH} characters`,
    ],
  ])('%s', (_name, schema, pointer, reason) => {
    const error = cannotGenerate(() => generate(schema))
    expect({ pointer: error.pointer, reason: error.reason }).toEqual({ pointer, reason })
    expect(error.message).toBe(`could not generate ${pointer}: ${reason}`)
  })
})

describe('filters that give up', () => {
  it(`throws after ${MAX_ATTEMPTS} draws none of which passes, naming the place`, () => {
    let draws = 0
    const never = filterOrGiveUp(
      fc,
      fc.nat().map((n) => {
        // A filter that does not give up fails here instead of drawing forever.
        if (++draws > 10 * MAX_ATTEMPTS) throw new Error('the filter never gave up')
        return n
      }),
      () => false,
      '/query/n',
      'odd even number',
    )
    const error = cannotGenerate(() => fc.sample(never, { numRuns: 1, seed: 1 }))
    expect(error.message).toBe(
      `could not generate /query/n: no odd even number in ${MAX_ATTEMPTS} attempts`,
    )
    expect(draws).toBe(MAX_ATTEMPTS)
  })

  it("keeps only passing values, and shrinks as fast-check's own filter does", () => {
    const isEven = (n: number) => n % 2 === 0
    const even = filterOrGiveUp(fc, fc.nat(1000), isEven, '/n', 'even number')
    expect(fc.sample(even, { numRuns: 200, seed: 3 }).every(isEven)).toBe(true)
    const tried: number[] = []
    const property = (n: number) => {
      tried.push(n)
      return n < 500
    }
    const ours = fc.check(fc.property(even, property), { seed: 3, numRuns: 500 })
    expect(tried.every(isEven)).toBe(true)
    const theirs = fc.check(
      fc.property(fc.nat(1000).filter(isEven), (n) => n < 500),
      {
        seed: 3,
        numRuns: 500,
      },
    )
    expect(ours.failed).toBe(true)
    expect([ours.counterexample, ours.numShrinks]).toEqual([
      theirs.counterexample,
      theirs.numShrinks,
    ])
  })

  // Through whole schemas (an email of at most 3 characters, `^[a-z]{8}$` within maxLength 4)
  // in a child process, tests/openapi/cli.test.ts: a generator that never gives up would hang
  // this process, where no test timeout can fire.
})

describe('sizes the fuzzer clamps', () => {
  it('generates a huge maxLength or maxItems up to its limits, and valid short emails', () => {
    const strings = fc.sample(generate({ type: 'string', maxLength: 1e9 }), {
      numRuns: 300,
      seed: 1,
    })
    expect(Math.max(...(strings as string[]).map((s) => [...s].length))).toBeLessThanOrEqual(
      MAX_LENGTH,
    )
    const arrays = fc.sample(generate({ type: 'array', maxItems: 1e9 }), { numRuns: 300, seed: 1 })
    expect(Math.max(...arrays.map((a) => (a as unknown[]).length))).toBeLessThanOrEqual(MAX_ITEMS)
    const emails = fc.sample(generate({ type: 'string', format: 'email', maxLength: 10 }), {
      numRuns: 100,
      seed: 1,
    })
    expect((emails as string[]).every((e) => e.length <= 10 && e.includes('@'))).toBe(true)
  })

  it('leaves out boundary near misses longer than the limits', () => {
    const values = [
      ...boundaryValues({ type: 'string', minLength: 10_000_000, maxLength: 20_000_000 }, resolve),
      ...boundaryValues({ type: 'array', maxItems: 10_000_000 }, resolve),
    ]
    expect(values.length).toBeGreaterThan(0)
    for (const value of values) {
      expect((value as string | unknown[]).length ?? 0).toBeLessThanOrEqual(MAX_LENGTH + 1)
    }
    // Within the limits, the off-by-one values are still there.
    expect(boundaryValues({ type: 'string', maxLength: 4096 }, resolve)).toContain('a'.repeat(4097))
    expect(boundaryValues({ type: 'array', maxItems: 3 }, resolve)).toContainEqual([
      null,
      null,
      null,
      null,
    ])
  })
})
