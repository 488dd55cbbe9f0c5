import fc from 'fast-check'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { openapi } from '../app/openapi'
import { toPointer } from './standard'

/** Reads an RFC 6901 pointer back into its segments. */
const segments = (pointer: string) =>
  pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))

describe('request parsing under arbitrary input (property-based)', () => {
  const api = openapi(new Hono(), { info: { title: 'P', version: '1' } })
  api.post('/b', (c) => c.json({ body: c.req.valid('json'), query: c.req.valid('query') }, 201), {
    openapi: {
      request: {
        body: z.object({ name: z.string(), tags: z.array(z.string()).optional() }),
        query: z.object({
          page: z.coerce.number().int().optional(),
          tag: z.array(z.string()).optional(),
        }),
      },
    },
  })

  it('answers any body with 201, 400 or 415, never 5xx, and 400s are problem details', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        fc.constantFrom(
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          null,
        ),
        async (body, type) => {
          const headers = new Headers()
          if (type) headers.set('Content-Type', type)
          const res = await api.request('/b', {
            method: 'POST',
            body: new TextEncoder().encode(body),
            headers,
          })
          expect([201, 400, 415]).toContain(res.status)
          if (res.status !== 201) {
            expect(res.headers.get('content-type')).toBe('application/problem+json')
            const p = (await res.json()) as { errors: { path: string }[] }
            expect(p.errors.length).toBeGreaterThan(0)
          }
        },
      ),
      { numRuns: 150 },
    )
  })

  it('answers any query string without a 5xx, and declared arrays are always arrays', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('page', 'tag', 'x'), fc.string())),
        async (pairs) => {
          const qs = new URLSearchParams(pairs).toString()
          const res = await api.request(`/b?${qs}`, {
            method: 'POST',
            body: '{"name":"a"}',
            headers: { 'Content-Type': 'application/json' },
          })
          expect([201, 400]).toContain(res.status)
        },
      ),
      { numRuns: 150 },
    )
  })

  it('writes issue paths as JSON pointers that read back to the same keys', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.nat())), (path) => {
        expect(segments(toPointer(path))).toEqual(path.map(String))
        expect(segments(toPointer(path.map((key) => ({ key }))))).toEqual(path.map(String))
      }),
    )
  })
})
