// Which operations a route contributes: one per method (`all` is five) and path variant
// (`:id?` is two), each with its operationId and its priority against a route on the same path.
import type { StoredRoute } from '../model/route'
import { pascal } from '../schema/common'
import { type PathVariant, parseRoutePath } from './path'

/** Methods an `all` route is documented under. */
export const ALL_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

/** One operation a route contributes: a method on one path variant. */
export interface PlannedOperation {
  method: string
  variant: PathVariant
  operationId?: string
  /** Who documents a method+path registered twice: metadata beats none, a method beats `all`. */
  priority: number
}

/** An `Error` naming the route, for every route rule. */
export function routeError(route: StoredRoute, message: string): Error {
  return new Error(`openapi: ${route.method.toUpperCase()} ${route.path}: ${message}`)
}

/** The operations `route` contributes; throws for a wildcard path with metadata or a repeated parameter. */
export function planRoute(route: StoredRoute): PlannedOperation[] {
  const variants = parseRoutePath(route.path)
  if (!variants) {
    if (route.openapi) {
      throw routeError(
        route,
        'a wildcard path cannot be described in OpenAPI; drop `openapi` or use a path parameter',
      )
    }
    return []
  }
  const methods = route.method === 'all' ? ALL_METHODS : [route.method]
  const priority = (route.openapi ? 2 : 0) + (route.method === 'all' ? 0 : 1)
  const baseId = route.openapi?.operationId
  const plan: PlannedOperation[] = []
  for (const variant of variants) {
    const names = variant.params.map((p) => p.name)
    const dup = names.find((n, i) => names.indexOf(n) !== i)
    if (dup !== undefined) throw routeError(route, `path parameter "${dup}" appears twice`)
    for (const method of methods) {
      let operationId = baseId
      if (operationId !== undefined) {
        if (route.method === 'all') operationId += pascal(method)
        if (variant.omitted.length > 0)
          operationId += `Without${variant.omitted.map(pascal).join('And')}`
      }
      plan.push({ method, variant, operationId, priority })
    }
  }
  return plan
}
