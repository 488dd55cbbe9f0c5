/**
 * The example app as `palisade` sees it (`palisade audit examples/api.ts`, `fuzz`, `export`):
 * on the memory stores whatever the environment says, so the committed document
 * (examples/openapi.json) does not depend on where the command runs. This copy is never served:
 * its rate limit is high enough for a fuzz run, and it knows one API key, which the fuzzer sends.
 */
import type { FuzzOptions } from '@palisade/openapi/fuzz'
import { createApp, fuzzAuth } from './app'

const API_KEY = 'palisade-example-fuzz-key'
const { api } = await createApp({
  ...process.env,
  REDIS_URL: undefined,
  RATE_LIMIT_MAX: '1000000',
  DEMO_API_KEY: API_KEY,
})

export { auditPolicy } from './app'
export default api

/** What `palisade fuzz examples/api.ts` signs in with; from loopback, for /admin. */
export const fuzzOptions: FuzzOptions = {
  headers: { 'x-forwarded-for': '127.0.0.1' },
  auth: fuzzAuth(api, API_KEY),
}
