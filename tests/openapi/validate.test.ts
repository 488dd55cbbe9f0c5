import { describe, expect, it } from 'vitest'
import type { OpenAPIDocument } from '../../packages/openapi/src'
import { expectValidOpenAPI } from './validate'

const valid = (): OpenAPIDocument => ({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  servers: [],
  paths: {
    '/a': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } },
          },
        },
      },
    },
  },
  components: { schemas: { A: { type: 'string' } } },
})

// The validity checks in every other test are only worth something if they can fail.
describe('expectValidOpenAPI', () => {
  it('accepts a valid document', async () => {
    await expectValidOpenAPI(valid())
  })

  it('accepts a $ref to a place inside a component', async () => {
    const doc = valid()
    Object.assign(doc.components.schemas, {
      Tree: {
        type: 'array',
        items: { $ref: '#/components/schemas/Tree/$defs/Node' },
        $defs: { Node: { type: 'string' } },
      },
    })
    await expectValidOpenAPI(doc)
  })

  it.each([
    [
      'a response without description',
      (d: OpenAPIDocument) =>
        Reflect.deleteProperty(d.paths['/a']?.get?.responses['200'] ?? {}, 'description'),
    ],
    ['a dangling $ref', (d: OpenAPIDocument) => delete d.components.schemas.A],
    [
      'a $ref to a missing place inside a component',
      (d: OpenAPIDocument) =>
        Object.assign(d.components.schemas, {
          B: { type: 'array', items: { $ref: '#/components/schemas/A/$defs/Missing' } },
        }),
    ],
    [
      'an unknown schema keyword',
      (d: OpenAPIDocument) => Object.assign(d.components.schemas.A ?? {}, { minimumm: 1 }),
    ],
    ['a wrong openapi version', (d: OpenAPIDocument) => Object.assign(d, { openapi: '3.0.0' })],
    [
      'an invalid component name',
      (d: OpenAPIDocument) => Object.assign(d.components.schemas, { 'a b': { type: 'string' } }),
    ],
  ])('rejects %s', async (_label, breakIt) => {
    const doc = valid()
    breakIt(doc)
    await expect(expectValidOpenAPI(doc)).rejects.toThrow()
  })
})
