/**
 * Runs the Cloudflare stores inside workerd: bundles tests/cloudflare/worker.ts from source with
 * esbuild (package names resolve to src/, as in vitest) and starts it in miniflare with a Durable
 * Object binding `PALISADE`. Everything is in memory and on loopback; `dispose()` stops workerd.
 */
import { fileURLToPath } from 'node:url'
import { Miniflare } from 'miniflare'
import { bundle, type RemoteHost } from '../stores/remote'

/** A running test Worker. */
export interface TestWorker extends RemoteHost {
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
