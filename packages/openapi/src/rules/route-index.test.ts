import { describe, expect, it } from 'vitest'
import { RouteIndex } from './route-index'

describe('RouteIndex', () => {
  it('records nothing from a rejected route', () => {
    const index = new RouteIndex()
    index.add({ method: 'get', path: '/a', openapi: { operationId: 'a' } })
    expect(() =>
      index.add({ method: 'get', path: '/b/:id', openapi: { operationId: 'a' } }),
    ).toThrow()
    // /b/{id} was not recorded, so another name for that shape is fine.
    expect(() => index.add({ method: 'get', path: '/b/:other' })).not.toThrow()
  })
})
