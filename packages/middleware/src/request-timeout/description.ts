import type { MiddlewareDescription } from '@palisade/shared/describe'

/** What `requestTimeout` adds: 408 when the handler chain is not done in `ms`. */
export function requestTimeoutDescription(ms: number): MiddlewareDescription {
  return {
    responses: [
      {
        status: 408,
        description: `No response within ${ms} ms`,
        codes: ['request_timeout'],
      },
    ],
  }
}
