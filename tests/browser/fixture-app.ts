// Stand-in for the example app until `examples/app.ts` lands: a small pets API documented with
// `openapi()`, same `createApp()` shape as the example (`{ api, close }`), so the browser tests
// switch apps by changing one import in app-under-test.ts.
import { openapi } from '@palisade/openapi'
import { Hono } from 'hono'
import { z } from 'zod'

const Pet = z.object({
  id: z.number().int().meta({ example: 1 }),
  name: z.string().meta({ example: 'Rex' }),
  tag: z.string().nullable().meta({ example: 'dog' }),
})
const NewPet = z.object({
  name: z.string().min(1).meta({ example: 'Rex' }),
  tag: z.string().optional().meta({ example: 'dog' }),
})
const ErrorBody = z.object({ message: z.string() })
const PetId = z.object({ id: z.coerce.number().int().min(1) })

/** Builds the fixture app. */
export async function createApp() {
  const pets = new Map<number, z.infer<typeof Pet>>([[1, { id: 1, name: 'Rex', tag: 'dog' }]])
  let nextId = 2
  const api = openapi(new Hono(), {
    info: { title: 'Fixture Pets API', version: '1.0.0', description: 'Docs page test fixture.' },
  })

  api.get('/health', (c) => c.json({ status: 'ok' }), {
    openapi: {
      operationId: 'getHealth',
      tags: ['system'],
      summary: 'Liveness probe',
      responses: { 200: { description: 'Alive', schema: z.object({ status: z.literal('ok') }) } },
    },
  })
  api.get(
    '/pets',
    (c) => c.json([...pets.values()].slice(0, Number(c.req.query('limit') ?? 100))),
    {
      openapi: {
        operationId: 'listPets',
        tags: ['pets'],
        summary: 'List pets',
        request: { query: z.object({ limit: z.coerce.number().int().optional() }) },
        responses: { 200: { description: 'The pets', schema: z.array(Pet) } },
      },
    },
  )
  api.post(
    '/pets',
    async (c) => {
      const parsed = NewPet.safeParse(await c.req.json().catch(() => null))
      if (!parsed.success) return c.json({ message: 'name is required' }, 400)
      const pet = { id: nextId++, name: parsed.data.name, tag: parsed.data.tag ?? null }
      pets.set(pet.id, pet)
      return c.json(pet, 201)
    },
    {
      openapi: {
        operationId: 'createPet',
        tags: ['pets'],
        summary: 'Create a pet',
        request: { body: NewPet },
        responses: {
          201: { description: 'Created', schema: Pet },
          400: { description: 'Invalid body', schema: ErrorBody },
        },
      },
    },
  )
  api.get(
    '/pets/:id',
    (c) => {
      const pet = pets.get(Number(c.req.param('id')))
      return pet ? c.json(pet) : c.json({ message: 'Not found' }, 404)
    },
    {
      openapi: {
        operationId: 'getPet',
        tags: ['pets'],
        summary: 'Get one pet',
        request: { params: PetId },
        responses: {
          200: { description: 'The pet', schema: Pet },
          404: { description: 'Not found', schema: ErrorBody },
        },
      },
    },
  )
  api.delete(
    '/pets/:id',
    (c) => {
      pets.delete(Number(c.req.param('id')))
      return c.body(null, 204)
    },
    {
      openapi: {
        operationId: 'deletePet',
        tags: ['pets'],
        summary: 'Delete a pet',
        request: { params: PetId },
        responses: { 204: { description: 'Deleted' } },
      },
    },
  )
  return { api, close: async () => {} }
}
