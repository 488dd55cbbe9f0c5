// OpenAPI runtime expressions (3.1 §4.8.20.4): what links' parameters and callbacks' URLs are
// written in. Parsed here once: the document builder refuses a malformed one, and `palisade fuzz`
// evaluates them against the request it sent and the response it got.
import { TOKEN } from '@palisade/shared/token'
import { unescapeToken } from '../schema/json-pointer'

/** One parsed runtime expression. */
export type RuntimeExpression =
  | { kind: 'url' | 'method' | 'statusCode' }
  | { kind: 'header' | 'query' | 'path'; of: 'request' | 'response'; name: string }
  | { kind: 'body'; of: 'request' | 'response'; pointer: string[] }

/** A reference token of a JSON pointer: `~` only as `~0` or `~1` (RFC 6901). */
const REFERENCE_TOKEN = /^(?:[^~/]|~[01])*$/

/**
 * The expression `text` stands for, or a sentence saying why it is not one (ABNF of OpenAPI 3.1
 * §4.8.20.4: `$url`, `$method`, `$statusCode`, `$request.` / `$response.` followed by
 * `header.<token>`, `query.<name>`, `path.<name>` or `body` with an optional `#/json/pointer`).
 */
export function parseRuntimeExpression(text: string): RuntimeExpression | string {
  if (text === '$url') return { kind: 'url' }
  if (text === '$method') return { kind: 'method' }
  if (text === '$statusCode') return { kind: 'statusCode' }
  const m = /^\$(request|response)\.(.*)$/s.exec(text)
  if (!m) return 'a runtime expression is $url, $method, $statusCode, $request.… or $response.…'
  const of = m[1] as 'request' | 'response'
  const source = m[2] as string
  const part = /^(header|query|path)\.(.*)$/s.exec(source)
  if (part) {
    const kind = part[1] as 'header' | 'query' | 'path'
    const name = part[2] as string
    if (kind === 'path' && of === 'response') return '$response has no path parameters'
    if (kind === 'query' && of === 'response') return '$response has no query parameters'
    if (name === '') return `$${of}.${kind}. needs a name`
    if (kind === 'header' && !TOKEN.test(name)) return `"${name}" is not an HTTP header name`
    return { kind, of, name }
  }
  if (source === 'body') return { kind: 'body', of, pointer: [] }
  if (!source.startsWith('body#'))
    return `$${of}.${source} is not header.…, query.…, path.… or body`
  const pointer = source.slice('body#'.length)
  if (pointer !== '' && !pointer.startsWith('/')) return `"${pointer}" is not a JSON pointer`
  const tokens = pointer === '' ? [] : pointer.slice(1).split('/')
  if (!tokens.every((t) => REFERENCE_TOKEN.test(t)))
    return `"${pointer}" is not a JSON pointer (~ only as ~0 or ~1)`
  return { kind: 'body', of, pointer: tokens.map(unescapeToken) }
}

/**
 * The expressions embedded in `text` between braces (`https://{$request.body#/host}/hook`), or
 * a sentence saying what is wrong with one. Text outside braces is kept as is.
 */
export function parseTemplate(text: string): (string | RuntimeExpression)[] | string {
  const parts: (string | RuntimeExpression)[] = []
  let rest = text
  while (rest !== '') {
    const open = rest.indexOf('{')
    if (open < 0) {
      parts.push(rest)
      break
    }
    if (open > 0) parts.push(rest.slice(0, open))
    const close = rest.indexOf('}', open)
    if (close < 0) return `"{" at ${text.length - rest.length + open} is never closed`
    const parsed = parseRuntimeExpression(rest.slice(open + 1, close))
    if (typeof parsed === 'string') return `{${rest.slice(open + 1, close)}}: ${parsed}`
    parts.push(parsed)
    rest = rest.slice(close + 1)
  }
  return parts
}

/** What an expression is evaluated against: one request sent and the response it got. */
export interface ExpressionContext {
  /** The full URL of the request. */
  url: string
  method: string
  statusCode: number
  request: {
    headers: Headers
    query: URLSearchParams
    path: Record<string, string>
    body: unknown
  }
  response: { headers: Headers; body: unknown }
}

/** Follows `pointer` into `value`; undefined where nothing is. */
function at(value: unknown, pointer: readonly string[]): unknown {
  let node = value
  for (const token of pointer) {
    if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(token)) node = node[Number(token)]
    else if (node !== null && typeof node === 'object' && Object.hasOwn(node, token))
      node = (node as Record<string, unknown>)[token]
    else return undefined
  }
  return node
}

/** The value of `expression` in `ctx`; undefined when the request or response has none. */
export function evaluateExpression(expression: RuntimeExpression, ctx: ExpressionContext): unknown {
  switch (expression.kind) {
    case 'url':
      return ctx.url
    case 'method':
      return ctx.method
    case 'statusCode':
      return ctx.statusCode
    case 'header':
      return ctx[expression.of].headers.get(expression.name) ?? undefined
    case 'query':
      return ctx.request.query.get(expression.name) ?? undefined
    case 'path':
      return ctx.request.path[expression.name]
    case 'body':
      return at(ctx[expression.of].body, expression.pointer)
  }
}
