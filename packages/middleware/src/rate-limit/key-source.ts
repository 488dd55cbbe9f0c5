import type { Context } from 'hono'
import { boundKey } from '../internal/stores/bounded-key'

/** A request's counter key, and the form this process keeps it by. */
export interface RequestKey {
  /** What the store counts under (the store bounds it itself). */
  key: string
  /**
   * The key of what this process keeps per client (deny cache, draft-8 partition keys): the
   * bounded key (see `boundKey`), since a keyGenerator may return long client-chosen text (a
   * username, a body field); the key itself when nothing is kept.
   */
  local: string
}

/**
 * Where a request's key comes from: the key function (`keyGenerator`, or the client IP), and,
 * when the limiter keeps anything by key (`keepsKeys`), its bounded form. A synchronous key (the
 * client IP, a short key) is returned as it is: an await costs every request a turn of the
 * microtask queue and an allocation, which adds up in a stack of middleware.
 */
export function keySource(
  keyGenerator: (c: Context) => string | Promise<string>,
  keepsKeys: boolean,
): (c: Context) => RequestKey | Promise<RequestKey> {
  const withLocal = (key: string): RequestKey | Promise<RequestKey> => {
    if (!keepsKeys) return { key, local: key }
    const bound = boundKey(key)
    return typeof bound === 'string'
      ? { key, local: bound }
      : bound.then((local) => ({ key, local }))
  }
  const later = async (key: Promise<string>) => withLocal(await key)
  return (c) => {
    const key = keyGenerator(c)
    return typeof key === 'string' ? withLocal(key) : later(key)
  }
}
