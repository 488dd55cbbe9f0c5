import fc from 'fast-check'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { sanitizedBody, xssSanitize } from './index'

function app() {
  const a = new Hono()
  a.post('/', xssSanitize(), (c) => c.json({ body: sanitizedBody(c) ?? null }))
  return a
}

const post = (a: Hono, body: string, type = 'application/json') =>
  a.request('/', { method: 'POST', body, headers: { 'content-type': type } })

/**
 * The same value with every string (values and object keys) replaced through `f`: the expected
 * shape after sanitizing.
 */
function mapStrings(
  value: unknown,
  f: (s: string) => string,
  fKey: (s: string) => string = f,
): unknown {
  if (typeof value === 'string') return f(value)
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f, fKey))
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) {
      Object.defineProperty(out, fKey(k), {
        value: mapStrings(v, f, fKey),
        enumerable: true,
        writable: true,
        configurable: true,
      })
    }
    return out
  }
  return value
}

/** A browser's reading of the encoded text: named and numeric character references. */
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
const decode = (text: string) =>
  text.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (match, ref: string) =>
    ref[0] === '#'
      ? String.fromCodePoint(
          ref[1] === 'x' || ref[1] === 'X'
            ? Number.parseInt(ref.slice(2), 16)
            : Number(ref.slice(1)),
        )
      : (NAMED[ref] ?? match),
  )

const strings = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : value && typeof value === 'object'
      ? Object.values(value).flatMap(strings)
      : []

const keys = (value: unknown): string[] =>
  value && typeof value === 'object'
    ? [...(Array.isArray(value) ? [] : Object.keys(value)), ...Object.values(value).flatMap(keys)]
    : []

describe('xssSanitize JSON handling: properties', () => {
  it('keeps the structure of any JSON value and leaves no raw markup characters in strings', async () => {
    const a = app()
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
        const res = await post(a, JSON.stringify(value))
        expect(res.status).toBe(200)
        const { body } = (await res.json()) as { body: unknown }
        // The structure and non-string values are kept; every string and key is encoded.
        expect(mapStrings(body, () => '', decode)).toEqual(
          mapStrings(
            JSON.parse(JSON.stringify(value)),
            () => '',
            (k) => k,
          ),
        )
        for (const s of strings(body)) expect(s).not.toMatch(/[<>"']/)
        for (const k of keys(body)) expect(k).not.toMatch(/[<>"']/)
        // Round-trip: what a browser displays is exactly the text that was sent.
        expect(mapStrings(body, decode)).toEqual(JSON.parse(JSON.stringify(value)))
      }),
    )
  })

  it('answers 200 or 400, never 5xx, for any text sent as JSON', async () => {
    const a = app()
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (text) => {
        expect([200, 400]).toContain((await post(a, text)).status)
      }),
    )
  })

  it('answers 200 or 400 for JSON-looking fragments and deep nesting', async () => {
    const a = app()
    const fragment = fc
      .array(fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '"__proto__"', '1e999', 'null'), {
        maxLength: 60,
      })
      .map((parts) => parts.join(''))
    const deep = fc.integer({ min: 0, max: 3000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`)
    await fc.assert(
      fc.asyncProperty(fc.oneof(fragment, deep), async (text) => {
        expect([200, 400]).toContain((await post(a, text)).status)
      }),
    )
  })

  it('never touches Object.prototype, whatever keys the body has', async () => {
    const a = app()
    const key = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype'), fc.string())
    const obj = fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 })
    await fc.assert(
      fc.asyncProperty(obj, async (value) => {
        const text = JSON.stringify(value).replace('"a"', '"__proto__"')
        expect((await post(a, text)).status).toBe(200)
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
        expect(Object.keys(Object.prototype)).toEqual([])
      }),
    )
  })
})
