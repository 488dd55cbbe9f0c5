// The example app fuzzed from its own document, on the memory stores and on Redis, signed in
// (bearer token, API key, CSRF pair) so the handlers behind auth are reached too. Any finding is
// fixed in the example or the library, never filtered out here.
import { generateApiKey } from '@palisade/middleware/api-key'
import { fromIoredis } from '@palisade/middleware/redis'
import { type FuzzOptions, fuzz } from '@palisade/openapi/fuzz'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp, fuzzAuth, PARTNER_KEY_PREFIX } from '../../examples/app'
import { deleteByPrefix, ioredisClient, REDIS_URL, uniquePrefix } from '../redis/support'

const API_KEY = generateApiKey(PARTNER_KEY_PREFIX)

describe.each([
  ['memory stores', undefined],
  ['Redis stores', REDIS_URL],
])('fuzzing the example app (%s)', (_name, redisUrl) => {
  const prefix = uniquePrefix('example-fuzz')
  let app: Awaited<ReturnType<typeof createApp>>
  let auth: NonNullable<FuzzOptions['auth']>
  beforeAll(async () => {
    app = await createApp({
      RATE_LIMIT_MAX: '100000000',
      DEMO_API_KEY: API_KEY,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
    })
    auth = fuzzAuth(app.api, API_KEY)
  })
  afterAll(async () => {
    await app?.close()
    if (!redisUrl) return
    const client = ioredisClient()
    await deleteByPrefix(fromIoredis(client), prefix)
    client.disconnect()
  })

  it('answers every generated request as documented (signed in, from loopback)', async () => {
    const report = await fuzz(app.api, {
      seed: 2026,
      runs: 60,
      auth,
      headers: { 'x-forwarded-for': '127.0.0.1' },
    })
    console.log(
      `fuzz (${_name}): ${report.operations} operations, ${report.requests} requests, statuses ${JSON.stringify(report.statuses)}`,
    )
    expect(report.failures).toEqual([])
    const documented = Object.values(app.api.spec().paths).flatMap((item) => Object.keys(item))
    expect(report.operations).toBe(documented.length)
    expect(app.stores.kind).toBe(redisUrl ? 'redis' : 'memory')
    // Signed in, every operation's handler answers at least once, and near misses are refused.
    expect(report.statuses['200']).toBeGreaterThan(300)
    expect(report.statuses['201']).toBeGreaterThan(0)
    expect(report.statuses['400']).toBeGreaterThan(0)
    expect(report.statuses['415']).toBeGreaterThan(0)
    // Stateful: each comment created is read back through the GetComment link, and found.
    const link = report.links.find((l) => l.link === 'GetComment')
    expect(link).toMatchObject({ from: 'POST /api/comments 201', to: 'GET /api/comments/{id}' })
    expect(link?.followed).toBe(10)
    expect(link?.statuses).toEqual({ 200: 10 })
  })

  it('answers as documented signed out, from an unknown address, too', async () => {
    const report = await fuzz(app.api, { seed: 7, runs: 25 })
    expect(report.failures).toEqual([])
    expect(report.statuses['401']).toBeGreaterThan(0)
    expect(report.statuses['403']).toBeGreaterThan(0)
  })
})
