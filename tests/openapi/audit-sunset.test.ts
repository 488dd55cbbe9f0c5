// The audit's `sunset` rule on a fake clock: nothing until 30 days before a deprecated
// operation's sunset, a warning from then, an error from the sunset's second on; the policy's
// 'warn' and 'off' and an exemption apply to it as to every rule; the formats name it.
import { bodyLimit, rateLimit, securityHeaders } from '@palisade/middleware'
import { openapi } from '@palisade/openapi'
import { type AuditFinding, audit, formatFindings } from '@palisade/openapi/audit'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'

const SUNSET = Date.parse('2027-12-01T00:00:00Z')
const DAY = 86_400_000
const ok = { 200: { description: 'OK', schema: z.object({ ok: z.boolean() }) } }

function app() {
  const api = openapi(new Hono(), { info: { title: 'Audit', version: '1.0.0' } })
  api.use('*', securityHeaders(), rateLimit({ max: 100 }), bodyLimit({ max: 1024 }))
  api.get('/v1/pets', (c) => c.json({ ok: true }), {
    openapi: {
      security: [],
      responses: ok,
      deprecated: { since: new Date('2026-06-01T00:00:00Z'), sunset: new Date(SUNSET) },
    },
  })
  // Deprecated without a sunset: nothing to report at any time.
  api.get('/v1/cats', (c) => c.json({ ok: true }), {
    openapi: { security: [], responses: ok, deprecated: true },
  })
  api.get('/v2/pets', (c) => c.json({ ok: true }), { openapi: { security: [], responses: ok } })
  return api
}

const at = (ms: number, policy = {}) =>
  audit(app(), policy, { now: () => ms }).map(
    (f: AuditFinding) => `${f.method} ${f.path} ${f.rule} ${f.severity}`,
  )

describe('audit rule sunset', () => {
  it('finds nothing more than 30 days before the sunset', () => {
    expect(at(SUNSET - 30 * DAY - 1)).toEqual([])
    expect(at(SUNSET - 365 * DAY)).toEqual([])
  })

  it('warns from 30 days before the sunset to the millisecond before it', () => {
    expect(at(SUNSET - 30 * DAY)).toEqual(['GET /v1/pets sunset warn'])
    expect(at(SUNSET - 1)).toEqual(['GET /v1/pets sunset warn'])
    const [finding] = audit(app(), {}, { now: () => SUNSET - 30 * DAY })
    expect(finding?.message).toMatch(/sunset \(2027-12-01T00:00:00.000Z\) is 30 day\(s\) away/)
  })

  it('fails from the sunset on', () => {
    expect(at(SUNSET)).toEqual(['GET /v1/pets sunset error'])
    expect(at(SUNSET + 400 * DAY)).toEqual(['GET /v1/pets sunset error'])
    const [finding] = audit(app(), {}, { now: () => SUNSET })
    expect(finding?.message).toMatch(/^past its sunset \(2027-12-01T00:00:00.000Z\)/)
  })

  it("is a warning only under 'warn', nothing under 'off' or an exemption", () => {
    expect(at(SUNSET, { rules: { sunset: 'warn' } })).toEqual(['GET /v1/pets sunset warn'])
    expect(at(SUNSET, { rules: { sunset: 'off' } })).toEqual([])
    const exempt = [
      { method: 'GET', path: '/v1/pets', rules: ['sunset'], reason: 'removed in 4.0' },
    ]
    expect(at(SUNSET, { exempt })).toEqual([])
  })

  it('names the rule in SARIF and the table', () => {
    const findings = audit(app(), {}, { now: () => SUNSET })
    const sarif = JSON.parse(formatFindings(findings, 'sarif', 'app.ts'))
    const rules = sarif.runs[0].tool.driver.rules as {
      id: string
      shortDescription: { text: string }
    }[]
    expect(rules.find((r) => r.id === 'sunset')?.shortDescription.text).toMatch(
      /past its deprecation sunset/,
    )
    expect(sarif.runs[0].results[0]).toMatchObject({ ruleId: 'sunset', level: 'error' })
    expect(formatFindings(findings, 'table')).toContain('sunset')
  })

  it('refuses options it does not know and a clock that is not a function', () => {
    expect(() => audit(app(), {}, { later: 1 } as never)).toThrow(/options must be \{ now/)
    expect(() => audit(app(), {}, { now: 5 } as never)).toThrow(/options.now must be a function/)
  })
})
