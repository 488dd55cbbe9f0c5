import type { MiddlewareDescription } from '@palisade/shared/describe'

/**
 * What `securityHeaders` adds: nothing to a document (the headers are the same on every
 * response), only its name, so an audit can tell that it runs on a route.
 */
export const securityHeadersDescription: MiddlewareDescription = { middleware: 'securityHeaders' }
