import type { MiddlewareDescription } from '@palisade/shared/describe'

/** Characters a request ID may have: safe in a header, a log line and a URL. */
const ID_CHARACTERS = 'A-Za-z0-9._:=+/-'
/** Longest request ID reused from a request or accepted from `generate()`. */
export const MAX_REQUEST_ID_LENGTH = 255
/** What an ID must match (and so what the response header always carries). */
export const REQUEST_ID_PATTERN = `^[${ID_CHARACTERS}]{1,${MAX_REQUEST_ID_LENGTH}}$`
/** What the factory's messages call an ID's shape. */
export const REQUEST_ID_SHAPE = `1-${MAX_REQUEST_ID_LENGTH} characters of [${ID_CHARACTERS}]`

/** What `requestId` adds: its header, with the shape the middleware enforces, on every response. */
export function requestIdDescription(headerName: string): MiddlewareDescription {
  return {
    headers: [
      {
        name: headerName,
        description: `The request ID (reused from the request when it sends a valid one: ${REQUEST_ID_SHAPE})`,
        schema: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_REQUEST_ID_LENGTH,
          pattern: REQUEST_ID_PATTERN,
        },
        on: 'always',
      },
    ],
  }
}
