// `links` on a route's responses and `callbacks` on its operation (OpenAPI 3.1 §4.8.20, §4.8.18):
// documented from the same schema kinds as routes and webhooks, valid under the real validators,
// and refused at registration (a malformed runtime expression) or when the document is built (a
// link to an operation that does not exist).
import { execFile } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { z as z3 } from 'zod3'
import { openapi } from '../../packages/openapi/src'
import { expectValidOpenAPI } from './validate'

const run = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')
const info = { title: 'Comments', version: '1.0.0' }
const Comment = z.object({ id: z.uuid(), text: z.string().max(200) }).meta({ title: 'Comment' })

function comments(link: Record<string, unknown> = {}) {
  const api = openapi(new Hono(), { info })
  const store = new Map<string, { id: string; text: string }>()
  api.post(
    '/comments',
    async (c) => {
      const { text } = c.req.valid('json')
      const comment = { id: crypto.randomUUID(), text }
      store.set(comment.id, comment)
      return c.json(comment, 201)
    },
    {
      openapi: {
        operationId: 'createComment',
        request: { body: z.object({ text: z.string().max(200), callbackUrl: z.url().optional() }) },
        responses: {
          201: {
            description: 'Created',
            schema: Comment,
            links: {
              GetComment: {
                operationId: 'getComment',
                parameters: { id: '$response.body#/id' },
                description: 'The comment just created',
              },
              ...link,
            },
          },
        },
        callbacks: {
          commentApproved: {
            '{$request.body#/callbackUrl}': {
              summary: 'The comment was approved',
              payload: z3.object({ id: z3.string(), approved: z3.boolean() }),
              signature: 'standardWebhooks',
              responses: { 204: { description: 'Taken' } },
            },
          },
        },
      },
    },
  )
  api.get(
    '/comments/:id',
    (c) => {
      const comment = store.get(c.req.valid('param').id)
      return comment ? c.json(comment, 200) : c.json({ error: 'no such comment' }, 404)
    },
    {
      openapi: {
        operationId: 'getComment',
        request: { params: z.object({ id: z.uuid() }) },
        responses: {
          200: { description: 'The comment', schema: Comment },
          404: { description: 'No such comment', schema: z.object({ error: z.string() }) },
        },
      },
    },
  )
  return api
}

describe('links and callbacks in the document', () => {
  it('writes the link under the response and the callback under the operation, valid OpenAPI 3.1', async () => {
    const doc = comments().spec()
    const post = doc.paths['/comments']?.post
    expect(post?.responses['201']?.links).toEqual({
      GetComment: {
        operationId: 'getComment',
        parameters: { id: '$response.body#/id' },
        description: 'The comment just created',
      },
    })
    const sent = post?.callbacks?.commentApproved?.['{$request.body#/callbackUrl}']?.post
    expect(sent?.summary).toBe('The comment was approved')
    expect(sent?.requestBody?.content['application/json']?.schema.$ref).toMatch(
      /^#\/components\/schemas\//,
    )
    // The signature headers, as a webhook with the same preset documents them.
    expect(sent?.parameters?.map((p) => p.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ])
    expect(Object.keys(sent?.responses ?? {})).toEqual(['204'])
    await expectValidOpenAPI(doc)
  })

  it('passes Spectral (spectral:oas) and Redocly without errors', async () => {
    const dir = '/tmp/links/spectral'
    await mkdir(dir, { recursive: true })
    const file = join(dir, 'comments.json')
    await writeFile(file, JSON.stringify(comments().spec()))
    const ruleset = join(dir, 'ruleset.yaml')
    await writeFile(ruleset, 'extends: ["spectral:oas"]\n')
    const bin = (name: string) => join(root, 'tests/node_modules/.bin', name)
    const spectral = await run(bin('spectral'), ['lint', file, '-r', ruleset, '-f', 'json', '-q'], {
      cwd: dir,
    }).catch((e: { stdout: string }) => ({ stdout: e.stdout }))
    const findings = JSON.parse(spectral.stdout || '[]') as { code: string; severity: number }[]
    // It ran (its warnings are there: no contact, no tags) and found no error.
    expect(findings.map((f) => f.code)).toContain('info-contact')
    expect(findings.filter((f) => f.severity === 0)).toEqual([])
    const config = join(root, 'tests/openapi/redocly-recommended.yaml')
    const redocly = await run(
      bin('redocly'),
      ['lint', file, '--format=json', `--config=${config}`],
      {
        cwd: dir,
      },
    ).catch((e: { stdout: string }) => ({ stdout: e.stdout }))
    const problems = (JSON.parse(redocly.stdout) as { problems: { severity: string }[] }).problems
    expect(problems.filter((p) => p.severity === 'error')).toEqual([])
  })

  it('refuses, when the document is built, a link to an operationId no operation has', () => {
    const api = comments({
      Typo: { operationId: 'getComent', parameters: { id: '$response.body#/id' } },
    })
    expect(() => api.spec()).toThrow(
      'openapi: POST /comments: responses.201.links.Typo names operationId "getComent", which no operation has (operationIds: createComment, getComment)',
    )
  })

  it('accepts a local operationRef that points at an operation, refuses one that does not', () => {
    const ok = comments({ ByRef: { operationRef: '#/paths/~1comments~1{id}/get' } })
    expect(ok.spec().paths['/comments']?.post?.responses['201']?.links?.ByRef).toEqual({
      operationRef: '#/paths/~1comments~1{id}/get',
    })
    const bad = comments({ ByRef: { operationRef: '#/paths/~1comments~1{id}/delete' } })
    expect(() => bad.spec()).toThrow('points at no operation of the document')
  })

  const malformed: [string, unknown, string][] = [
    [
      'an unknown source',
      { operationId: 'getComment', parameters: { id: '$response.bdy' } },
      'is not header.…, query.…, path.… or body',
    ],
    [
      'a pointer without its slash',
      { operationId: 'getComment', parameters: { id: '$response.body#id' } },
      '"id" is not a JSON pointer',
    ],
    [
      'a bad escape in a pointer',
      { operationId: 'getComment', parameters: { id: '$response.body#/a~2' } },
      '~ only as ~0 or ~1',
    ],
    [
      'a header that is no header name',
      { operationId: 'getComment', parameters: { id: '$response.header.Lo cation' } },
      'is not an HTTP header name',
    ],
    [
      'path parameters of a response',
      { operationId: 'getComment', parameters: { id: '$response.path.id' } },
      '$response has no path parameters',
    ],
    [
      'an unclosed template',
      { operationId: 'getComment', parameters: { id: 'x-{$response.body#/id' } },
      'is never closed',
    ],
    [
      'no target',
      { parameters: { id: '$response.body#/id' } },
      'needs exactly one of operationId and operationRef',
    ],
    [
      'both targets',
      { operationId: 'getComment', operationRef: '#/paths/~1x/get' },
      'needs exactly one',
    ],
    ['an unknown key', { operationId: 'getComment', params: {} }, 'unknown key "params"'],
    [
      'a bad request body expression',
      { operationId: 'getComment', requestBody: '$statuscode' },
      'a runtime expression is',
    ],
  ]
  it.each(malformed)('refuses at registration a link with %s', (_, link, message) => {
    expect(() => comments({ Bad: link })).toThrow(message)
  })

  it('refuses at registration a callback URL that is not a runtime expression, and a bad payload', () => {
    const api = openapi(new Hono(), { info })
    const route = (callbacks: unknown) => () =>
      api.post('/jobs', (c) => c.json({}), { openapi: { callbacks } as never })
    expect(
      route({ done: { '{$request.body#callback}': { payload: { type: 'object' } } } }),
    ).toThrow(
      'openapi: POST /jobs: callbacks.done URL "{$request.body#callback}": {$request.body#callback}: "callback" is not a JSON pointer',
    )
    expect(route({ done: { '{$request.body#/url}': { summary: 'no payload' } } })).toThrow(
      'openapi: POST /jobs callback done "{$request.body#/url}": meta must be an object with a payload schema',
    )
    expect(route({ done: { '{$request.body#/url}': { payload: {}, method: 'get' } } })).toThrow(
      'method must be one of post, put, patch',
    )
    expect(route({ 'd one': { '{$request.body#/url}': { payload: {} } } })).toThrow('a name is')
    expect(route({ done: {} })).toThrow('callbacks.done must map a URL expression to a request')
  })
})
