/**
 * The example app as `palisade` sees it (`palisade audit examples/api.ts`, `fuzz`, `export`):
 * on the memory stores whatever the environment says, so the committed document
 * (examples/openapi.json) does not depend on where the command runs. This copy is never served:
 * its rate limit is high enough for a fuzz run, and it knows one API key, which the fuzzer sends.
 */
import { generateApiKey } from '@palisade/middleware/api-key'
import type { FuzzOptions } from '@palisade/openapi/fuzz'
import { createApp, fuzzAuth, PARTNER_KEY_PREFIX } from './app'

/** A partner key in the app's format (made for this process, never printed). */
const API_KEY = generateApiKey(PARTNER_KEY_PREFIX)
const memoryStores = {
  ...process.env,
  REDIS_URL: undefined,
  RATE_LIMIT_MAX: '1000000',
  DEMO_API_KEY: API_KEY,
}
const { api } = await createApp(memoryStores)

export { auditPolicy } from './app'
export default api

/**
 * What `palisade fuzz examples/api.ts` sends its requests to: a fresh app on memory stores for
 * each run (closed after it), never an app that serves anyone.
 */
export const createFuzzApp = () => createApp(memoryStores)

/** How `palisade fuzz` signs in, through the app it fuzzes; from loopback, for /admin. */
export const fuzzOptions = (app: typeof api): FuzzOptions => ({
  headers: { 'x-forwarded-for': '127.0.0.1' },
  auth: fuzzAuth(app, API_KEY),
})
