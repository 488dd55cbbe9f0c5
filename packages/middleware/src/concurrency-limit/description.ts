import type { MiddlewareDescription } from '@palisade/shared/describe'

/**
 * What `concurrencyLimit` adds to an operation: 429 `concurrency_limited` with `Retry-After`, and
 * 503 when a store that can fail is configured without `failOpen`.
 */
export function concurrencyLimitDescription(
  sharedStore: boolean,
  failOpen: boolean,
): MiddlewareDescription {
  const responses: MiddlewareDescription['responses'] = [
    {
      status: 429,
      description: 'Too many concurrent requests',
      codes: ['concurrency_limited'],
      headers: [
        {
          name: 'Retry-After',
          description: 'Seconds after which a retry may find a free slot',
          schema: { type: 'integer', minimum: 1 },
        },
      ],
    },
  ]
  if (sharedStore && !failOpen) {
    responses.push({
      status: 503,
      description: 'The concurrency store is unavailable',
      codes: ['store_unavailable'],
    })
  }
  return { middleware: 'concurrencyLimit', responses }
}
