/**
 * Stores that run in another runtime (workerd, Deno), driven from vitest: `bundle` turns a test
 * server written against the package's source into one ES module (package names resolve to src/,
 * as the vitest aliases do), and `remoteStore` returns an object whose every method is one
 * `POST /rpc` to that server, so the conformance suite runs unchanged against the real store in
 * the real runtime.
 */
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'

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
  rateLimit: ['increment', 'reset'],
  session: ['get', 'set', 'destroy'],
  apiKey: ['add', 'remove', 'validate'],
} as const

/**
 * A store whose methods run on `host` (see the `/rpc` route of tests/cloudflare/worker.ts and
 * tests/deno-kv/server.ts): arguments and results travel as JSON, errors come back as rejections.
 */
export function remoteStore<S>(
  host: RemoteHost,
  store: keyof typeof REMOTE_METHODS,
  prefix: string,
): S {
  const call =
    (method: string) =>
    async (...args: unknown[]) => {
      const res = await host.fetch('/rpc', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ store, prefix, method, args }),
      })
      const reply = (await res.json()) as { result?: unknown; error?: string }
      if (reply.error !== undefined) throw new Error(reply.error)
      return reply.result === null && method !== 'get' && method !== 'validate'
        ? undefined
        : reply.result
    }
  return Object.fromEntries(REMOTE_METHODS[store].map((m) => [m, call(m)])) as S
}
