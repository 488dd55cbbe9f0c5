import fc from 'fast-check'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { headerValue } from '../../test/arbitraries'
import { contentTypeGuard } from './index'

function app() {
  const a = new Hono()
  a.use('*', contentTypeGuard({ required: ['application/json', 'multipart/*'] }))
  a.post('/', (c) => c.text('ok'))
  return a
}

const send = (a: Hono, type: string) =>
  a.request('/', { method: 'POST', body: '{}', headers: { 'content-type': type } })

/** Random letter case, as clients and proxies spell media types. */
const anyCase = (text: string) =>
  fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((flags) => [...text].map((ch, i) => (flags[i] ? ch.toUpperCase() : ch)).join(''))

const param = fc
  .tuple(
    fc.constantFrom('charset', 'boundary', 'q', 'x'),
    fc.stringMatching(/^[A-Za-z0-9-]{1,10}$/),
  )
  .map(([k, v]) => `${k}=${v}`)

describe('contentTypeGuard Content-Type parsing: properties', () => {
  it('answers 200 or 415, never anything else, for any Content-Type header', async () => {
    const a = app()
    await fc.assert(
      fc.asyncProperty(headerValue(120), async (type) => {
        expect([200, 415]).toContain((await send(a, type)).status)
      }),
    )
  })

  it('accepts an allowed type in any case, with any parameters and optional whitespace', async () => {
    const a = app()
    const allowed = fc.oneof(
      anyCase('application/json'),
      fc
        .constantFrom('mixed', 'form-data', 'alternative')
        .chain((sub) => anyCase(`multipart/${sub}`)),
    )
    const ws = fc.constantFrom('', ' ', '\t', '  ')
    await fc.assert(
      fc.asyncProperty(
        allowed,
        fc.array(param, { maxLength: 3 }),
        ws,
        ws,
        async (type, params, a1, a2) => {
          const header = [type, ...params].join(`${a1};${a2}`)
          expect((await send(a, header)).status, header).toBe(200)
        },
      ),
    )
  })

  it('rejects a type that only resembles an allowed one', async () => {
    const a = app()
    const near = fc.oneof(
      fc.constantFrom(
        'application/json5',
        'application/jsonx',
        'text/json',
        'multipart',
        'multipart/',
      ),
      fc.constantFrom('application/json', 'application/jso').map((t) => `${t}x`),
      fc
        .stringMatching(/^[a-z]{1,8}\/[a-z]{1,8}$/)
        .filter((t) => t !== 'application/json' && !t.startsWith('multipart/')),
    )
    await fc.assert(
      fc.asyncProperty(near, async (type) => {
        expect((await send(a, type)).status, type).toBe(415)
      }),
    )
  })
})
