import type { MiddlewareDescription } from '@palisade/shared/describe'

/** What `requestId` adds: its header on every response. */
export function requestIdDescription(headerName: string): MiddlewareDescription {
  return {
    headers: [
      {
        name: headerName,
        description: 'The request ID (reused from the request when it sends a valid one)',
        on: 'always',
      },
    ],
  }
}
