import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { Hono } from 'hono'
import { describe, expect, test, vi } from 'vitest'
import { assetHandler, etagFor, negotiateEncoding } from './assets'
import { favicon, redocStandalone, swaggerUIBundle, swaggerUICSS } from './assets.generated'

const app = new Hono()
for (const asset of [swaggerUIBundle, swaggerUICSS, redocStandalone, favicon]) {
  app.get(`/assets/${asset.fileName}`, assetHandler(asset))
}
const url = `/assets/${swaggerUIBundle.fileName}`
const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers })

async function sha16(bytes: ArrayBuffer | Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource))
  return [...digest]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, 16)
}

describe('negotiateEncoding', () => {
  const both = ['br', 'gzip'] as const
  test.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['x-gzip', 'gzip'],
    ['BR', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['br;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['identity', 'identity'],
    ['deflate, zstd', 'identity'],
    ['br;q=abc, gzip', 'gzip'],
    ['br;q=0.001, identity;q=0.002', 'identity'],
    ['*;q=0', 'identity'], // nothing acceptable: plain bytes all the same
    [',,;q=1, gzip ;q=1', 'gzip'],
    ['gzip;q=0, gzip;q=1', 'identity'], // the first mention counts
  ])('Accept-Encoding %j → %s', (header, expected) => {
    expect(negotiateEncoding(header, both)).toBe(expected)
  })

  test('an asset shipped as it is always answers identity', () => {
    expect(negotiateEncoding('br, gzip', [])).toBe('identity')
  })

  test('a hostile header is parsed in linear time: each regex runs once on one parameter', () => {
    // Counted, not timed: every regex exec (RegExp#test goes through exec too) with the text it
    // ran on. Linear overall when each regex is linear in its input (anchored, no nested
    // quantifiers) and the inputs add up to no more than the header, each parameter read once
    // for its weight and once to tell a malformed weight.
    const spaces = ' '.repeat(20_000)
    const header = `${'gzip;q=0.5,'.repeat(20_000)}deflate;q=${spaces}1${spaces}x, zstd;${spaces}q, br`
    const inputs: string[] = []
    const exec = RegExp.prototype.exec
    const spy = vi.spyOn(RegExp.prototype, 'exec').mockImplementation(function (
      this: RegExp,
      text: string,
    ) {
      inputs.push(text)
      return exec.call(this, text)
    })
    try {
      expect(negotiateEncoding(header, both)).toBe('br')
    } finally {
      spy.mockRestore()
    }
    const parameters = header.split(',').flatMap((part) => part.split(';').slice(1))
    expect(inputs.length).toBeGreaterThanOrEqual(parameters.length)
    expect(inputs.length).toBeLessThanOrEqual(2 * parameters.length)
    expect(inputs.reduce((sum, text) => sum + text.length, 0)).toBeLessThanOrEqual(
      2 * header.length,
    )
    for (const text of inputs) expect(parameters).toContain(text)
  })
})

describe('pre-compressed viewer assets', () => {
  test.each([
    ['br', 'br', brotliDecompressSync],
    ['gzip', 'gzip', gunzipSync],
    ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
  ] as const)(
    'Accept-Encoding %j → %s, the same bytes once decoded',
    async (ae, coding, decode) => {
      const res = await get(url, { 'Accept-Encoding': ae })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-encoding')).toBe(coding)
      expect(res.headers.get('vary')).toBe('Accept-Encoding')
      expect(res.headers.get('etag')).toBe(`"${swaggerUIBundle.hash}-${coding}"`)
      expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
      const body = new Uint8Array(await res.arrayBuffer())
      expect(body.byteLength).toBeLessThan(swaggerUIBundle.size / 3)
      const decoded = decode(body)
      expect(decoded.byteLength).toBe(swaggerUIBundle.size)
      expect(await sha16(decoded)).toBe(swaggerUIBundle.hash)
    },
  )

  test('without Accept-Encoding the plain bytes (decompressed from gzip) match the hash', async () => {
    const res = await get(url)
    expect(res.headers.get('content-encoding')).toBeNull()
    expect(res.headers.get('vary')).toBe('Accept-Encoding')
    const bytes = await res.arrayBuffer()
    expect(bytes.byteLength).toBe(swaggerUIBundle.size)
    expect(await sha16(bytes)).toBe(swaggerUIBundle.hash)
    expect(res.headers.get('etag')).toBe(`"${swaggerUIBundle.hash}"`)
  })

  test('a PNG is never re-encoded', async () => {
    const res = await get(`/assets/${favicon.fileName}`, { 'Accept-Encoding': 'br, gzip' })
    expect(res.headers.get('content-encoding')).toBeNull()
    expect(res.headers.get('etag')).toBe(`"${favicon.hash}"`)
    expect(await sha16(await res.arrayBuffer())).toBe(favicon.hash)
  })

  test.each([
    ['br', 'br', 'br'],
    ['gzip', 'br', 'gzip'], // a cache that holds the gzip copy revalidates it, whatever it asks
    ['identity', 'gzip', 'identity'],
  ] as const)(
    'If-None-Match with the %s ETag → 304 naming it (Accept-Encoding %s)',
    async (held, ae, expected) => {
      const res = await get(url, {
        'If-None-Match': etagFor(swaggerUIBundle, held),
        'Accept-Encoding': ae,
      })
      expect(res.status).toBe(304)
      expect(await res.text()).toBe('')
      expect(res.headers.get('etag')).toBe(etagFor(swaggerUIBundle, expected))
      expect(res.headers.get('vary')).toBe('Accept-Encoding')
    },
  )

  test('If-None-Match: * answers 304 with the ETag of the coding this request would get', async () => {
    const res = await get(url, { 'If-None-Match': '*', 'Accept-Encoding': 'gzip' })
    expect(res.status).toBe(304)
    expect(res.headers.get('etag')).toBe(`"${swaggerUIBundle.hash}-gzip"`)
  })

  test.each([
    `"${swaggerUIBundle.hash}-zstd"`,
    `"${swaggerUIBundle.hash}-br-gzip"`,
    `"${redocStandalone.hash}-br"`,
  ])('If-None-Match %s is no match → 200', async (etag) => {
    const res = await get(url, { 'If-None-Match': etag, 'Accept-Encoding': 'br' })
    expect(res.status).toBe(200)
  })

  test('concurrent first requests all get the full body', async () => {
    const fresh = new Hono()
    fresh.get('/a', assetHandler(swaggerUICSS))
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        fresh.request('/a', { headers: { 'Accept-Encoding': i % 2 ? 'br' : '' } }),
      ),
    )
    for (const res of results) expect(res.status).toBe(200)
    const plain = await results[0]?.arrayBuffer()
    expect(plain?.byteLength).toBe(swaggerUICSS.size)
  })

  test('the compressed forms are a fraction of the plain files', () => {
    expect(swaggerUIBundle.encodings).toEqual(['br', 'gzip'])
    expect(redocStandalone.encodings).toEqual(['br', 'gzip'])
    expect(favicon.encodings).toEqual([])
  })
})
