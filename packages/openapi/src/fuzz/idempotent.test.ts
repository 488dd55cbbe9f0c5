// fuzz() on operations that declare Idempotency-Key: retries with the same key must replay the
// first answer byte for byte. The middleware here is a small stand-in described through the
// public protocol (the real one is fuzzed in tests/, across packages).
import { describeMiddleware } from '@palisade/shared/describe'
import { Hono, type MiddlewareHandler } from 'hono'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { openapi } from '../app/openapi'
import { fuzz } from '.'
import { judgeRetry } from './idempotent'

const info = { title: 'Idempotent', version: '1.0.0' }
const Comment = z.object({ id: z.number().int(), text: z.string() })
const NewComment = z.object({ text: z.string().min(1).max(20) })

/** A stand-in idempotency middleware; `fault` breaks its replay on purpose. */
function keyed(fault?: 'other-body' | 'no-replay'): MiddlewareHandler {
  const stored = new Map<string, { status: number; body: string }>()
  const mw: MiddlewareHandler = async (c, next) => {
    const key = c.req.header('idempotency-key')
    const hit = key === undefined ? undefined : stored.get(key)
    if (hit && fault !== 'no-replay') {
      const body = fault === 'other-body' ? hit.body.replace('}', ' }') : hit.body
      return new Response(body, {
        status: hit.status,
        headers: { 'content-type': 'application/json', 'idempotent-replayed': 'true' },
      })
    }
    await next()
    if (key !== undefined)
      stored.set(key, { status: c.res.status, body: await c.res.clone().text() })
  }
  return describeMiddleware(mw, {
    methods: ['POST'],
    requestHeaders: [
      {
        name: 'Idempotency-Key',
        description: 'A unique key per operation',
        schema: { type: 'string', pattern: '^"[a-z0-9-]{1,40}"$' },
      },
    ],
  })
}

function app(fault?: 'other-body' | 'no-replay') {
  let next = 0
  let runs = 0
  const api = openapi(new Hono(), { info }).post(
    '/comments',
    (c) => {
      runs++
      return c.json({ id: ++next, text: c.req.valid('json').text }, 201)
    },
    {
      middlewares: [keyed(fault)],
      openapi: {
        request: { body: NewComment },
        responses: { 201: { description: 'Created', schema: Comment } },
      },
    },
  )
  return { api, runs: () => runs }
}

describe('fuzz retries operations that declare Idempotency-Key', () => {
  it('documents the header as a parameter and finds nothing when replays are byte-identical', async () => {
    const { api, runs } = app()
    const parameters = (api.spec().paths['/comments']?.post?.parameters ?? []) as {
      name: string
      in: string
    }[]
    expect(parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }),
    )
    const report = await fuzz(api, { seed: 3, runs: 40 })
    expect(report.failures).toEqual([])
    // Every request went twice; the handler ran once per valid request, never for the retry.
    expect(report.requests).toBeGreaterThan(40)
    expect(runs()).toBeLessThan(report.requests / 2 + 1)
    expect(runs()).toBeGreaterThan(0)
  })

  it('reports a replay whose body differs from the first answer', async () => {
    const report = await fuzz(app('other-body').api, { seed: 3, runs: 40 })
    expect(report.failures).toHaveLength(1)
    expect(report.failures[0]?.reason).toMatch(/replayed a body that differs/)
    expect(report.failures[0]?.request.headers['idempotency-key']).toMatch(
      /^"palisade-fuzz-3-\d+"$/,
    )
  })

  it('reports a 2xx retry that ran the handler again', async () => {
    const report = await fuzz(app('no-replay').api, { seed: 3, runs: 40 })
    expect(report.failures[0]?.reason).toMatch(/not replayed: the handler ran again/)
  })

  it('judges a retry: same status and bytes, or a refusal', () => {
    const first = { status: 201, body: new Uint8Array([1, 2]) }
    expect(
      judgeRetry(first, { status: 201, replayed: true, body: new Uint8Array([1, 2]) }),
    ).toBeUndefined()
    expect(
      judgeRetry(first, { status: 200, replayed: true, body: new Uint8Array([1, 2]) }),
    ).toMatch(/status/)
    expect(
      judgeRetry(first, { status: 201, replayed: true, body: new Uint8Array([1, 3]) }),
    ).toMatch(/differs/)
    expect(
      judgeRetry(first, { status: 409, replayed: false, body: new Uint8Array() }),
    ).toBeUndefined()
    expect(
      judgeRetry(
        { status: 400, body: new Uint8Array() },
        { status: 400, replayed: false, body: new Uint8Array() },
      ),
    ).toBeUndefined()
  })
})
