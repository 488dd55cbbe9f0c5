/**
 * The example app's `POST /api/comments` is idempotent: a retry with the same Idempotency-Key
 * gets the stored comment again, byte for byte, and adds nothing; the same key with another
 * comment is refused with 422; the document declares the header and the answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../examples/app'

describe('the example app: idempotent POST /api/comments', () => {
  let app: Awaited<ReturnType<typeof createApp>>
  beforeAll(async () => {
    app = await createApp({ RATE_LIMIT_MAX: '1000000' })
  })
  afterAll(async () => {
    await app?.close()
  })

  const post = (key: string, text: string) =>
    app.api.request('/api/comments', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ author: 'Ada', text }),
    })

  it('stores one comment for any number of retries and replays it byte for byte', async () => {
    const key = `"${crypto.randomUUID()}"`
    const before = ((await (await app.api.request('/api/comments')).json()) as unknown[]).length
    const first = await post(key, 'once')
    expect(first.status).toBe(201)
    const firstBody = await first.text()
    for (let i = 0; i < 3; i++) {
      const retry = await post(key, 'once')
      expect(retry.status).toBe(201)
      expect(retry.headers.get('idempotent-replayed')).toBe('true')
      expect(await retry.text()).toBe(firstBody)
    }
    const after = ((await (await app.api.request('/api/comments')).json()) as unknown[]).length
    expect(after).toBe(before + 1)
  })

  it('refuses the same key with another comment (422) and a malformed key (400)', async () => {
    const key = `"${crypto.randomUUID()}"`
    await (await post(key, 'first')).text()
    const other = await post(key, 'second')
    expect(other.status).toBe(422)
    expect(((await other.json()) as { code: string }).code).toBe('idempotency_key_reused')
    const bare = await post('not-quoted', 'x')
    expect(bare.status).toBe(400)
    expect(((await bare.json()) as { code: string }).code).toBe('idempotency_key_invalid')
  })

  it('documents the Idempotency-Key header, 409 and 422 on the operation', async () => {
    const doc = (await (await app.api.request('/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<
          string,
          { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }
        >
      >
    }
    const op = doc.paths['/api/comments']?.post
    expect(op?.parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }),
    )
    expect(Object.keys(op?.responses ?? {})).toEqual(expect.arrayContaining(['409', '422']))
  })
})
