// Stand-in for the example app until `examples/app.ts` lands: a plain Hono app that serves a
// hand-written OpenAPI 3.1 document at /openapi.json, implements every operation in it, and mounts
// the docs pages the way `openapi()` does.

import { Hono } from 'hono'
import { mountDocsPages } from '../../packages/openapi/src/pages'

const Pet = {
  type: 'object',
  required: ['id', 'name'],
  properties: {
    id: { type: 'integer', example: 1 },
    name: { type: 'string', example: 'Rex' },
    tag: { type: ['string', 'null'], example: 'dog' },
  },
}
const NewPet = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', example: 'Rex' }, tag: { type: 'string', example: 'dog' } },
}
const ErrorBody = {
  type: 'object',
  required: ['message'],
  properties: { message: { type: 'string' } },
}
const Health = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string', enum: ['ok'] } },
}

const json = (schema: string) => ({
  'application/json': { schema: { $ref: `#/components/schemas/${schema}` } },
})
const idParam = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'integer', minimum: 1 },
}

/** The hand-written document; every operation below has a handler in {@link createApp}. */
export const fixtureSpec = {
  openapi: '3.1.0',
  info: { title: 'Fixture Pets API', version: '1.0.0', description: 'Docs page test fixture.' },
  servers: [],
  paths: {
    '/health': {
      get: {
        operationId: 'getHealth',
        tags: ['system'],
        summary: 'Liveness probe',
        responses: { '200': { description: 'Alive', content: json('Health') } },
      },
    },
    '/pets': {
      get: {
        operationId: 'listPets',
        tags: ['pets'],
        summary: 'List pets',
        parameters: [{ name: 'limit', in: 'query', required: false, schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'The pets',
            content: {
              'application/json': {
                schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } },
              },
            },
          },
        },
      },
      post: {
        operationId: 'createPet',
        tags: ['pets'],
        summary: 'Create a pet',
        requestBody: { required: true, content: json('NewPet') },
        responses: {
          '201': { description: 'Created', content: json('Pet') },
          '400': { description: 'Invalid body', content: json('Error') },
        },
      },
    },
    '/pets/{id}': {
      get: {
        operationId: 'getPet',
        tags: ['pets'],
        summary: 'Get one pet',
        parameters: [idParam],
        responses: {
          '200': { description: 'The pet', content: json('Pet') },
          '404': { description: 'Not found', content: json('Error') },
        },
      },
      delete: {
        operationId: 'deletePet',
        tags: ['pets'],
        summary: 'Delete a pet',
        parameters: [idParam],
        responses: { '204': { description: 'Deleted' } },
      },
    },
  },
  components: { schemas: { Pet, NewPet, Error: ErrorBody, Health } },
}

/** Builds the fixture app: same shape as the example app's `createApp()`. */
export function createApp(): Hono {
  const app = new Hono()
  const pets = new Map<number, { id: number; name: string; tag: string | null }>([
    [1, { id: 1, name: 'Rex', tag: 'dog' }],
  ])
  let nextId = 2
  app.get('/openapi.json', (c) => c.json(fixtureSpec))
  app.get('/health', (c) => c.json({ status: 'ok' }))
  app.get('/pets', (c) => {
    const limit = Number(c.req.query('limit') ?? 100)
    return c.json([...pets.values()].slice(0, limit))
  })
  app.post('/pets', async (c) => {
    const body = (await c.req.json().catch(() => null)) as { name?: unknown; tag?: unknown } | null
    if (!body || typeof body.name !== 'string') return c.json({ message: 'name is required' }, 400)
    const pet = {
      id: nextId++,
      name: body.name,
      tag: typeof body.tag === 'string' ? body.tag : null,
    }
    pets.set(pet.id, pet)
    return c.json(pet, 201)
  })
  app.get('/pets/:id', (c) => {
    const pet = pets.get(Number(c.req.param('id')))
    return pet ? c.json(pet) : c.json({ message: 'Not found' }, 404)
  })
  app.delete('/pets/:id', (c) => {
    pets.delete(Number(c.req.param('id')))
    return c.body(null, 204)
  })
  mountDocsPages(app, {
    specPath: '/openapi.json',
    docsPath: '/explorer',
    redocPath: '/reference',
    title: 'Fixture Pets API',
  })
  return app
}
