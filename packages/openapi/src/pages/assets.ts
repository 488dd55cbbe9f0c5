import type { Context } from 'hono'
import type { ViewerAsset } from './asset-types'

/** Hashed file names never change content, so browsers may keep them for a year. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable'

/** `/explorer` → `/explorer/assets`; `/` → `/assets`; a trailing slash is not doubled. */
export function assetsPathFor(pagePath: string): string {
  return `${pagePath.replace(/\/+$/, '')}/assets`
}

/** True when an `If-None-Match` header value matches `etag` (weak comparison, RFC 9110 13.1.2). */
export function ifNoneMatchHits(header: string, etag: string): boolean {
  const opaque = etag.replace(/^W\//, '')
  for (const part of header.split(',')) {
    const candidate = part.trim()
    if (candidate === '*' || candidate.replace(/^W\//, '') === opaque) return true
  }
  return false
}

function decodeBase64(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/**
 * A handler that serves one in-memory asset with its content type, an ETag, a one-year immutable
 * cache and `304 Not Modified` for a matching `If-None-Match`. Binary bodies are decoded once, on
 * the first request, not at construction.
 */
export function assetHandler(asset: ViewerAsset): (c: Context) => Response {
  const etag = `"${asset.hash}"`
  let bytes: Uint8Array<ArrayBuffer> | undefined
  return function viewerAsset(c: Context): Response {
    const headers = { ETag: etag, 'Cache-Control': IMMUTABLE_CACHE }
    const ifNoneMatch = c.req.header('If-None-Match')
    if (ifNoneMatch !== undefined && ifNoneMatchHits(ifNoneMatch, etag)) {
      return c.body(null, 304, headers)
    }
    let body: string | Uint8Array<ArrayBuffer> = asset.body
    if (asset.encoding === 'base64') {
      bytes ??= decodeBase64(asset.body)
      body = bytes
    }
    return c.body(body, 200, { ...headers, 'Content-Type': asset.type })
  }
}
