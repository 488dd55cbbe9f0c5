/**
 * One fault, one answer: malformed JSON and JSON nested too deeply get the same code from
 * xssSanitize (middleware) and from request validation (openapi), which share one reader.
 */
import { problemHandler, xssSanitize } from '@palisade/middleware'
import { openapi } from '@palisade/openapi'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'

function app() {
  const api = openapi(new Hono(), { info: { title: 'One reader', version: '1.0.0' } })
  api.onError(problemHandler())
  api.post('/validated', (c) => c.json({ ok: true }), {
    openapi: { request: { body: z.json() } },
  })
  api.post('/sanitized', (c) => c.json({ ok: true }), { middlewares: [xssSanitize()] })
  return api
}

const post = (path: string, body: string) =>
  app().request(path, { method: 'POST', body, headers: { 'content-type': 'application/json' } })

describe('xssSanitize and request validation read JSON alike', () => {
  it.each([
    ['malformed JSON', '{"a":', 'malformed_body'],
    ['valid JSON nested 1,500 deep', `${'['.repeat(1500)}${']'.repeat(1500)}`, 'body_too_deep'],
  ])('%s: the same status and code from both', async (_label, body, code) => {
    for (const path of ['/validated', '/sanitized']) {
      const res = await post(path, body)
      expect(res.status, path).toBe(400)
      expect(((await res.json()) as { code: string }).code, path).toBe(code)
    }
  })

  it.each([
    ['malformed JSON', '{"a":'],
    ['valid JSON nested 1,500 deep', `${'['.repeat(1500)}${']'.repeat(1500)}`],
  ])('%s: the same errors from both, naming the body', async (_label, body) => {
    const [validated, sanitized] = await Promise.all(
      ['/validated', '/sanitized'].map(async (path) => {
        const problem = (await (await post(path, body)).json()) as { errors?: unknown }
        return problem.errors
      }),
    )
    expect(validated).toEqual([{ in: 'body', path: '', message: expect.any(String) }])
    expect(sanitized).toEqual(validated)
  })
})
