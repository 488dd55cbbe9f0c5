// The check of one answer, without an app around it: what it sends, and that a synchronous
// answer with a synchronous schema is checked without a promise (the hot path's shape).
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { ResponseChecker, type StatusCheck } from './response-checker'
import type { ResponseValidationIssue } from './response-types'
import { stripperFor } from './strip'

const user: StatusCheck = {
  strip: stripperFor({ type: 'object', properties: { id: { type: 'string' } } }),
  validate: (value) =>
    typeof (value as { id?: unknown }).id === 'string'
      ? { value }
      : { issues: [{ message: 'id must be a string', path: ['id'] }] },
}

/** A checker for one route declaring 200 (with `user`) and 204 (no body), and its hook's issues. */
function checker(mode: ResponseValidationIssue['mode']) {
  const issues: ResponseValidationIssue[] = []
  const rc = new ResponseChecker({
    mode,
    path: '/users/:id',
    declared: new Set([200, 204]),
    checks: new Map([[200, user]]),
    hook: (issue) => {
      issues.push(issue)
    },
  })
  return { rc, issues }
}

/** Runs `f` with a real Hono Context of a GET (or `method`) request. */
async function withContext<T>(f: (c: never) => T, method = 'GET'): Promise<T> {
  let out: T | undefined
  const app = new Hono().all('*', (c) => {
    out = f(c as never)
    return c.body(null, 204)
  })
  await app.request('/users/1', { method })
  return out as T
}

describe('ResponseChecker', () => {
  it('answers a valid body built by c.json() synchronously, as the same response', async () => {
    const { rc, issues } = checker('strip')
    const body = { id: '1' }
    const res = Response.json(body)
    // Wrapped: an async function would flatten a returned promise.
    const { out } = await withContext((c) => ({ out: rc.check(c, res, res, body) }))
    expect(out).toBe(res)
    expect(issues).toEqual([])
  })

  it('sends a stripped copy when c.json() did not strip early', async () => {
    const { rc } = checker('strip')
    const body = { id: '1', secret: 'x' }
    const res = Response.json(body)
    const out = await withContext((c) => rc.check(c, res, res, body))
    expect(out).not.toBe(res)
    expect(await (out as Response).json()).toEqual({ id: '1' })
  })

  it('refuses an undeclared property in strict, reporting its pointer', async () => {
    const { rc, issues } = checker('strict')
    const body = { id: '1', secret: 'x' }
    const res = Response.json(body)
    const out = (await withContext((c) => rc.check(c, res, res, body))) as Promise<Response>
    expect((await out).status).toBe(500)
    expect(issues).toMatchObject([
      { kind: 'invalid_body', status: 200, errors: [{ path: '/secret' }] },
    ])
  })

  it('refuses JSON under an undeclared status, passes non-JSON, HEAD and 304 untouched', async () => {
    const { rc, issues } = checker('strip')
    const json = Response.json({ id: '1' }, { status: 201 })
    const refused = (await await withContext((c) =>
      rc.check(c, json, undefined, undefined),
    )) as Response
    expect(refused.status).toBe(500)
    const text = new Response('hi', { status: 201 })
    expect(await await withContext((c) => rc.check(c, text, undefined, undefined))).toBe(text)
    const notModified = new Response(null, { status: 304 })
    expect(await withContext((c) => rc.check(c, notModified, undefined, undefined))).toBe(
      notModified,
    )
    const head = Response.json({ id: 1 })
    expect(await withContext((c) => rc.check(c, head, head, { id: 1 }), 'HEAD')).toBe(head)
    expect(issues.map((i) => i.kind)).toEqual(['undeclared_status', 'undeclared_status'])
  })

  it('reads back a JSON answer it did not build, and refuses one that is not JSON', async () => {
    const { rc } = checker('strip')
    const sent = new Response('{"id":"1","secret":"x"}', {
      headers: { 'content-type': 'application/json' },
    })
    const out = await await withContext((c) => rc.check(c, sent, undefined, undefined))
    expect(await (out as Response).json()).toEqual({ id: '1' })
    const broken = new Response('{', { headers: { 'content-type': 'application/json' } })
    const refused = await await withContext((c) => rc.check(c, broken, undefined, undefined))
    expect((refused as Response).status).toBe(500)
  })

  it('in report, sends what was built and tells the hook', async () => {
    const { rc, issues } = checker('report')
    const body = { id: 1 }
    const res = Response.json(body)
    const out = await await withContext((c) => rc.check(c, res, res, body))
    expect(out).toBe(res)
    expect(issues).toMatchObject([
      { kind: 'invalid_body', mode: 'report', errors: [{ path: '/id' }] },
    ])
  })
})
