import type { StoredRoute } from '../model/route'
import type { ConvertOptions } from '../schema/convert'
import { assertLinksAndCallbacks } from './links-check'
import { assertContent, assertRoute } from './route-check'
import { type PlannedOperation, planRoute, routeError } from './route-plan'

/**
 * Cross-route rules, checked as routes arrive: unique operationIds, one parameter naming per
 * path shape (`/users/{id}` and `/users/{userId}` are the same path to OpenAPI), and at most one
 * route documenting a method on a path.
 */
export class RouteIndex {
  /** @param convert - schema converters (`converters` option), for the content checks */
  constructor(private readonly convert: ConvertOptions = {}) {}

  private readonly operationIds = new Map<string, string>()
  private readonly shapes = new Map<string, string>()
  private readonly owners = new Map<string, { priority: number; route: string }>()

  /** Validates `route` against the routes added so far, then records it; records nothing on error. */
  add(route: StoredRoute): void {
    this.record(route, this.check(route))
  }

  /** Throws if `route` breaks a rule; records nothing. Returns what `record` needs. */
  check(route: StoredRoute): PlannedOperation[] {
    assertRoute(route)
    assertContent(route, { converters: this.convert.converters })
    assertLinksAndCallbacks(route, { converters: this.convert.converters })
    const plan = planRoute(route)
    const label = `${route.method.toUpperCase()} ${route.path}`
    const ids = new Set<string>()
    for (const op of plan) {
      if (op.operationId !== undefined) {
        const other = this.operationIds.get(op.operationId)
        if (other !== undefined || ids.has(op.operationId)) {
          throw routeError(
            route,
            `operationId "${op.operationId}" is already used by ${other ?? label}`,
          )
        }
        ids.add(op.operationId)
      }
      const shape = op.variant.template.replace(/\{[^}]*\}/g, '{}')
      const known = this.shapes.get(shape)
      if (known !== undefined && known !== op.variant.template) {
        throw routeError(
          route,
          `${op.variant.template} and ${known} are the same path with different parameter names`,
        )
      }
      const owner = this.owners.get(`${op.method} ${op.variant.template}`)
      if (owner && owner.priority === op.priority && op.priority >= 2) {
        throw routeError(
          route,
          `${op.method.toUpperCase()} ${op.variant.template} is already documented by ${owner.route}`,
        )
      }
    }
    return plan
  }

  /** Records a route that passed `check`. */
  record(route: StoredRoute, plan: PlannedOperation[]): void {
    const label = `${route.method.toUpperCase()} ${route.path}`
    for (const op of plan) {
      if (op.operationId !== undefined) this.operationIds.set(op.operationId, label)
      this.shapes.set(op.variant.template.replace(/\{[^}]*\}/g, '{}'), op.variant.template)
      const key = `${op.method} ${op.variant.template}`
      const owner = this.owners.get(key)
      if (!owner || owner.priority < op.priority)
        this.owners.set(key, { priority: op.priority, route: label })
    }
  }
}
