// What `openapi.deprecated` adds to an operation: `deprecated: true`, the headers the route's
// deprecation step sets (app/deprecation.ts) on every response, and the 410 `gone` it answers
// after the sunset when the app enforces sunsets.
import { PROBLEM_JSON, PROBLEM_SCHEMA } from '@palisade/shared/problem'
import type { OpenAPIHeader, OpenAPIPathItem } from '../model/document'
import type { ComponentRegistry } from '../model/naming'
import type { StoredRoute } from '../model/route'
import { deprecationOf, planDeprecation, type SunsetMode } from '../rules/deprecation'

function headersOf(route: StoredRoute): Record<string, OpenAPIHeader> {
  const plan = planDeprecation(deprecationOf(route.openapi) ?? {})
  const headers: Record<string, OpenAPIHeader> = {}
  if (plan.deprecationHeader !== undefined) {
    headers.Deprecation = {
      description:
        'RFC 9745: the operation is deprecated since this instant (an RFC 9651 Date: `@` and Unix seconds)',
      schema: { type: 'string', const: plan.deprecationHeader },
    }
  }
  if (plan.sunsetHeader !== undefined) {
    headers.Sunset = {
      description: 'RFC 8594: the operation stops answering at this instant (an HTTP-date, GMT)',
      schema: { type: 'string', const: plan.sunsetHeader },
    }
  }
  if (plan.links.length > 0) {
    headers.Link = {
      description: `RFC 8288: the page on the deprecation, appended to any Link the operation sets: ${plan.links.join(', ')}`,
      // A list of RFC 8288 link-values (the handler's own may come first), each `<URI>; params`:
      // bounded and shaped, as the OWASP ruleset asks of every string.
      schema: { type: 'string', maxLength: 8192, pattern: '^<[^<>]*>' },
    }
  }
  return headers
}

/**
 * Describes the headers of a deprecated `route` on every response
 * (they are set on all of them, rejections included); with `sunsetMode: 'enforce'` and a sunset,
 * documents the 410 `gone` too. Called once the responses are complete.
 */
export function applyDeprecation(
  operation: OpenAPIPathItem,
  route: StoredRoute,
  registry: ComponentRegistry,
  sunsetMode: SunsetMode | undefined,
): void {
  const deprecated = deprecationOf(route.openapi)
  if (deprecated === undefined) return
  if (
    sunsetMode === 'enforce' &&
    deprecated.sunset !== undefined &&
    operation.responses['410'] === undefined
  ) {
    operation.responses['410'] = {
      description: 'The operation is past its sunset (`gone`)',
      content: {
        [PROBLEM_JSON]: { schema: registry.ref({ ...PROBLEM_SCHEMA, title: 'Problem' }) },
      },
    }
    const sorted = Object.entries(operation.responses).sort(([a], [b]) => a.localeCompare(b))
    operation.responses = Object.fromEntries(sorted)
  }
  const headers = headersOf(route)
  if (Object.keys(headers).length === 0) return
  for (const response of Object.values(operation.responses)) {
    response.headers ??= {}
    for (const [name, header] of Object.entries(headers)) {
      response.headers[name] ??= structuredClone(header)
    }
  }
}
