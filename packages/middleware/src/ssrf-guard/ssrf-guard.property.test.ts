import fc from 'fast-check'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { ipv4Value } from '../../test/arbitraries'
import { formatIPv4 } from '../internal/network/ip'
import { checkUrl, type SsrfResolver, ssrfGuard } from './index'

// No hostname is ever resolved for real: the fake answers with a public address.
const resolve: SsrfResolver = async () => ['93.184.215.14']
const policy = { resolve, resolveTimeout: 1000 }

/** Every spelling of an IPv4 address the WHATWG URL parser turns back into it. */
function spellings(v: number): string[] {
  const octets = [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255]
  return [
    formatIPv4(v),
    String(v),
    `0x${v.toString(16)}`,
    `0${v.toString(8)}`,
    octets.map((o) => `0x${o.toString(16)}`).join('.'),
    octets.map((o) => `0${o.toString(8)}`).join('.'),
    `${octets[0]}.${(v & 0xffffff) >>> 0}`,
    `[::ffff:${formatIPv4(v)}]`,
  ]
}

describe('ssrfGuard URL handling: properties', () => {
  it('checkUrl never throws and only answers ok, 400 or 403, for any string', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 80 }), fc.webUrl()), async (text) => {
        const verdict = await checkUrl(text, policy)
        if (!verdict.ok) expect([400, 403]).toContain(verdict.status)
      }),
    )
  })

  it('blocks loopback, private and link-local IPv4 in every spelling', async () => {
    const internal = fc.oneof(
      fc.integer({ min: 0x7f000000, max: 0x7fffffff }), // 127/8
      fc.integer({ min: 0x0a000000, max: 0x0affffff }), // 10/8
      fc.integer({ min: 0xa9fe0000, max: 0xa9feffff }), // 169.254/16
      fc.integer({ min: 0xc0a80000, max: 0xc0a8ffff }), // 192.168/16
    )
    await fc.assert(
      fc.asyncProperty(internal, async (v) => {
        for (const host of spellings(v)) {
          const verdict = await checkUrl(`http://${host}/x`, policy)
          expect(verdict, host).toMatchObject({ ok: false, status: 403 })
        }
      }),
    )
  })

  it('judges every spelling of one address alike', async () => {
    await fc.assert(
      fc.asyncProperty(ipv4Value, async (v) => {
        const verdicts = await Promise.all(
          spellings(v).map(async (host) => (await checkUrl(`http://${host}/`, policy)).ok),
        )
        expect(new Set(verdicts).size).toBe(1)
      }),
    )
  })

  it('the middleware never answers 5xx, whatever the url field holds', async () => {
    const app = new Hono()
    app.post('/fetch', ssrfGuard(policy), (c) => c.text('ok'))
    const field = fc.oneof(fc.string({ maxLength: 60 }), fc.webUrl(), fc.jsonValue())
    await fc.assert(
      fc.asyncProperty(field, async (url) => {
        const res = await app.request('/fetch', {
          method: 'POST',
          body: JSON.stringify({ url }),
          headers: { 'content-type': 'application/json' },
        })
        expect([200, 400, 403]).toContain(res.status)
      }),
    )
  })
})
