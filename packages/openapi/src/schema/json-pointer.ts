import { isRecord } from './common'

/** One JSON Pointer reference token, unescaped (RFC 6901: `~1` is `/`, then `~0` is `~`). */
export function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~')
}

/**
 * The object member a local reference points to (`#/paths/~1users~1{id}/get`: a JSON Pointer in a
 * URI fragment, so its tokens are percent-decoded, then unescaped), or undefined when any step is
 * missing, not an object, or not valid percent-encoding. `#` alone is the root.
 */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref === '#') return root
  if (!ref.startsWith('#/')) return undefined
  let node: unknown = root
  for (const raw of ref.slice(2).split('/')) {
    let key: string
    try {
      key = unescapeToken(decodeURIComponent(raw))
    } catch {
      return undefined
    }
    if (!isRecord(node) || !Object.hasOwn(node, key)) return undefined
    node = node[key]
  }
  return node
}
