import type { MiddlewareDescription } from '@palisade/shared/describe'

/** What `ipGuard` adds: 403 for a client address outside the rule. */
export const ipGuardDescription: MiddlewareDescription = {
  responses: [{ status: 403, description: 'Client address not allowed', codes: ['ip_denied'] }],
}
