import type { MiddlewareDescription } from '@palisade/shared/describe'
import { MemorySessionStore } from './memory-store'
import type { SessionStore } from './store'

/**
 * What `sessions` adds: 503 when its store can fail (any store but the memory one). Its cookie
 * authenticates the request by itself (`cookieAuth`).
 */
export function sessionsDescription(store: SessionStore | undefined): MiddlewareDescription {
  const identity = { middleware: 'sessions', cookieAuth: true }
  if (store === undefined || store instanceof MemorySessionStore) return identity
  return {
    ...identity,
    responses: [
      {
        status: 503,
        description: 'The session store is unavailable',
        codes: ['store_unavailable'],
      },
    ],
  }
}
