import type { Context } from 'hono'
import type { ApiKeyInfo, ApiKeyLifecycleStore, ApiKeyStore } from './store'

/** `lastUsedAt` is written at most this often per key. */
export const LAST_USED_EVERY_MS = 60_000
/** Keys remembered per process; past it the memory starts over (a write more, never a leak). */
const MAX_REMEMBERED = 10_000

/**
 * The `lastUsedAt` writer of one `apiKey` middleware: for a store with `touch`, writes the time
 * when neither the record (written by any instance) nor this process wrote it within the last
 * minute. The write runs after the response is started, never awaited by the request (on
 * Workers, kept alive with `waitUntil`); its failure is ignored: a missed `lastUsedAt` is not
 * worth a 503.
 */
export function lastUsedWriter() {
  const written = new Map<string, number>()
  return (c: Context, store: ApiKeyStore, key: string, info: ApiKeyInfo): void => {
    const touch = (store as Partial<ApiKeyLifecycleStore>).touch
    if (typeof touch !== 'function') return
    const now = Date.now()
    const last = Math.max(info.lastUsedAt ?? 0, written.get(info.id) ?? 0)
    if (now - last < LAST_USED_EVERY_MS) return
    if (written.size >= MAX_REMEMBERED) written.clear()
    written.set(info.id, now)
    const pending = Promise.resolve()
      .then(() => touch.call(store, key, now))
      .catch(() => {})
    try {
      c.executionCtx.waitUntil(pending)
    } catch {
      // No ExecutionContext outside Workers: the promise runs on its own.
    }
  }
}
