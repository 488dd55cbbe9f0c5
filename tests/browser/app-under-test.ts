// The one place that says which app the browser tests drive. Switch the import to the example app
// (`../../examples/app`, same `createApp()` shape) once it exists; everything else reads the spec
// the app serves.
import { createApp } from '../../examples/app'

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
