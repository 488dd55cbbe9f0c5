// What a route's `callbacks` and its responses' `links` must be to be documented: runtime
// expressions that parse, known keys, callback requests checked as webhooks are. Whether a link's
// operationId names an operation is only known once every route is in: document/links.ts.
import type { StoredRoute } from '../model/route'
import { parseRuntimeExpression, parseTemplate } from '../model/runtime-expression'
import { isRecord } from '../schema/common'
import type { ConvertOptions } from '../schema/convert'
import { routeError } from './route-plan'
import { assertSent } from './webhook-check'

const LINK_KEYS = ['operationId', 'operationRef', 'parameters', 'requestBody', 'description']
/** The names OpenAPI allows for component keys, kept for link and callback names too. */
const NAME = /^[A-Za-z0-9._-]+$/
/** A parameter name may be qualified by its location (`path.id`), never be only that. */
const QUALIFIER_ONLY = /^(path|query|header|cookie)\.$/

/**
 * Why `value` is not a valid link value, or undefined: a string starting with `$` must be a
 * runtime expression, one with `{$` a template of them; anything else is a constant.
 */
export function expressionProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  if (value.startsWith('$')) {
    const parsed = parseRuntimeExpression(value)
    return typeof parsed === 'string' ? parsed : undefined
  }
  if (!value.includes('{$')) return undefined
  const parsed = parseTemplate(value)
  return typeof parsed === 'string' ? parsed : undefined
}

function assertLink(route: StoredRoute, at: string, link: unknown): void {
  const fail = (message: string): never => {
    throw routeError(route, `${at}: ${message}`)
  }
  if (!isRecord(link)) fail('must be an object with an operationId or an operationRef')
  const meta = link as Record<string, unknown>
  for (const key of Object.keys(meta))
    if (!LINK_KEYS.includes(key)) fail(`unknown key "${key}" (known: ${LINK_KEYS.join(', ')})`)
  const targets = ['operationId', 'operationRef'].filter((k) => meta[k] !== undefined)
  if (targets.length !== 1) fail('needs exactly one of operationId and operationRef')
  for (const key of ['operationId', 'operationRef', 'description'])
    if (meta[key] !== undefined && (typeof meta[key] !== 'string' || meta[key] === ''))
      fail(`${key} must be a non-empty string`)
  if (meta.parameters !== undefined) {
    if (!isRecord(meta.parameters)) fail('parameters must be an object by parameter name')
    for (const [name, value] of Object.entries(meta.parameters as Record<string, unknown>)) {
      if (name === '' || QUALIFIER_ONLY.test(name)) fail(`parameter name "${name}" is empty`)
      const problem = expressionProblem(value)
      if (problem) fail(`parameters.${name} "${String(value)}": ${problem}`)
    }
  }
  const problem = expressionProblem(meta.requestBody)
  if (problem) fail(`requestBody "${String(meta.requestBody)}": ${problem}`)
}

/** Checks the `links` of each response and the route's `callbacks`; throws a descriptive Error. */
export function assertLinksAndCallbacks(route: StoredRoute, convert: ConvertOptions): void {
  for (const [status, response] of Object.entries(route.openapi?.responses ?? {})) {
    const links: unknown = isRecord(response) ? response.links : undefined
    if (links === undefined) continue
    if (!isRecord(links)) throw routeError(route, `responses.${status}.links must be an object`)
    for (const [name, link] of Object.entries(links)) {
      const at = `responses.${status}.links.${name}`
      if (!NAME.test(name)) throw routeError(route, `${at}: a link name is [A-Za-z0-9._-]+`)
      assertLink(route, at, link)
    }
  }
  const callbacks: unknown = route.openapi?.callbacks
  if (callbacks === undefined) return
  if (!isRecord(callbacks))
    throw routeError(route, 'openapi.callbacks must be an object: name → URL expression → request')
  for (const [name, urls] of Object.entries(callbacks)) {
    if (!NAME.test(name)) throw routeError(route, `callbacks.${name}: a name is [A-Za-z0-9._-]+`)
    if (!isRecord(urls) || Object.keys(urls).length === 0)
      throw routeError(route, `callbacks.${name} must map a URL expression to a request`)
    for (const [url, meta] of Object.entries(urls)) {
      const parsed = url.trim() === '' ? 'empty' : parseTemplate(url)
      if (typeof parsed === 'string')
        throw routeError(route, `callbacks.${name} URL "${url}": ${parsed}`)
      const label = `${route.method.toUpperCase()} ${route.path} callback ${name}`
      const at = `openapi: ${label} "${url}"`
      assertSent(at, label, meta, convert)
    }
  }
}
