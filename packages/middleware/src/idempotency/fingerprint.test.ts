import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { headThenBody } from './fingerprint'

describe('headThenBody', () => {
  const utf8 = new TextEncoder()
  const expected = (head: string, body: Uint8Array) =>
    new Uint8Array([...utf8.encode(head), ...body])

  it('gives the UTF-8 of the head, then the body, for any head', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 60 }),
        fc.uint8Array({ maxLength: 80 }),
        (head, body) => {
          expect(headThenBody(head, body)).toEqual(expected(head, body))
        },
      ),
      { numRuns: 2000 },
    )
  })

  it.each([
    ['POST /orders?x=1\n'],
    ['PATCH /caf%C3%A9\n'],
    ['POST /café\n'],
    ['POST /\u0080\n'],
    ['POST /😀\n'],
    ['POST /\ud800\n'],
  ])('joins %j and a body byte for byte', (head) => {
    const body = new Uint8Array([0, 0xff, 0x80, 10])
    expect(headThenBody(head, body)).toEqual(expected(head, body))
  })
})
