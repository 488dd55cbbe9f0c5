import { type ErrorHandler, Hono, type MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { z } from 'zod'
import { z as z3 } from 'zod3'
import { describeMiddleware } from '../../packages/middleware/src'
import { openapi } from '../../packages/openapi/src'

/**
 * A realistic API documented through the wrapper: groups, path/query/header parameters, bodies,
 * several responses per operation, zod 4, zod 3 and raw JSON Schema side by side.
 */
export function bookstore() {
  const Book = z.object({
    id: z.uuid().describe('Book ID'),
    title: z.string().min(1).max(200),
    author: z.string(),
    year: z.int().min(1450).max(2100).optional(),
    tags: z.array(z.string()).max(10).default([]),
    format: z.enum(['hardcover', 'paperback', 'ebook']),
  })
  // A title names the component; without one the name comes from the property names.
  const BookOut = Book.meta({ title: 'Book' })
  const NewBook = Book.omit({ id: true })
  const BookPage = z.object({ items: z.array(BookOut), next: z.string().nullable() })
  const Problem = z.object({ error: z.string(), details: z.array(z.string()).optional() })
  // The same shape from zod 3: it must share the component, not duplicate it.
  const Problem3 = z3.object({ error: z3.string(), details: z3.array(z3.string()).optional() })
  const Review = {
    type: 'object',
    properties: { rating: { type: 'integer', minimum: 1, maximum: 5 }, text: { type: 'string' } },
    required: ['rating'],
  }
  const User = z.object({ name: z.string(), email: z.email() })
  const Login = z.object({ email: z.email(), password: z.string().min(8) })

  const requireToken: MiddlewareHandler = async (c, next) => {
    if (c.req.header('authorization') !== 'Bearer test')
      throw new HTTPException(401, { message: 'Unauthorized' })
    await next()
  }

  const books = new Map<string, z.infer<typeof Book>>()
  const api = openapi(new Hono(), {
    info: {
      title: 'Bookstore',
      version: '2.1.0',
      description: 'Books, reviews and accounts.',
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'API team', email: 'api@example.com' },
    },
    servers: [{ url: 'https://books.example.com', description: 'Production' }],
    // Auth that no Palisade middleware describes: declared once, referenced by routes.
    securitySchemes: { bookToken: { type: 'http', scheme: 'bearer' } },
  })
  // A custom error handler describes the body it gives every rejection (the protocol the
  // middleware use), so the document shows that body.
  const onError: ErrorHandler = (err, c) =>
    err instanceof HTTPException
      ? c.json({ error: err.message }, err.status)
      : c.json({ error: 'Internal' }, 500)
  api.onError(
    describeMiddleware(onError, {
      rejectionBody: {
        mediaType: 'application/json',
        schemaName: 'Error',
        schema: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] },
      },
    }),
  )

  api.get('/health', (c) => c.text('ok'), {
    openapi: {
      operationId: 'health',
      summary: 'Liveness probe',
      tags: ['meta'],
      responses: {
        200: { description: 'Alive', schema: z.literal('ok'), contentType: 'text/plain' },
      },
    },
  })

  api.group('/api/v1', (v1) => {
    v1.get('/books', (c) => c.json({ items: [...books.values()], next: null }), {
      openapi: {
        operationId: 'listBooks',
        summary: 'List books',
        tags: ['books'],
        request: {
          query: z.object({
            q: z.string().optional().describe('Full-text search'),
            limit: z.coerce.number().int().min(1).max(100).default(20),
            format: z.enum(['hardcover', 'paperback', 'ebook']).optional(),
          }),
        },
        responses: {
          200: { description: 'A page of books', schema: BookPage },
          400: { description: 'Bad query', schema: Problem },
        },
      },
    })
    v1.post(
      '/books',
      async (c) => {
        const body = NewBook.parse(await c.req.json())
        const book = { ...body, id: crypto.randomUUID() }
        books.set(book.id, book)
        return c.json(book, 201)
      },
      {
        middlewares: [requireToken],
        openapi: {
          security: [{ bookToken: [] }],
          operationId: 'createBook',
          summary: 'Add a book',
          tags: ['books'],
          request: { body: NewBook, headers: z.object({ 'x-request-id': z.string().optional() }) },
          responses: {
            201: { description: 'Created', schema: BookOut },
            400: { description: 'Invalid book', schema: Problem3 },
            401: { description: 'Missing or wrong token', schema: Problem },
          },
        },
      },
    )
    v1.get(
      '/books/:id',
      (c) => {
        const book = books.get(c.req.param('id'))
        return book ? c.json(book, 200) : c.json({ error: 'Not found' }, 404)
      },
      {
        openapi: {
          operationId: 'getBook',
          summary: 'Get a book',
          tags: ['books'],
          request: { params: z.object({ id: z.uuid() }) },
          responses: {
            200: { description: 'The book', schema: BookOut },
            404: { description: 'No such book', schema: Problem },
          },
        },
      },
    )
    v1.delete('/books/:id', (c) => c.body(null, 204), {
      middlewares: [requireToken],
      openapi: {
        security: [{ bookToken: [] }],
        operationId: 'deleteBook',
        summary: 'Remove a book',
        tags: ['books'],
        deprecated: true,
        responses: {
          204: { description: 'Removed' },
          401: { description: 'Missing or wrong token', schema: Problem },
        },
      },
    })
    v1.group('/books/:id/reviews', (reviews) => {
      reviews.post('/', (c) => c.json({ rating: 5 }, 201), {
        openapi: {
          operationId: 'addReview',
          summary: 'Review a book',
          tags: ['reviews'],
          request: { body: Review },
          responses: {
            201: { description: 'Stored', schema: Review },
            404: { description: 'No such book', schema: Problem },
          },
        },
      })
      reviews.get('/:n{[0-9]+}', (c) => c.json({ rating: 4 }), {
        openapi: {
          operationId: 'getReview',
          summary: 'Get one review',
          tags: ['reviews'],
          responses: {
            200: { description: 'The review', schema: Review },
            404: { description: 'No such review', schema: Problem },
          },
        },
      })
    })
    v1.post('/login', (c) => c.json({ name: 'Ada', email: 'ada@example.com' }), {
      openapi: {
        operationId: 'login',
        summary: 'Log in',
        tags: ['accounts'],
        request: { body: Login },
        responses: {
          200: { description: 'Logged in', schema: User },
          401: { description: 'Wrong credentials', schema: Problem },
        },
      },
    })
    v1.get(
      '/users/:name?',
      (c) => c.json([{ name: c.req.param('name') ?? 'Ada', email: 'ada@example.com' }]),
      {
        openapi: {
          operationId: 'findUsers',
          summary: 'Find users, optionally by name',
          tags: ['accounts'],
          responses: {
            200: { description: 'Matching users', schema: z.array(User) },
            400: { description: 'Bad request', schema: Problem },
          },
        },
      },
    )
  })
  return api
}
