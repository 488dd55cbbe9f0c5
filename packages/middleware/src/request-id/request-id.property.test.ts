import fc from 'fast-check'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { headerValue } from '../../test/arbitraries'
import { requestId } from './index'

const VALID = /^[A-Za-z0-9._:=+/-]{1,255}$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

function app() {
  const a = new Hono()
  a.use('*', requestId())
  a.get('/', (c) => c.text(c.get('requestId')))
  return a
}

describe('requestId parsing of the incoming header: properties', () => {
  it('reuses an incoming ID exactly when it is 1–255 safe characters, else generates one', async () => {
    const a = app()
    await fc.assert(
      fc.asyncProperty(headerValue(300), async (incoming) => {
        const res = await a.request('/', { headers: { 'x-request-id': incoming } })
        expect(res.status).toBe(200)
        const id = await res.text()
        expect(res.headers.get('x-request-id')).toBe(id)
        // Headers trim surrounding whitespace before the middleware sees the value.
        const seen = incoming.replace(/^[ \t]+|[ \t]+$/g, '')
        if (VALID.test(seen)) expect(id).toBe(seen)
        else expect(id).toMatch(UUID)
      }),
    )
  })

  it('round-trips every valid ID', async () => {
    const a = app()
    const valid = fc.stringMatching(/^[A-Za-z0-9._:=+/-]{1,255}$/)
    await fc.assert(
      fc.asyncProperty(valid, async (id) => {
        const res = await a.request('/', { headers: { 'x-request-id': id } })
        expect(await res.text()).toBe(id)
      }),
    )
  })
})
