/**
 * The `/rpc` route of the remote test servers (tests/cloudflare/worker.ts, tests/deno-kv/server.ts):
 * `{ store, prefix, method, args }` in, `{ result }` or `{ error, name }` out. Bundled into each server;
 * `remoteStore` (./remote.ts) is its client.
 */
import type { Context } from 'hono'
import { fromWire, toWire } from './wire'

type AnyStore = Record<string, (...args: unknown[]) => Promise<unknown>>

/** Thrown by a remote update's change function on a value the client has not answered yet. */
class NeedAnswer {
  constructor(readonly current: unknown) {}
}

/**
 * The change function of a remote `update` (see `remoteStore` in ./remote.ts): answers from the
 * client's (current data as JSON, answer) pairs, and stops the update on any other value.
 */
function answering(pairs: unknown): (current: unknown) => unknown {
  const answers = new Map(pairs as [string, unknown][])
  return (current) => {
    const key = JSON.stringify(current)
    if (!answers.has(key)) throw new NeedAnswer(current)
    return structuredClone(answers.get(key))
  }
}

/** A Hono handler that runs one method of the store `make(name, prefix, c)` returns. */
export function rpcHandler(make: (store: string, prefix: string, c: Context) => object) {
  return async function rpc(c: Context) {
    const { store, prefix, method, args } = fromWire(await c.req.text()) as {
      store: string
      prefix: string
      method: string
      args: unknown[]
    }
    try {
      const instance = make(store, prefix, c) as AnyStore
      const fn = instance[method]
      if (typeof fn !== 'function') throw new TypeError(`no method ${method}`)
      if (method === 'update') args[1] = answering(args[1])
      const result = await fn.apply(instance, args)
      return c.body(toWire({ result: result === undefined ? null : result }), 200, {
        'content-type': 'application/json',
      })
    } catch (error) {
      if (error instanceof NeedAnswer) return c.json({ need: error.current })
      // The class travels too, so an argument check's TypeError stays one on the client.
      const name = error instanceof TypeError ? 'TypeError' : 'Error'
      return c.json({ error: error instanceof Error ? error.message : String(error), name }, 500)
    }
  }
}
