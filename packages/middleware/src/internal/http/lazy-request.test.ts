import type { Context } from 'hono'
import { describe, expect, it } from 'vitest'
import { isLazyRequest } from './lazy-mark'
import { lazyBodyRequest } from './lazy-request'
import { requestBuiltFrom } from './node-server'

describe('a request served lazily', () => {
  function lazyRequest() {
    const raw = new Request('http://x.example/', { method: 'POST', body: 'abc' })
    let built = 0
    const lazy = lazyBodyRequest(raw, () => {
      built++
      return new Request(raw, { body: 'abc' })
    })
    return { raw, lazy, built: () => built }
  }

  it('says it is one without building the request; a plain one does not', () => {
    const { raw, lazy, built } = lazyRequest()
    if (lazy === undefined) return // internals switched off: nothing is served lazily
    expect(isLazyRequest(lazy)).toBe(true)
    expect(isLazyRequest(raw)).toBe(false)
    expect(built()).toBe(0)
  })

  it('is never taken for node-server’s own request, and reading that builds nothing', () => {
    const { lazy, built } = lazyRequest()
    if (lazy === undefined) return
    const c = { req: { raw: lazy } } as unknown as Context
    expect(requestBuiltFrom(c, {})).toBe(false)
    expect(built()).toBe(0)
  })

  it('builds the request once its body is read', async () => {
    const { lazy, built } = lazyRequest()
    if (lazy === undefined) return
    expect(await lazy.text()).toBe('abc')
    expect(built()).toBe(1)
  })
})
