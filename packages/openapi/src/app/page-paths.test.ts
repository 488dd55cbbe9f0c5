import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { generateSpec } from '../document/generate'
import type { OpenAPIOptions } from '../model/options'
import { openapi } from './openapi'

const info = { title: 'Test API', version: '1.0.0' }

describe('the deprecated page path names docsPath and redocPath', () => {
  it('still serve the explorer and reference pages where they say', async () => {
    const api = openapi(new Hono(), { info, docsPath: '/docs', redocPath: '/docs/ref' })
    for (const path of ['/docs', '/docs/ref']) {
      const res = await api.request(path)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/)
    }
    expect((await api.request('/explorer')).status).toBe(404)
    expect((await api.request('/reference')).status).toBe(404)
  })

  it('mix with the new name of the other page', async () => {
    const api = openapi(new Hono(), { info, docsPath: '/docs', referencePath: '/ref' })
    expect((await api.request('/docs')).status).toBe(200)
    expect((await api.request('/ref')).status).toBe(200)
  })

  it.each([
    [{ docsPath: '/docs/*' }, 'openapi: docsPath must be a plain path'],
    [{ redocPath: 'ref' }, 'openapi: redocPath must be a plain path'],
    [{ docsPath: '/openapi.json' }, 'openapi: specPath, docsPath and referencePath must differ'],
    [{ docsPath: '/d', redocPath: '/d' }, 'openapi: specPath, docsPath and redocPath must differ'],
  ])('are named in the message when %o is refused', (paths, message) => {
    expect(() => openapi(new Hono(), { info, ...paths })).toThrow(TypeError)
    expect(() => openapi(new Hono(), { info, ...paths })).toThrow(message)
  })

  it.each([
    [
      { explorerPath: '/docs', docsPath: '/docs' },
      'openapi: docsPath is the deprecated name of explorerPath; pass only explorerPath',
    ],
    [
      { referencePath: '/ref', redocPath: '/other' },
      'openapi: redocPath is the deprecated name of referencePath; pass only referencePath',
    ],
  ])('refuse %o: the old and the new name of one option together', (paths, message) => {
    expect(() => openapi(new Hono(), { info, ...paths })).toThrow(TypeError)
    expect(() => openapi(new Hono(), { info, ...paths })).toThrow(message)
  })

  it('are accepted, like the new names, by generateSpec in an OpenAPIOptions object', () => {
    for (const options of [
      { info, docsPath: '/docs', redocPath: '/ref' },
      { info, explorerPath: '/docs', referencePath: '/ref' },
    ] satisfies OpenAPIOptions[]) {
      expect(generateSpec([], options).info).toEqual(info)
    }
  })
})
