/**
 * The example app's partner API key is in the lifecycle format: a checksummed `pal_demo_…` key made
 * with createApiKey at start (or DEMO_API_KEY, checked), whose record carries the monthly quota
 * that quota() applies. apiKey({ prefix }) refuses a typo, a key of another prefix and garbage
 * with 401 api_key_invalid before the store is asked.
 */
import { createApiKey, generateApiKey, isWellFormedApiKey } from '@palisade/middleware/api-key'
import { afterEach, describe, expect, it } from 'vitest'
import { createApp, PARTNER_KEY_PREFIX } from '../../examples/app'

type App = Awaited<ReturnType<typeof createApp>>
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

describe('the example app: a partner API key with a lifecycle', () => {
  let app: App | undefined
  afterEach(async () => {
    await app?.close()
    app = undefined
  })
  const whoami = (key: string) =>
    (app as App).api.request('/api/keys/whoami', { headers: { 'x-api-key': key } })
  const body = async (res: Response) => (await res.json()) as Record<string, unknown>

  it('makes a checksummed pal_demo key at start and applies its monthly quota', async () => {
    app = await createApp({ RATE_LIMIT_MAX: '1000000', PARTNER_MONTHLY_QUOTA: '2' })
    const partner = app.partnerKey
    expect(partner?.generated).toBe(true)
    const key = partner?.key ?? ''
    expect(isWellFormedApiKey(key, [PARTNER_KEY_PREFIX])).toBe(true)
    const first = await whoami(key)
    expect(first.status).toBe(200)
    const { id } = (await body(first)) as { id: string }
    expect(await body(await whoami(key))).toEqual({ id, metadata: { name: 'demo' } })
    // Only the hash is stored, with the quota in the key's record.
    expect(await app.stores.apiKeyStore.get(id)).toMatchObject({
      id,
      prefix: PARTNER_KEY_PREFIX,
      limits: { monthly: 2 },
    })
    const third = await whoami(key)
    expect(third.status).toBe(429)
    expect((await body(third)).code).toBe('quota_exceeded')
    expect(third.headers.get('ratelimit')).toMatch(/^"2-per-month"; r=0; t=\d+$/)
  })

  it("reads a key's own monthly limit before PARTNER_MONTHLY_QUOTA", async () => {
    app = await createApp({ RATE_LIMIT_MAX: '1000000', PARTNER_MONTHLY_QUOTA: '100' })
    const { key } = await createApiKey({
      store: app.stores.apiKeyStore,
      prefix: PARTNER_KEY_PREFIX,
      limits: { monthly: 1 },
    })
    expect((await whoami(key)).status).toBe(200)
    expect((await whoami(key)).status).toBe(429)
    // The other key has its own count and its own limit.
    expect((await whoami(app.partnerKey?.key ?? '')).headers.get('ratelimit')).toMatch(
      /^"100-per-month"; r=99;/,
    )
  })

  it('refuses a typo, another prefix and garbage with 401 api_key_invalid without a store lookup', async () => {
    app = await createApp({ RATE_LIMIT_MAX: '1000000' })
    const key = app.partnerKey?.key ?? ''
    const store = app.stores.apiKeyStore
    let lookups = 0
    const validate = store.validate.bind(store)
    store.validate = (k) => {
      lookups++
      return validate(k)
    }
    const tail = key.length - 36
    const typos: string[] = []
    // Every single-character typo of the random part and the checksum.
    for (let i = tail; i < key.length; i++) {
      const other = BASE62[(BASE62.indexOf(key[i] as string) + 7) % 62] as string
      typos.push(key.slice(0, i) + other + key.slice(i + 1))
    }
    const swapped = key.slice(0, tail) + key[tail + 1] + key[tail] + key.slice(tail + 2)
    if (swapped !== key) typos.push(swapped)
    typos.push(
      key.slice(0, -1),
      `${key}0`,
      key.replace(PARTNER_KEY_PREFIX, 'pal_live'),
      generateApiKey('pal_live'),
      'garbage',
      'demo-key-0123456789',
      `${PARTNER_KEY_PREFIX}_`,
      key.toLowerCase(),
    )
    for (const typo of typos) {
      const res = await whoami(typo)
      expect(res.status, typo).toBe(401)
      expect(res.headers.get('content-type')).toBe('application/problem+json')
      expect(await body(res)).toMatchObject({ code: 'api_key_invalid', detail: 'Invalid API key' })
    }
    expect(lookups).toBe(0)
    // The key itself is looked up, once per request.
    expect((await whoami(key)).status).toBe(200)
    expect(lookups).toBe(1)
  })

  it('serves DEMO_API_KEY when it is a pal_demo key, and refuses to start on any other', async () => {
    const key = generateApiKey(PARTNER_KEY_PREFIX)
    app = await createApp({ RATE_LIMIT_MAX: '1000000', DEMO_API_KEY: key })
    expect(app.partnerKey).toEqual({ key, generated: false })
    const res = await whoami(key)
    expect(res.status).toBe(200)
    expect((await body(res)).metadata).toEqual({ name: 'demo' })
    for (const bad of ['demo-key-0123456789', generateApiKey('pal_live'), `${key.slice(0, -1)}x`]) {
      await expect(createApp({ DEMO_API_KEY: bad })).rejects.toThrow(
        /^DEMO_API_KEY is not a pal_demo_ key/,
      )
    }
    await expect(createApp({ PARTNER_MONTHLY_QUOTA: 'lots' })).rejects.toThrow(
      "PARTNER_MONTHLY_QUOTA must be a positive integer, got 'lots'",
    )
  })

  it('makes no key in production unless DEMO_API_KEY names one', async () => {
    const secrets = Object.fromEntries(
      ['JWT_SECRET', 'SESSION_SECRET', 'CSRF_SECRET'].map((name) => [name, 'x'.repeat(32)]),
    )
    app = await createApp({
      ...secrets,
      NODE_ENV: 'production',
      BILLING_WEBHOOK_SECRET: `whsec_${btoa('example-api-key-test-secret')}`,
    })
    expect(app.partnerKey).toBeUndefined()
  })
})
