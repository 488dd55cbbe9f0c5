/**
 * Runs the Cloudflare stores inside workerd: bundles tests/cloudflare/worker.ts from source with
 * esbuild (package names resolve to src/, as in vitest) and starts it in miniflare with a Durable
 * Object binding `PALISADE`. Everything is in memory and on loopback; `dispose()` stops workerd.
 */
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'
import { Miniflare } from 'miniflare'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** `@palisade/middleware[/x]` → the package's source, as the vitest aliases do. */
export const sourceAliases: Plugin = {
  name: 'palisade-source',
  setup(b) {
    b.onResolve({ filter: /^@palisade\/middleware(\/.*)?$/ }, ({ path }) => {
      const sub = path.slice('@palisade/middleware'.length).replace(/^\//, '')
      const dir =
        sub === '' ? '' : sub === 'cloudflare' || sub === 'deno-kv' ? `stores/${sub}/` : `${sub}/`
      return { path: `${ROOT}packages/middleware/src/${dir}index.ts` }
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

/** A running test Worker. */
export interface TestWorker {
  fetch(path: string, init?: RequestInit): Promise<Response>
  dispose(): Promise<void>
}

/** Starts the test Worker in miniflare. */
export async function startWorker(): Promise<TestWorker> {
  const script = await bundle(fileURLToPath(new URL('./worker.ts', import.meta.url)))
  const mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: '2025-09-01',
    durableObjects: { PALISADE: 'PalisadeStoreObject' },
  })
  await mf.ready
  return {
    async fetch(path, init) {
      // miniflare's own fetch returns its undici Response; rebuild a global one for the tests.
      const res = await mf.dispatchFetch(`http://worker.test${path}`, init as never)
      const body = await res.arrayBuffer()
      return new Response(body, { status: res.status, headers: [...res.headers.entries()] })
    },
    dispose: () => mf.dispose(),
  }
}

/** A store whose methods run inside the Worker (see worker.ts `/rpc`). */
export function remoteStore<S>(worker: TestWorker, store: string, prefix: string): S {
  return new Proxy(
    {},
    {
      get: (_target, method) => {
        if (typeof method !== 'string' || method === 'then') return undefined
        return async (...args: unknown[]) => {
          const res = await worker.fetch('/rpc', {
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
      },
    },
  ) as S
}
