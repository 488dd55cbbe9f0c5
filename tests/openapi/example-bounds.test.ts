// #26 finding 9: the example keeps bounded memory, documents what it reads, names its schemas,
// links its docs from `/`, and names an unset secret.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp, MAX_COMMENTS } from '../../examples/app'

let app: Awaited<ReturnType<typeof createApp>>
beforeAll(async () => {
  app = await createApp({ RATE_LIMIT_MAX: '100000' })
})
afterAll(() => app.close())

const json = { 'content-type': 'application/json' }

describe('the example app', () => {
  it(`keeps only the newest ${MAX_COMMENTS} comments, and documents that bound`, async () => {
    for (let i = 1; i <= MAX_COMMENTS + 25; i++) {
      const res = await app.api.request('/api/comments', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ author: 'ada', text: `comment ${i}` }),
      })
      expect(res.status).toBe(201)
      expect(((await res.json()) as { id: number }).id).toBe(i)
    }
    const list = (await (await app.api.request('/api/comments')).json()) as { id: number }[]
    expect(list).toHaveLength(MAX_COMMENTS)
    expect(list[0]?.id).toBe(26)
    expect(list.at(-1)?.id).toBe(MAX_COMMENTS + 25)
    const doc = app.api.spec()
    expect(doc.paths['/api/comments']?.get?.responses['200']?.content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/CommentList' } },
    })
    expect(doc.components.schemas.CommentList).toMatchObject({ maxItems: MAX_COMMENTS })
  })

  it('names every schema instead of generating names from property lists', () => {
    const names = Object.keys(app.api.spec().components.schemas)
    expect(names).toEqual(expect.arrayContaining(['Comment', 'CommentList', 'NewComment']))
    for (const name of names) expect(name).not.toMatch(/And/)
  })

  it('documents and validates the feedback form it reads', async () => {
    const op = app.api.spec().paths['/forms/feedback']?.post
    expect(Object.keys(op?.requestBody?.content ?? {})).toEqual([
      'multipart/form-data',
      'application/x-www-form-urlencoded',
    ])
    const page = await app.api.request('/forms/token')
    const { csrfToken } = (await page.json()) as { csrfToken: string }
    const cookie = /XSRF-TOKEN=[^;]+/.exec(page.headers.get('set-cookie') ?? '')?.[0] ?? ''
    const send = (body: string) =>
      app.api.request('/forms/feedback', {
        method: 'POST',
        headers: {
          cookie,
          'x-xsrf-token': csrfToken,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body,
      })
    const ok = await send('message=works%20offline')
    expect(ok.status).toBe(200)
    expect(await ok.json()).toEqual({ received: true })
    const empty = await send('')
    expect(empty.status).toBe(400)
    expect(await empty.json()).toMatchObject({ code: 'validation_failed' })
  })

  it('answers GET / with links to the docs', async () => {
    const res = await app.api.request('/')
    expect(res.status).toBe(200)
    const html = await res.text()
    for (const href of ['/explorer', '/reference', '/openapi.json']) {
      expect(html).toContain(`href="${href}"`)
    }
  })

  it('names an unset or short secret in production instead of "must be a string"', async () => {
    await expect(createApp({ NODE_ENV: 'production' })).rejects.toThrow(/^JWT_SECRET is not set/)
    await expect(
      createApp({ NODE_ENV: 'production', JWT_SECRET: 'short', SESSION_SECRET: 'x' }),
    ).rejects.toThrow(/^JWT_SECRET is too short/)
  })
})
