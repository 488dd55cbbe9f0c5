// A route's `callbacks` (each request built as a webhook is) and its responses' `links`, and the
// check, once the whole document is built, that every link leads to an operation.
import type {
  OpenAPIDocument,
  OpenAPILink,
  OpenAPIPathItem,
  OpenAPIResponse,
} from '../model/document'
import type { OpenAPILinkMeta } from '../model/links'
import type { ComponentRegistry } from '../model/naming'
import type { StoredRoute } from '../model/route'
import { isRecord } from '../schema/common'
import type { ConvertOptions } from '../schema/convert'
import { resolveLocalRef } from '../schema/json-pointer'
import { buildSent } from './webhooks'

type Callbacks = NonNullable<OpenAPIPathItem['callbacks']>

/** The route's callbacks as the document writes them; undefined when it declares none. */
export function buildCallbacks(
  route: StoredRoute,
  registry: ComponentRegistry,
  convert: ConvertOptions,
): Callbacks | undefined {
  const declared = route.openapi?.callbacks
  if (declared === undefined || Object.keys(declared).length === 0) return undefined
  const out: Callbacks = {}
  for (const [name, urls] of Object.entries(declared)) {
    const item: Record<string, Record<string, OpenAPIPathItem>> = {}
    for (const [url, meta] of Object.entries(urls)) {
      const label = `${route.method.toUpperCase()} ${route.path} callback ${name}`
      item[url] = buildSent(meta, `The ${name} callback`, label, registry, convert)
    }
    out[name] = item
  }
  return out
}

/** Copies each declared response's `links` onto the built responses. */
export function addLinks(responses: Record<string, OpenAPIResponse>, route: StoredRoute): void {
  for (const [status, meta] of Object.entries(route.openapi?.responses ?? {})) {
    const links: Record<string, OpenAPILinkMeta> | undefined = meta.links
    const response = responses[status]
    if (links === undefined || response === undefined || Object.keys(links).length === 0) continue
    const out: Record<string, OpenAPILink> = {}
    for (const [name, link] of Object.entries(links)) out[name] = JSON.parse(JSON.stringify(link))
    response.links = out
  }
}

/** Every operation of the document with where it is: paths, webhooks and callbacks. */
function operations(doc: OpenAPIDocument): { label: string; op: OpenAPIPathItem }[] {
  const out: { label: string; op: OpenAPIPathItem }[] = []
  const visit = (where: string, item: Record<string, OpenAPIPathItem>) => {
    for (const [method, op] of Object.entries(item)) {
      out.push({ label: `${method.toUpperCase()} ${where}`, op })
      for (const [name, urls] of Object.entries(op.callbacks ?? {}))
        for (const [url, inner] of Object.entries(urls))
          visit(`${url} (callback ${name} of ${method.toUpperCase()} ${where})`, inner)
    }
  }
  for (const [path, item] of Object.entries(doc.paths)) visit(path, item)
  for (const [name, item] of Object.entries(doc.webhooks ?? {})) visit(`webhook ${name}`, item)
  return out
}

/**
 * Throws a descriptive `Error` for a link whose `operationId` no operation of `doc` has, or
 * whose local `operationRef` does not point at an operation, and for an operationId that two
 * callback or webhook operations share (routes' are checked as they are registered).
 */
export function assertLinkTargets(doc: OpenAPIDocument): void {
  const all = operations(doc)
  const ids = new Map<string, string>()
  for (const { label, op } of all) {
    if (op.operationId === undefined) continue
    const other = ids.get(op.operationId)
    if (other !== undefined)
      throw new Error(`openapi: operationId "${op.operationId}" is used by ${other} and ${label}`)
    ids.set(op.operationId, label)
  }
  for (const { label, op } of all) {
    for (const [status, response] of Object.entries(op.responses)) {
      for (const [name, link] of Object.entries(response.links ?? {})) {
        const at = `openapi: ${label}: responses.${status}.links.${name}`
        if (link.operationId !== undefined && !ids.has(link.operationId)) {
          const known = [...ids.keys()].sort().join(', ') || 'none'
          throw new Error(
            `${at} names operationId "${link.operationId}", which no operation has (operationIds: ${known})`,
          )
        }
        const ref = link.operationRef
        const target = ref?.startsWith('#/') ? resolveLocalRef(doc, ref) : undefined
        if (ref?.startsWith('#/') && !(isRecord(target) && isRecord(target.responses)))
          throw new Error(`${at}: operationRef "${ref}" points at no operation of the document`)
      }
    }
  }
}
