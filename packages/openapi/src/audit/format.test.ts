// What `palisade audit` prints: the table, markdown and JSON a user reads, and the SARIF log
// GitHub code scanning reads (its rule help texts are what the code-scanning page shows, so they
// are compared whole).
import { describe, expect, it } from 'vitest'
import { AUDIT_RULES, type AuditFinding } from './audit'
import { formatFindings } from './format'

const findings: AuditFinding[] = [
  {
    method: 'POST',
    path: '/users/{id}',
    route: '/users/:id',
    rule: 'auth',
    severity: 'error',
    message: 'no security requirement',
  },
  {
    method: 'GET',
    path: '/a',
    route: '/a',
    rule: 'rate-limit',
    severity: 'warn',
    message: 'rateLimit does not run',
  },
]

describe('table', () => {
  it('aligns every column but the last, and counts errors and warnings', () => {
    expect(formatFindings(findings)).toBe(
      [
        'SEVERITY  METHOD  PATH         RULE        MESSAGE',
        'error     POST    /users/{id}  auth        no security requirement',
        'warn      GET     /a           rate-limit  rateLimit does not run',
        '1 error(s), 1 warning(s)',
        '',
      ].join('\n'),
    )
    expect(formatFindings(findings, 'table')).toBe(formatFindings(findings))
  })

  it('widens a column to its longest cell, and leaves a long message unpadded', () => {
    const long: AuditFinding = {
      method: 'OPTIONS',
      path: '/x',
      route: '/x',
      rule: 'webhook-signature',
      severity: 'error',
      message: 'm',
    }
    expect(formatFindings([long, findings[1] as AuditFinding])).toBe(
      [
        'SEVERITY  METHOD   PATH  RULE               MESSAGE',
        'error     OPTIONS  /x    webhook-signature  m',
        'warn      GET      /a    rate-limit         rateLimit does not run',
        '1 error(s), 1 warning(s)',
        '',
      ].join('\n'),
    )
  })

  it('says so when there is nothing to report', () => {
    expect(formatFindings([])).toBe('audit: no findings\n')
  })
})

describe('markdown', () => {
  it('is a table with the path as code, then the counts', () => {
    expect(formatFindings(findings, 'markdown')).toBe(
      [
        '| Severity | Method | Path | Rule | Message |',
        '| --- | --- | --- | --- | --- |',
        '| error | POST | `/users/{id}` | auth | no security requirement |',
        '| warn | GET | `/a` | rate-limit | rateLimit does not run |',
        '',
        '1 error(s), 1 warning(s)',
        '',
      ].join('\n'),
    )
  })

  it('escapes every pipe and folds every line break of a path or message into a space', () => {
    const finding: AuditFinding = {
      method: 'GET',
      path: '/a|b|c',
      route: '/a|b|c',
      rule: 'auth',
      severity: 'warn',
      message: 'one\ntwo\r\nthree | four | five',
    }
    expect(formatFindings([finding], 'markdown')).toBe(
      [
        '| Severity | Method | Path | Rule | Message |',
        '| --- | --- | --- | --- | --- |',
        '| warn | GET | `/a\\|b\\|c` | auth | one two three \\| four \\| five |',
        '',
        '0 error(s), 1 warning(s)',
        '',
      ].join('\n'),
    )
  })

  it('says so when there is nothing to report', () => {
    expect(formatFindings([], 'markdown')).toBe('**Audit:** no findings.\n')
  })
})

describe('json', () => {
  it('is the findings array, indented by two spaces, with a final newline', () => {
    expect(formatFindings(findings.slice(0, 1), 'json')).toBe(
      [
        '[',
        '  {',
        '    "method": "POST",',
        '    "path": "/users/{id}",',
        '    "route": "/users/:id",',
        '    "rule": "auth",',
        '    "severity": "error",',
        '    "message": "no security requirement"',
        '  }',
        ']',
        '',
      ].join('\n'),
    )
    expect(formatFindings([], 'json')).toBe('[]\n')
  })
})

describe('sarif', () => {
  const rules = [
    ['undocumented', 'Every route Hono serves is described by the OpenAPI document.'],
    [
      'auth',
      'Every operation runs authentication (csrf is not), enforces what it declares, or is declared public (`security: []`).',
    ],
    [
      'webhook-signature',
      "Every webhook receiver (`openapi.webhookReceiver`, or a `webhook`/`webhooks` path segment) verifies the sender's signature with webhook() or httpSignature().",
    ],
    ['csrf', 'Unsafe operations that a cookie can authenticate run csrf.'],
    ['rate-limit', 'Every operation is rate limited.'],
    ['body-limit', 'Every operation that takes a body runs bodyLimit.'],
    ['validation', 'Every request part the route reads is declared and validated.'],
    ['responses', 'Every operation declares a success response schema.'],
    ['headers', 'securityHeaders runs on every route.'],
    [
      'shield',
      'Every operation that takes a free-text body runs shield (off unless the policy turns it on).',
    ],
    [
      'sunset',
      'No operation is past its deprecation sunset (error); one within 30 days of it is a warning.',
    ],
  ] as const

  it('is a SARIF 2.1.0 log: the tool, each rule with its help text, one result per finding', () => {
    expect(rules.map(([id]) => id)).toEqual([...AUDIT_RULES])
    const text = formatFindings(findings, 'sarif', 'src/app.ts')
    expect(JSON.parse(text)).toEqual({
      $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
      version: '2.1.0',
      runs: [
        {
          tool: {
            driver: {
              name: 'palisade audit',
              informationUri: 'https://www.npmjs.com/package/@palisade/openapi',
              rules: rules.map(([id, help]) => ({ id, shortDescription: { text: help } })),
            },
          },
          results: [
            {
              ruleId: 'auth',
              ruleIndex: 1,
              level: 'error',
              message: { text: 'POST /users/{id}: no security requirement' },
              locations: [
                {
                  physicalLocation: { artifactLocation: { uri: 'src/app.ts' } },
                  logicalLocations: [{ name: 'POST /users/{id}', kind: 'function' }],
                },
              ],
              partialFingerprints: { operation: 'auth:POST /users/{id}' },
            },
            {
              ruleId: 'rate-limit',
              ruleIndex: 4,
              // SARIF's levels are none, note, warning and error: `warn` is written `warning`.
              level: 'warning',
              message: { text: 'GET /a: rateLimit does not run' },
              locations: [
                {
                  physicalLocation: { artifactLocation: { uri: 'src/app.ts' } },
                  logicalLocations: [{ name: 'GET /a', kind: 'function' }],
                },
              ],
              partialFingerprints: { operation: 'rate-limit:GET /a' },
            },
          ],
        },
      ],
    })
    // Indented by two spaces, ending with a newline, as the other formats.
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`)
  })

  it('points at openapi.json unless told which file, and lists every rule with no finding', () => {
    const log = JSON.parse(formatFindings(findings.slice(1), 'sarif'))
    expect(log.runs[0].results[0].locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: 'openapi.json' },
    })
    const empty = JSON.parse(formatFindings([], 'sarif'))
    expect(empty.runs[0].results).toEqual([])
    expect(empty.runs[0].tool.driver.rules).toHaveLength(AUDIT_RULES.length)
  })
})

it('refuses an unknown format by name', () => {
  expect(() => formatFindings(findings, 'html' as never)).toThrow(
    new TypeError('formatFindings: unknown format "html"'),
  )
})
