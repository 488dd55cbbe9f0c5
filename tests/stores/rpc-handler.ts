/**
 * The `/rpc` route of the remote test servers (tests/cloudflare/worker.ts, tests/deno-kv/server.ts):
 * `{ store, prefix, method, args }` in, `{ result }` or `{ error }` out. Bundled into each server;
 * `remoteStore` (./remote.ts) is its client.
 */
import type { Context } from 'hono'

type AnyStore = Record<string, (...args: unknown[]) => Promise<unknown>>

/** A Hono handler that runs one method of the store `make(name, prefix, c)` returns. */
export function rpcHandler(make: (store: string, prefix: string, c: Context) => object) {
  return async function rpc(c: Context) {
    const { store, prefix, method, args } = await c.req.json<{
      store: string
      prefix: string
      method: string
      args: unknown[]
    }>()
    try {
      const instance = make(store, prefix, c) as AnyStore
      const fn = instance[method]
      if (typeof fn !== 'function') throw new TypeError(`no method ${method}`)
      const result = await fn.apply(instance, args)
      return c.json({ result: result === undefined ? null : result })
    } catch (error) {
      return c.json({ error: error instanceof Error ? error.message : String(error) }, 500)
    }
  }
}
