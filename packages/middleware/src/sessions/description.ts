import type { MiddlewareDescription } from '@palisade/shared/describe'
import { MemorySessionStore } from './memory-store'
import type { SessionStore } from './store'

/** What `sessions` adds: 503 when its store can fail (any store but the memory one). */
export function sessionsDescription(store: SessionStore | undefined): MiddlewareDescription {
  if (store === undefined || store instanceof MemorySessionStore) return {}
  return {
    responses: [
      {
        status: 503,
        description: 'The session store is unavailable',
        codes: ['store_unavailable'],
      },
    ],
  }
}
