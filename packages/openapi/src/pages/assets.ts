import type { Context } from 'hono'
import type { StoredEncoding, ViewerAsset, ViewerBodies } from './asset-types'

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

/** A content coding the asset routes can answer with. */
export type ServedEncoding = StoredEncoding | 'identity'

// Server preference when the client weighs several codings the same: smallest first.
const PREFERENCE: readonly ServedEncoding[] = ['br', 'gzip', 'identity']

/**
 * Picks the coding to send from an `Accept-Encoding` header (RFC 9110 12.5.3): the highest `q`
 * among the codings `available` besides `identity`, ties broken by br > gzip > identity. A coding
 * the header does not name takes the `q` of `*` (`identity` too, which is otherwise acceptable:
 * only `identity;q=0`, or `*;q=0` without an `identity` entry, rules it out). When the client rules out everything
 * available, the plain bytes are sent anyway (a client may not refuse them, RFC 9110 12.5.3).
 */
export function negotiateEncoding(
  header: string | undefined,
  available: readonly StoredEncoding[],
): ServedEncoding {
  if (header === undefined || available.length === 0) return 'identity'
  const weights = new Map<string, number>()
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';')
    const coding = name.trim().toLowerCase()
    if (coding === '') continue
    let q = 1
    for (const param of params) {
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param)
      if (m) q = Number(m[1])
      else if (/^\s*q\s*=/i.test(param)) q = 0 // a malformed weight counts as "not acceptable"
    }
    // The first mention of a coding counts; a later duplicate cannot widen it.
    if (!weights.has(coding)) weights.set(coding, Math.min(q, 1))
  }
  const star = weights.get('*')
  const weightOf = (coding: ServedEncoding): number => {
    const explicit = weights.get(coding) ?? (coding === 'gzip' ? weights.get('x-gzip') : undefined)
    if (explicit !== undefined) return explicit
    if (coding === 'identity') return star ?? 1
    return star ?? 0
  }
  let best: ServedEncoding = 'identity'
  let bestWeight = 0
  for (const coding of PREFERENCE) {
    if (coding !== 'identity' && !available.includes(coding)) continue
    const w = weightOf(coding)
    if (w > bestWeight) {
      best = coding
      bestWeight = w
    }
  }
  return best
}

/** The ETag of one coding of an asset: the plain bytes keep `"<hash>"`. */
export function etagFor(asset: ViewerAsset, encoding: ServedEncoding): string {
  return encoding === 'identity' ? `"${asset.hash}"` : `"${asset.hash}-${encoding}"`
}

function decodeBase64(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

// The bodies are about 2 MB of base64: loaded once, on the first asset request, never at import.
// One file in the package for both builds: `import()` is available to CommonJS as well.
let bodiesModule: Promise<ViewerBodies> | undefined
function loadBodies(): Promise<ViewerBodies> {
  bodiesModule ??= import('./viewer-bodies.generated.js').then((m) => m.bodies)
  return bodiesModule
}

const decoded = new Map<string, Promise<Uint8Array<ArrayBuffer>>>()

async function gunzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

/**
 * The bytes of `asset` in one coding, decoded once and kept (the set of assets is fixed). The
 * plain bytes of a pre-compressed file are its gzip form, decompressed.
 */
export function assetBytes(
  asset: ViewerAsset,
  encoding: ServedEncoding,
): Promise<Uint8Array<ArrayBuffer>> {
  const key = `${asset.hash} ${encoding}`
  let bytes = decoded.get(key)
  if (bytes === undefined) {
    bytes = loadBodies().then((bodies) => {
      const forms = bodies[asset.hash]
      const stored = forms?.[encoding]
      if (stored !== undefined) return decodeBase64(stored)
      if (encoding === 'identity' && forms?.gzip !== undefined) {
        return assetBytes(asset, 'gzip').then(gunzip)
      }
      throw new Error(`viewer asset ${asset.fileName} has no ${encoding} body; rebuild`)
    })
    decoded.set(key, bytes)
    // A failed load may be retried by the next request.
    bytes.catch(() => decoded.delete(key))
  }
  return bytes
}

/**
 * A handler that serves one viewer asset pre-compressed: brotli or gzip as the request's
 * `Accept-Encoding` allows (plain bytes otherwise), with `Vary: Accept-Encoding`, an ETag per
 * coding, a one-year immutable cache and `304 Not Modified` when `If-None-Match` names the ETag of
 * any coding (the 304 carries the ETag it matched, so a cache keeps the copy it has).
 */
export function assetHandler(asset: ViewerAsset): (c: Context) => Promise<Response> {
  const codings: readonly ServedEncoding[] = [...asset.encodings, 'identity']
  return async function viewerAsset(c: Context): Promise<Response> {
    const headers: Record<string, string> = {
      'Cache-Control': IMMUTABLE_CACHE,
      Vary: 'Accept-Encoding',
    }
    const encoding = negotiateEncoding(c.req.header('Accept-Encoding'), asset.encodings)
    const ifNoneMatch = c.req.header('If-None-Match')
    if (ifNoneMatch !== undefined) {
      // The coding this request would get is tried first, so `*` or several matches pick it.
      const order = [encoding, ...codings.filter((e) => e !== encoding)]
      const hit = order.find((e) => ifNoneMatchHits(ifNoneMatch, etagFor(asset, e)))
      if (hit !== undefined) return c.body(null, 304, { ...headers, ETag: etagFor(asset, hit) })
    }
    const body = await assetBytes(asset, encoding)
    headers.ETag = etagFor(asset, encoding)
    headers['Content-Type'] = asset.type
    if (encoding === 'identity') return c.body(body, 200, headers)
    headers['Content-Encoding'] = encoding
    const response = c.body(body, 200, headers)
    // Cloudflare Workers compress any response whose Content-Encoding is set, unless told the body
    // is encoded already: without `encodeBody: 'manual'` (a Workers extension other runtimes
    // ignore) the browser would get brotli of brotli and the viewer would not run.
    return new Response(response.body, {
      status: response.status,
      headers: response.headers,
      encodeBody: 'manual',
    } as ResponseInit)
  }
}
