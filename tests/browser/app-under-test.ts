// The one place that says which app the browser tests drive: the example app. Everything else
// reads the spec the app serves.
import { createApp } from '../../examples/app'
import { inventory, type SpecInventory } from './harness'

/** Paths the app under test uses (the `openapi()` defaults). */
export const paths = {
  spec: '/openapi.json',
  explorer: '/explorer',
  reference: '/reference',
} as const

/** A fresh app under test: its fetch handler and how to release what it holds. */
export async function createAppUnderTest(): Promise<{
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>
  close: () => Promise<void>
}> {
  const { api, close } = await createApp()
  return { fetch: (request, env) => api.fetch(request, env as never), close }
}

/** What the app under test documents: read once from its served spec, without a browser. */
export async function specUnderTest(): Promise<SpecInventory> {
  const app = await createAppUnderTest()
  try {
    const response = await app.fetch(new Request(`http://docs.test${paths.spec}`))
    return inventory(await response.json())
  } finally {
    await app.close()
  }
}
