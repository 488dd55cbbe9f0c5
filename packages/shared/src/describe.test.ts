import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import {
  describeMiddleware,
  getMiddlewareDescription,
  type MiddlewareDescription,
  OPENAPI_DESCRIPTION,
} from './describe'

const tenant: MiddlewareDescription = {
  security: [[{ name: 'tenant', scheme: { type: 'apiKey', in: 'header', name: 'X-Tenant' } }]],
  responses: [{ status: 400, description: 'No tenant header' }],
}

describe('describeMiddleware', () => {
  it('uses a registered symbol, so a reader needs no import of this package', () => {
    expect(OPENAPI_DESCRIPTION).toBe(Symbol.for('palisade.openapi.describe'))
  })

  it('returns the same function, which still works as middleware', async () => {
    const mw = async (_c: unknown, next: () => Promise<void>) => next()
    const out = describeMiddleware(mw, tenant)
    expect(out).toBe(mw)
    const app = new Hono()
    app.get('/', out, (c) => c.text('ok'))
    expect(await (await app.request('/')).text()).toBe('ok')
  })

  it('stores a frozen copy, readable through the symbol and getMiddlewareDescription', () => {
    const input = structuredClone(tenant)
    const mw = describeMiddleware(() => undefined, input)
    const stored = getMiddlewareDescription(mw)
    expect(stored).toEqual(tenant)
    expect((mw as unknown as Record<symbol, unknown>)[OPENAPI_DESCRIPTION]).toBe(stored)
    // Later changes by the caller do not leak in, and nobody can edit it afterwards.
    ;(input.responses as { status: number }[])[0] = { status: 500 }
    expect(stored?.responses?.[0]?.status).toBe(400)
    expect(Object.isFrozen(stored?.security?.[0]?.[0]?.scheme)).toBe(true)
  })

  it('is not enumerable: spreading or serialising the function does not expose it', () => {
    const mw = describeMiddleware(() => undefined, tenant)
    expect(Object.keys(mw)).toEqual([])
    expect(Object.getOwnPropertySymbols({ ...mw })).toEqual([])
  })

  it('replaces an earlier description', () => {
    const mw = describeMiddleware(
      describeMiddleware(() => undefined, tenant),
      { headers: [] },
    )
    expect(getMiddlewareDescription(mw)).toEqual({ headers: [] })
  })

  it('rejects a non-function or a non-object description with a TypeError', () => {
    expect(() => describeMiddleware(42 as never, tenant)).toThrow(/^describeMiddleware: /)
    expect(() => describeMiddleware(() => undefined, null as never)).toThrow(TypeError)
    expect(() =>
      describeMiddleware(() => undefined, { responses: [{ toJSON() {} }] } as never),
    ).toThrow(/plain data/)
  })

  it('reads undefined from anything without a description', () => {
    expect(getMiddlewareDescription(() => undefined)).toBeUndefined()
    expect(getMiddlewareDescription('x')).toBeUndefined()
    expect(getMiddlewareDescription(undefined)).toBeUndefined()
  })
})
