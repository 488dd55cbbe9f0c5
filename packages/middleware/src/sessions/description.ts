import type { MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { ANSWERS } from './answers'
import { MemorySessionStore } from './memory-store'
import type { SessionStore } from './store'

/**
 * What `sessions` adds: its answers (`answers.ts`: 503 when its store can fail, which is any
 * store but the memory one). Its cookie authenticates the request by itself (`cookieAuth`).
 */
export function sessionsDescription(store: SessionStore | undefined): MiddlewareDescription {
  const identity = { middleware: 'sessions', cookieAuth: true }
  const storeCanFail = store !== undefined && !(store instanceof MemorySessionStore)
  const responses = responsesOf(ANSWERS, { storeCanFail })
  return responses.length > 0 ? { ...identity, responses } : identity
}
