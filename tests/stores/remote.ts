/**
 * Stores that run in another runtime (workerd, Deno), driven from vitest: `bundle` turns a test
 * server written against the package's source into one ES module (package names resolve to src/,
 * as the vitest aliases do), and `remoteStore` returns an object whose every method is one
 * `POST /rpc` to that server, so the conformance suite runs unchanged against the real store in
 * the real runtime.
 */
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'
import { fromWire, toWire } from './wire'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** `@palisade/middleware[/x]` and `@palisade/openapi` → the source, as the vitest aliases do. */
export const sourceAliases: Plugin = {
  name: 'palisade-source',
  setup(b) {
    b.onResolve({ filter: /^@palisade\/openapi$/ }, () => ({
      path: `${ROOT}packages/openapi/src/index.ts`,
    }))
    b.onResolve({ filter: /^@palisade\/middleware(\/.*)?$/ }, ({ path }) => {
      const sub = path.slice('@palisade/middleware'.length).replace(/^\//, '')
      // Folder = subpath: `@palisade/middleware/<sub>` is src/<sub>/index.ts.
      return { path: `${ROOT}packages/middleware/src/${sub === '' ? '' : `${sub}/`}index.ts` }
    })
  },
}

/** Bundles one entry file into a single ES module for workerd or Deno. */
export async function bundle(entry: string, platform: 'browser' | 'neutral' = 'browser') {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform,
    target: 'es2022',
    write: false,
    conditions: ['workerd', 'worker', 'browser', 'import'],
    mainFields: ['module', 'main'],
    plugins: [sourceAliases],
    logLevel: 'silent',
  })
  return result.outputFiles[0]?.text ?? ''
}

/** Something that answers HTTP requests by path: a miniflare Worker or a local server. */
export interface RemoteHost {
  fetch(path: string, init?: RequestInit): Promise<Response>
}

/** The methods each store kind exposes over `/rpc`: only these exist on a remote store, so the
 * conformance suite's capability checks (`typeof store.slidingWindow === 'function'`) see the
 * real store's shape. */
export const REMOTE_METHODS = {
  rateLimit: ['increment', 'slidingWindow', 'tokenBucket', 'decrement', 'consume', 'reset'],
  session: ['get', 'set', 'destroy', 'update'],
  apiKey: ['add', 'remove', 'validate', 'put', 'get', 'expire', 'revoke', 'touch', 'rotate'],
  concurrency: ['acquire', 'renew', 'release'],
  nonce: ['claim'],
  idempotency: ['begin', 'complete', 'release'],
} as const

/** Rounds of a remote `update` before the client gives up (each is a value `apply` had not seen). */
const MAX_UPDATE_ROUNDS = 64

/**
 * A store whose methods run on `host` (see the `/rpc` route of tests/cloudflare/worker.ts and
 * tests/deno-kv/server.ts): arguments and results travel as JSON, errors come back as rejections.
 *
 * A session store's `update(id, apply, maxAge)` cannot send `apply` (a function) to the host, so
 * it sends what `apply` answered so far, as pairs of (current data as JSON, answer). The host runs
 * the real `store.update` with a change function that answers from those pairs; when the store
 * hands it a current value it has no answer for, the call stops there, nothing is written, and
 * the host replies `{ need: current }`: the client computes `apply(current)` here, adds the pair
 * and calls again. The store's own check-and-set still guards every write, so a store that could
 * lose an update still loses it here.
 */
export function remoteStore<S>(
  host: RemoteHost,
  store: keyof typeof REMOTE_METHODS,
  prefix: string,
): S {
  const send = async (method: string, args: unknown[]) => {
    const res = await host.fetch('/rpc', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: toWire({ store, prefix, method, args }),
    })
    const reply = fromWire(await res.text()) as {
      result?: unknown
      error?: string
      name?: string
      need?: unknown
    }
    if (reply.error !== undefined) {
      throw reply.name === 'TypeError' ? new TypeError(reply.error) : new Error(reply.error)
    }
    return reply
  }
  const call =
    (method: string) =>
    async (...args: unknown[]) => {
      const reply = await send(method, args)
      return reply.result === null && method !== 'get' && method !== 'validate'
        ? undefined
        : reply.result
    }
  const update = async (id: string, apply: (current: unknown) => unknown, maxAge: number) => {
    const answers: [string, unknown][] = []
    for (let round = 0; round < MAX_UPDATE_ROUNDS; round++) {
      const reply = await send('update', [id, answers, maxAge])
      if (!('need' in reply)) return reply.result
      answers.push([JSON.stringify(reply.need), apply(reply.need)])
    }
    throw new Error(`remote update of ${id} saw ${MAX_UPDATE_ROUNDS} values and gave up`)
  }
  return Object.fromEntries(
    REMOTE_METHODS[store].map((m) => [m, m === 'update' ? update : call(m)]),
  ) as S
}
