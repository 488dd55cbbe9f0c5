// shield() behind @palisade/openapi: the route's request schema tells shield which body fields
// hold no free text (the field-hints protocol of @palisade/shared/field-hints: the wrapper puts
// them on the route's validator, shield finds it among Hono's matched routes), the document
// lists 403 attack_detected, and `palisade audit`'s `shield` rule finds free-text bodies without it.
import { logger } from '@palisade/middleware/logger'
import { shield } from '@palisade/middleware/shield'
import { openapi } from '@palisade/openapi'
import { audit } from '@palisade/openapi/audit'
import { fieldHintsOf } from '@palisade/shared/field-hints'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'

const ok = { 200: { description: 'OK', schema: z.object({ ok: z.boolean() }) } }
const SQLI = "1' OR 1=1--"

const Order = z.object({
  id: z.uuid(),
  qty: z.number().int(),
  gift: z.boolean(),
  size: z.enum(['S', 'M', 'L']),
  when: z.iso.datetime(),
  day: z.iso.date(),
  email: z.email(),
  note: z.string(),
  code: z.string().meta({ 'x-palisade-shield': false }),
  lines: z.array(z.object({ sku: z.uuid(), text: z.string() })),
})

function shop(options: Parameters<typeof shield>[0] = {}) {
  const api = openapi(new Hono(), { info: { title: 'Shop', version: '1.0.0' } })
  api.use('*', shield(options))
  api.post('/orders', (c) => c.json({ ok: true }), {
    openapi: { request: { body: Order }, responses: ok },
  })
  api.post('/raw', (c) => c.json({ ok: true }), { openapi: { responses: ok } })
  return api
}

const order = (patch: Record<string, unknown>) => ({
  id: '6f1c2a70-0a8f-4c55-9a57-7a8c6f5f7b10',
  qty: 1,
  gift: false,
  size: 'M',
  when: '2026-01-01T00:00:00Z',
  day: '2026-01-01',
  email: 'ann@example.com',
  note: 'leave at the door',
  code: 'x',
  lines: [{ sku: '6f1c2a70-0a8f-4c55-9a57-7a8c6f5f7b10', text: 'blue' }],
  ...patch,
})
const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

describe('the field-hints protocol', () => {
  it('the wrapper puts the pinned fields of the body schema on the route validator', () => {
    const api = shop()
    const hinted = api.app.routes.map((r) => fieldHintsOf(r.handler)).filter(Boolean)
    expect(hinted).toHaveLength(1)
    expect([...(hinted[0]?.skip ?? [])].sort()).toEqual(
      ['/code', '/day', '/email', '/gift', '/id', '/lines/*/sku', '/qty', '/size', '/when'].sort(),
    )
  })

  it('a route without a validated body carries no hints', () => {
    const api = openapi(new Hono(), { info: { title: 'x', version: '1' } })
    api.post('/raw', (c) => c.json({ ok: true }), { openapi: { responses: ok } })
    api.post('/off', (c) => c.json({ ok: true }), {
      validate: false,
      openapi: { request: { body: Order }, responses: ok },
    })
    expect(api.app.routes.map((r) => fieldHintsOf(r.handler)).filter(Boolean)).toEqual([])
  })
})

describe('shield on a wrapped route', () => {
  it('does not inspect fields the schema pins down: validation answers them instead', async () => {
    const api = shop()
    // `code` is marked x-palisade-shield: false: free text the app wants as it is (a snippet).
    const fine = await api.app.request('/orders', post(order({ code: SQLI })))
    expect(fine.status).toBe(200)
    // An attack in a uuid field is not shield's to see: validation refuses the value (400).
    const pinned = await api.app.request('/orders', post(order({ id: SQLI })))
    expect(pinned.status).toBe(400)
    const line = await api.app.request(
      '/orders',
      post(order({ lines: [{ sku: SQLI, text: 'a' }] })),
    )
    expect(line.status).toBe(400)
  })

  it('still inspects the free-text fields, and the routes without a schema', async () => {
    const api = shop()
    expect((await api.app.request('/orders', post(order({ note: SQLI })))).status).toBe(403)
    const text = order({
      lines: [{ sku: '6f1c2a70-0a8f-4c55-9a57-7a8c6f5f7b10', text: '<script>' }],
    })
    expect((await api.app.request('/orders', post(text))).status).toBe(403)
    expect((await api.app.request('/raw', post({ id: SQLI }))).status).toBe(403)
  })

  it('fields.inspect wins over the schema: a pinned field is read when the app says so', async () => {
    const api = shop({ fields: { inspect: ['/code'] } })
    expect((await api.app.request('/orders', post(order({ code: SQLI })))).status).toBe(403)
  })

  it('records where it found the attack as a JSON pointer (the JSON log line shows it)', async () => {
    const lines: string[] = []
    const app = new Hono()
    app.use(logger({ format: 'json', sink: (line) => void lines.push(line) }))
    const api = openapi(app, { info: { title: 'Shop', version: '1.0.0' } })
    api.use('*', shield())
    api.post('/orders', (c) => c.json({ ok: true }), {
      openapi: { request: { body: Order }, responses: ok },
    })
    await app.request(
      '/orders',
      post(order({ lines: [{ sku: '6f1c2a70-0a8f-4c55-9a57-7a8c6f5f7b10', text: '<script>' }] })),
    )
    const entry = JSON.parse(lines[0] ?? '{}') as { decisions: Record<string, unknown>[] }
    expect(entry.decisions.find((d) => d.middleware === 'shield')).toMatchObject({
      outcome: 'reject',
      code: 'attack_detected',
      category: 'xss',
      location: 'body:/lines/0/text',
    })
    expect(lines[0]).not.toContain('<script>')
  })
})

describe('the document and the audit', () => {
  it('lists 403 attack_detected on shielded routes', async () => {
    const api = shop()
    const doc = await (await api.app.request('/openapi.json')).json()
    const answer = doc.paths['/orders'].post.responses['403']
    expect(answer).toBeDefined()
    expect(JSON.stringify(answer)).toContain('attack_detected')
  })

  it('the `shield` rule is off by default, and finds free-text bodies without shield when on', () => {
    const api = openapi(new Hono(), { info: { title: 'x', version: '1' } })
    api.post('/comments', (c) => c.json({ ok: true }), {
      openapi: { request: { body: z.object({ text: z.string() }) }, responses: ok },
    })
    api.post('/counts', (c) => c.json({ ok: true }), {
      openapi: { request: { body: z.object({ n: z.number(), id: z.uuid() }) }, responses: ok },
    })
    api.post('/shielded', (c) => c.json({ ok: true }), {
      middlewares: [shield()],
      openapi: { request: { body: z.object({ text: z.string() }) }, responses: ok },
    })
    api.get('/read', (c) => c.json({ ok: true }), { openapi: { responses: ok } })
    expect(audit(api).filter((f) => f.rule === 'shield')).toEqual([])
    const findings = audit(api, { rules: { shield: 'error' } }).filter((f) => f.rule === 'shield')
    expect(findings.map((f) => `${f.method} ${f.path}`)).toEqual(['POST /comments'])
    expect(findings[0]?.message).toBe('takes a free-text body and shield does not run')
  })
})
