// The run-time half of `openapi.deprecated`: the first handler of a deprecated route. It sets the
// RFC 9745 / RFC 8594 headers on whatever the route's chain answers (its middleware's rejections,
// validation's 400, the handler's answer), records the call for logger() and otel(), and after
// the sunset answers 410 `gone` when the app enforces sunsets.
import { recordDecision } from '@palisade/shared/decisions'
import { problemDetails } from '@palisade/shared/problem'
import type { Context, MiddlewareHandler } from 'hono'
import type { DeprecationPlan, SunsetMode } from '../rules/deprecation'
import { problemResponse } from '../validate/problem'

/** How the route's step behaves: the app's mode and clock, and the operation's name for records. */
export interface DeprecationStepOptions {
  mode: SunsetMode
  now: () => number
  /** The operationId, or `METHOD /documented/{path}` (`*` for the method of an `all` route). */
  operation: string
}

function setHeaders(headers: Headers, plan: DeprecationPlan): void {
  if (plan.deprecationHeader !== undefined) headers.set('Deprecation', plan.deprecationHeader)
  if (plan.sunsetHeader !== undefined) headers.set('Sunset', plan.sunsetHeader)
  // Appended: a Link the handler set (pagination, a successor) stays.
  for (const link of plan.links) headers.append('Link', link)
}

/** Sets the headers on the answer, copying a Response whose headers cannot be changed. */
function announce(c: Context, plan: DeprecationPlan): void {
  try {
    setHeaders(c.res.headers, plan)
  } catch (err) {
    if (!(err instanceof TypeError)) throw err
    const res = new Response(c.res.body, c.res)
    setHeaders(res.headers, plan)
    c.res = res
  }
}

/** The route's deprecation step (see the file's comment). */
export function deprecationStep(
  plan: DeprecationPlan,
  options: DeprecationStepOptions,
): MiddlewareHandler {
  // `options.operation` is read per request: the wrapper names the operation once Hono has said
  // the path it serves, after this step was made.
  const { mode, now } = options
  const sunset = plan.sunset === undefined ? undefined : new Date(plan.sunset * 1000).toISOString()
  const gone = mode === 'enforce' && plan.sunset !== undefined ? plan.sunset * 1000 : undefined
  return async function deprecation(c, next) {
    // At the sunset's second, not after it: the Sunset header announces that instant.
    if (gone !== undefined && now() >= gone) {
      recordDecision(c, {
        middleware: 'deprecation',
        outcome: 'reject',
        code: 'gone',
        status: 410,
        operation: options.operation,
        ...(sunset ? { sunset } : {}),
      })
      const detail = `This operation was retired on ${plan.sunsetHeader}`
      c.res = problemResponse(problemDetails(410, { code: 'gone', detail }))
      announce(c, plan)
      return c.res
    }
    recordDecision(c, {
      middleware: 'deprecation',
      outcome: 'allow',
      operation: options.operation,
      ...(sunset ? { sunset } : {}),
    })
    await next()
    announce(c, plan)
  }
}
