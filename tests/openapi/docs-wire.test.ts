/**
 * Issue 16, point 2: bytes on the wire for a cold load of each docs page (the HTML and every file
 * it loads), as a browser asks for them (`Accept-Encoding: gzip, deflate, br, zstd`), within the
 * budgets in size-budgets.json. Before pre-compression: 1,922,935 B (explorer) and 1,106,446 B
 * (reference).
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { openapi } from '@palisade/openapi'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const budgets = JSON.parse(readFileSync(join(root, 'size-budgets.json'), 'utf8'))
  .docsWire as Record<string, number>
const app = new Hono()
openapi(app, { info: { title: 'Wire', version: '1.0.0' } })

async function coldLoad(page: string, acceptEncoding: string): Promise<number> {
  const headers = { 'Accept-Encoding': acceptEncoding }
  const res = await app.request(page, { headers })
  const html = await res.text()
  let total = new TextEncoder().encode(html).byteLength
  for (const [, src] of html.matchAll(/(?:src|href)="(\/[^"]+)"/g)) {
    const asset = await app.request(src ?? '', { headers })
    expect(asset.status, src).toBe(200)
    total += (await asset.arrayBuffer()).byteLength
  }
  return total
}

describe('docs pages on the wire', () => {
  it.each(['/explorer', '/reference'])('%s: a cold load stays within its budget', async (page) => {
    const brotli = await coldLoad(page, 'gzip, deflate, br, zstd')
    const gzip = await coldLoad(page, 'gzip, deflate')
    const plain = await coldLoad(page, 'identity')
    console.log(`${page}: ${brotli} B with br, ${gzip} B with gzip, ${plain} B plain`)
    expect(budgets[page]).toBeGreaterThan(0)
    expect(brotli).toBeLessThanOrEqual(budgets[page] ?? 0)
    expect(brotli).toBeLessThan(gzip)
    expect(gzip).toBeLessThan(plain / 3)
  })
})
