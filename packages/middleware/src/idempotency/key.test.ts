import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_KEY_LENGTH, parseIdempotencyKey, parseKeyItem } from './key'

/** Characters of an sf-string's inside, with the two that need escaping and a few that are refused. */
const keyChar = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((n) => String.fromCharCode(n)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('"', '\\', '\\"', '\\\\', '\t', 'é', '\u0000', '\u007f'),
  },
)

/** Header values shaped like an Idempotency-Key: quoted, sometimes padded, with parameters, or not quoted. */
const headerLike = fc
  .tuple(
    fc.constantFrom('', ' ', '  '),
    fc.constantFrom('"', '', "'"),
    fc.oneof(
      fc.string({ unit: keyChar, maxLength: 40 }),
      fc.string({ unit: keyChar, minLength: MAX_KEY_LENGTH - 2, maxLength: MAX_KEY_LENGTH + 2 }),
    ),
    fc.constantFrom('"', '', "'"),
    fc.constantFrom('', ';a=1', ';x', ', "b"', ' '),
  )
  .map((parts) => parts.join(''))

describe('parseIdempotencyKey', () => {
  it('answers as the Structured Fields parser does for every header, fast path or not', () => {
    fc.assert(
      fc.property(fc.oneof(headerLike, fc.string({ maxLength: 300 })), (value) => {
        expect(parseIdempotencyKey(value)).toEqual(parseKeyItem(value))
      }),
      { numRuns: 5000 },
    )
  })

  it.each([
    ['"8e03978e-40d5-43e8-bc93-6894a57f9324"', { key: '8e03978e-40d5-43e8-bc93-6894a57f9324' }],
    ['"a b"', { key: 'a b' }],
    [`"${'k'.repeat(MAX_KEY_LENGTH)}"`, { key: 'k'.repeat(MAX_KEY_LENGTH) }],
    ['"a\\"b"', { key: 'a"b' }],
    [' "padded" ', { key: 'padded' }],
    ['"with";param=1', { key: 'with' }],
  ])('reads %s', (value, expected) => {
    expect(parseIdempotencyKey(value)).toEqual(expected)
  })

  it.each([
    ['""', 'must not be empty'],
    [`"${'k'.repeat(MAX_KEY_LENGTH + 1)}"`, `at most ${MAX_KEY_LENGTH}`],
    ['token', 'must be a Structured Fields string'],
    ['8e03978e', 'one Structured Fields string'],
    ['"a", "b"', 'one Structured Fields string'],
    ['"tab\there"', 'one Structured Fields string'],
  ])('refuses %s', (value, message) => {
    const parsed = parseIdempotencyKey(value)
    expect('error' in parsed && parsed.error).toContain(message)
  })
})
