// `audit()` reads what the routes declare and what the real Palisade middleware describe: each
// rule finds its fault on an app built to have it, and the example app passes every rule at
// 'error' with the exemptions it writes down.
import {
  bodyLimit,
  csrf,
  jwtAuth,
  rateLimit,
  securityHeaders,
  sessions,
  webhook,
} from '@palisade/middleware'
import { openapi } from '@palisade/openapi'
import { AUDIT_RULES, type AuditFinding, audit, formatFindings } from '@palisade/openapi/audit'
import { Hono } from 'hono'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { auditPolicy, createApp } from '../../examples/app'

const secret = 'a-secret-of-at-least-32-characters!!'
const ok = { 200: { description: 'OK', schema: z.object({ ok: z.boolean() }) } }
const Body = z.object({ name: z.string() })

/** An app where everything passes: every rule's fault is added to it one at a time. */
function base() {
  const api = openapi(new Hono(), { info: { title: 'Audit', version: '1.0.0' } })
  api.use('*', securityHeaders(), rateLimit({ max: 100 }), bodyLimit({ max: 1024 }))
  return api
}
const only = (findings: AuditFinding[]) => findings.map((f) => `${f.method} ${f.path} ${f.rule}`)

describe('each rule finds its fault', () => {
  it('auth: an operation without a security requirement that is not declared public', () => {
    const api = base()
      .get('/open', (c) => c.json({ ok: true }), { openapi: { responses: ok } })
      .get('/public', (c) => c.json({ ok: true }), { openapi: { security: [], responses: ok } })
      .get('/mine', (c) => c.json({ ok: true }), {
        middlewares: [jwtAuth({ secret })],
        openapi: { responses: ok },
      })
    expect(only(audit(api))).toEqual(['GET /open auth'])
    expect(audit(api)[0]?.message).toContain('security: []')
  })

  it('webhook-signature: a declared or conventional webhook receiver without a signature check', () => {
    const hook = webhook({ preset: 'github', secret })
    const api = base()
      .post('/webhooks/unsigned', (c) => c.json({ ok: true }), {
        openapi: { security: [], request: { body: Body }, responses: ok },
      })
      .post('/webhooks/signed', (c) => c.json({ ok: true }), {
        middlewares: [hook],
        openapi: { request: { body: Body }, responses: ok },
      })
      .post('/ingest', (c) => c.json({ ok: true }), {
        middlewares: [jwtAuth({ secret })],
        openapi: { webhookReceiver: true, request: { body: Body }, responses: ok },
      })
      .post('/stripe/webhook', (c) => c.json({ ok: true }), {
        middlewares: [jwtAuth({ secret })],
        openapi: { webhookReceiver: false, request: { body: Body }, responses: ok },
      })
      .get('/webhooks', (c) => c.json({ ok: true }), { openapi: { security: [], responses: ok } })
    expect(only(audit(api))).toEqual([
      'POST /webhooks/unsigned webhook-signature',
      'POST /ingest webhook-signature',
    ])
    const [conventional, declared] = audit(api)
    expect(conventional?.message).toContain('webhookReceiver: false')
    expect(declared?.message).toContain('declared a webhook receiver')
    expect(declared?.message).toContain('webhook()')
  })

  it('webhook-signature: a webhook() that runs for only part of the paths is named', () => {
    const api = base()
    api.use('/webhooks/:id{[0-9]+}', webhook({ preset: 'stripe', secret }))
    api.post('/webhooks/:id', (c) => c.json({ ok: true }), {
      openapi: {
        request: { params: z.object({ id: z.string() }), body: Body },
        responses: ok,
      },
    })
    const finding = audit(api).find((f) => f.rule === 'webhook-signature')
    expect(finding?.message).toContain(
      "webhook at /webhooks/:id{[0-9]+} runs for only part of this route's paths",
    )
  })

  it('webhook-signature: refuses a webhookReceiver that is not a boolean', () => {
    expect(() =>
      base().post('/x', (c) => c.json({ ok: true }), {
        openapi: { webhookReceiver: 'yes' as never, responses: ok },
      }),
    ).toThrow('webhookReceiver must be a boolean')
  })

  it('csrf: an unsafe operation a session cookie authenticates, without csrf', () => {
    const api = base()
    api.use('/s/*', sessions({ secret }))
    api.post('/s/save', (c) => c.json({ ok: true }), {
      openapi: { security: [], request: { body: Body }, responses: ok },
    })
    api.get('/s/read', (c) => c.json({ ok: true }), { openapi: { security: [], responses: ok } })
    api.use('/t/*', sessions({ secret }), csrf({ secret }))
    api.post('/t/save', (c) => c.json({ ok: true }), {
      openapi: { security: [], request: { body: Body }, responses: ok },
    })
    expect(only(audit(api))).toEqual(['POST /s/save csrf'])
    expect(audit(api)[0]?.message).toContain('sessions')
  })

  it('csrf: jwtAuth counts only when it reads a cookie', () => {
    const api = base()
      .delete('/bearer', (c) => c.json({ ok: true }), {
        middlewares: [jwtAuth({ secret })],
        openapi: { responses: ok },
      })
      .delete('/cookie', (c) => c.json({ ok: true }), {
        middlewares: [jwtAuth({ secret, cookie: 'token' })],
        openapi: { responses: ok },
      })
    expect(only(audit(api))).toEqual(['DELETE /cookie csrf'])
  })

  it('rate-limit: an operation that rateLimit does not cover', () => {
    const api = openapi(new Hono(), { info: { title: 'Audit', version: '1.0.0' } })
    api.use('*', securityHeaders())
    api.use('/api/*', rateLimit({ max: 100 }))
    api.get('/api/in', (c) => c.json({ ok: true }), { openapi: { security: [], responses: ok } })
    api.get('/out', (c) => c.json({ ok: true }), { openapi: { security: [], responses: ok } })
    expect(only(audit(api))).toEqual(['GET /out rate-limit'])
  })

  it('body-limit: an operation that takes a body without bodyLimit, and not a GET', () => {
    const api = openapi(new Hono(), { info: { title: 'Audit', version: '1.0.0' } })
    api.use('*', securityHeaders(), rateLimit({ max: 100 }))
    api.post('/upload', (c) => c.json({ ok: true }), {
      openapi: { security: [], request: { body: Body }, responses: ok },
    })
    api.get('/list', (c) => c.json({ ok: true }), { openapi: { security: [], responses: ok } })
    expect(only(audit(api))).toEqual(['POST /upload body-limit'])
  })

  it('validation: untyped path parameters, an undeclared body, validation switched off', () => {
    const api = base()
      .get('/users/:id', (c) => c.json({ ok: true }), { openapi: { security: [], responses: ok } })
      .get('/typed/:id', (c) => c.json({ ok: true }), {
        openapi: {
          security: [],
          request: { params: z.object({ id: z.coerce.number() }) },
          responses: ok,
        },
      })
      .put('/raw', (c) => c.json({ ok: true }), { openapi: { security: [], responses: ok } })
      .patch('/off', (c) => c.json({ ok: true }), {
        validate: false,
        openapi: { security: [], request: { body: Body }, responses: ok },
      })
    const findings = audit(api)
    expect(only(findings)).toEqual([
      'GET /users/{id} validation',
      'PUT /raw validation',
      'PATCH /off validation',
    ])
    expect(findings.map((f) => f.message)).toEqual([
      expect.stringContaining('path parameters id'),
      expect.stringContaining('takes a body'),
      expect.stringContaining('validate: false'),
    ])
  })

  it('responses: no 2xx with a schema (a 204 needs none)', () => {
    const api = base()
      .get('/bare', (c) => c.json({ ok: true }), { openapi: { security: [] } })
      .get('/text', (c) => c.text('x'), {
        openapi: { security: [], responses: { 200: { description: 'Text' } } },
      })
      .delete('/gone', (c) => c.body(null, 204), {
        openapi: { security: [], responses: { 204: { description: 'Gone' } } },
      })
    expect(only(audit(api))).toEqual(['GET /bare responses', 'GET /text responses'])
  })

  it('headers: a route securityHeaders does not reach (registered before it)', () => {
    const api = openapi(new Hono(), { info: { title: 'Audit', version: '1.0.0' } })
    api.use('*', rateLimit({ max: 100 }))
    api.get('/early', (c) => c.json({ ok: true }), { openapi: { security: [], responses: ok } })
    api.use('*', securityHeaders())
    api.get('/late', (c) => c.json({ ok: true }), { openapi: { security: [], responses: ok } })
    expect(only(audit(api))).toEqual(['GET /early headers'])
  })

  it('sees group middleware and route middleware, and starts from the Hono app too', () => {
    const api = openapi(new Hono(), { info: { title: 'Audit', version: '1.0.0' } })
    api.group('/g', (g) => {
      g.use(securityHeaders())
      g.get('/a', (c) => c.json({ ok: true }), {
        middlewares: [rateLimit({ max: 1 })],
        openapi: { security: [], responses: ok },
      })
    })
    expect(audit(api)).toEqual([])
    expect(audit(api.app)).toEqual([])
  })
})

describe('the policy', () => {
  const faulty = () =>
    base().post('/x', (c) => c.json({ ok: true }), { openapi: { responses: ok } })

  it("sets each rule's severity, or turns it off", () => {
    expect(only(audit(faulty()))).toEqual(['POST /x auth', 'POST /x validation'])
    const findings = audit(faulty(), { rules: { auth: 'warn', validation: 'off' } })
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['auth', 'warn']])
  })

  it('exempts a route from the listed rules, by registered or documented path', () => {
    const api = base().get('/u/:id', (c) => c.json({ ok: true }), { openapi: { responses: ok } })
    const reason = 'a documented reason'
    expect(
      audit(api, { exempt: [{ method: 'GET', path: '/u/:id', rules: ['auth'], reason }] }).map(
        (f) => f.rule,
      ),
    ).toEqual(['validation'])
    expect(
      audit(api, {
        exempt: [{ method: '*', path: '/u/{id}', rules: ['auth', 'validation'], reason }],
      }),
    ).toEqual([])
    expect(
      audit(api, { exempt: [{ method: 'POST', path: '/u/:id', rules: ['auth'], reason }] }),
    ).toHaveLength(2)
  })

  it.each([
    [{ rules: { authz: 'error' } }, 'unknown rule "authz"'],
    [{ rules: { auth: 'fatal' } }, "policy.rules.auth must be 'error', 'warn' or 'off'"],
    [{ exempt: [{ method: 'GET', path: '/x', rules: ['auth'] }] }, 'reason is required'],
    [
      { exempt: [{ method: 'GET', path: '/x', rules: ['auth'], reason: ' ' }] },
      'reason is required',
    ],
    [{ exempt: [{ method: 'GET', path: '/x', rules: [], reason: 'r' }] }, '.rules must list'],
    [{ exempt: [{ method: 'GET', path: 'x', rules: ['auth'], reason: 'r' }] }, 'path must be'],
    [{ exempts: [] }, 'unknown policy key "exempts"'],
  ])('refuses a bad policy %j', (policy, message) => {
    expect(() => audit(faulty(), policy as never)).toThrow(TypeError)
    expect(() => audit(faulty(), policy as never)).toThrow(message)
  })

  it('refuses something that is not an app', () => {
    expect(() => audit(new Hono())).toThrow(/audit: expected the app openapi\(\) returns/)
    expect(() => audit(undefined)).toThrow(TypeError)
  })
})

describe('formats', () => {
  // Audited in each test, not while the file is collected: Stryker counts what runs outside a
  // test as a static mutant's code and runs every test of the area for each such mutant.
  let findings: AuditFinding[] = []
  beforeEach(() => {
    findings = audit(base().get('/a|b', (c) => c.json({ ok: true }), { openapi: {} }))
  })

  it('table, markdown and json name each finding', () => {
    expect(formatFindings(findings)).toMatch(/^SEVERITY\s+METHOD\s+PATH\s+RULE\s+MESSAGE\n/)
    expect(formatFindings(findings)).toContain('2 error(s), 0 warning(s)')
    expect(formatFindings(findings, 'markdown')).toContain('| error | GET | `/a\\|b` | auth |')
    expect(JSON.parse(formatFindings(findings, 'json'))).toEqual(findings)
    expect(formatFindings([], 'table')).toBe('audit: no findings\n')
  })

  it('sarif is a SARIF 2.1.0 log with one result per finding and every rule described', () => {
    const log = JSON.parse(formatFindings(findings, 'sarif', 'src/app.ts'))
    expect(log.version).toBe('2.1.0')
    const run = log.runs[0]
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual([...AUDIT_RULES])
    expect(AUDIT_RULES).toHaveLength(11)
    expect(run.results).toHaveLength(findings.length)
    expect(run.results[0]).toMatchObject({
      ruleId: 'auth',
      level: 'error',
      locations: [{ physicalLocation: { artifactLocation: { uri: 'src/app.ts' } } }],
    })
  })
})

describe('the example app', () => {
  let app: Awaited<ReturnType<typeof createApp>>
  beforeAll(async () => {
    app = await createApp({})
  })
  afterAll(async () => {
    await app?.close()
  })

  it("passes every rule at 'error' with its written exemptions", () => {
    expect(audit(app.api, auditPolicy)).toEqual([])
  })

  it('needs each exemption it writes down (none is stale)', () => {
    for (const exemption of auditPolicy.exempt ?? []) {
      const others = (auditPolicy.exempt ?? []).filter((e) => e !== exemption)
      const findings = audit(app.api, { ...auditPolicy, exempt: others })
      expect(
        findings.map((f) => `${f.method} ${f.path} ${f.rule}`),
        exemption.reason,
      ).toEqual(exemption.rules.map((rule) => `${exemption.method} ${exemption.path} ${rule}`))
    }
  })
})
