import { AUDIT_RULES, type AuditFinding } from './audit'

/** Output formats of {@link formatFindings}. */
export type AuditFormat = 'table' | 'json' | 'sarif' | 'markdown'

const RULE_HELP: Record<string, string> = {
  undocumented: 'Every route Hono serves is described by the OpenAPI document.',
  auth: 'Every operation runs authentication (csrf is not), enforces what it declares, or is declared public (`security: []`).',
  'webhook-signature':
    "Every webhook receiver (`openapi.webhookReceiver`, or a `webhook`/`webhooks` path segment) verifies the sender's signature with webhook() or httpSignature().",
  csrf: 'Unsafe operations that a cookie can authenticate run csrf.',
  'rate-limit': 'Every operation is rate limited.',
  'body-limit': 'Every operation that takes a body runs bodyLimit.',
  validation: 'Every request part the route reads is declared and validated.',
  responses: 'Every operation declares a success response schema.',
  headers: 'securityHeaders runs on every route.',
  shield:
    'Every operation that takes a free-text body runs shield (off unless the policy turns it on).',
  sunset:
    'No operation is past its deprecation sunset (error); one within 30 days of it is a warning.',
}

function table(findings: readonly AuditFinding[]): string {
  if (findings.length === 0) return 'audit: no findings\n'
  const rows = [
    ['SEVERITY', 'METHOD', 'PATH', 'RULE', 'MESSAGE'],
    ...findings.map((f) => [f.severity, f.method, f.path, f.rule, f.message]),
  ]
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => (r[i] ?? '').length)))
  const lines = rows.map((r) =>
    r.map((cell, i) => (i < 4 ? cell.padEnd(widths[i] ?? 0) : cell)).join('  '),
  )
  return `${lines.join('\n')}\n${summary(findings)}\n`
}

function summary(findings: readonly AuditFinding[]): string {
  const errors = findings.filter((f) => f.severity === 'error').length
  return `${errors} error(s), ${findings.length - errors} warning(s)`
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')

function markdown(findings: readonly AuditFinding[]): string {
  if (findings.length === 0) return '**Audit:** no findings.\n'
  const lines = [
    '| Severity | Method | Path | Rule | Message |',
    '| --- | --- | --- | --- | --- |',
    ...findings.map(
      (f) =>
        `| ${f.severity} | ${f.method} | \`${cell(f.path)}\` | ${f.rule} | ${cell(f.message)} |`,
    ),
  ]
  return `${lines.join('\n')}\n\n${summary(findings)}\n`
}

/**
 * SARIF 2.1.0, what GitHub code scanning reads. An operation has no source line, so each result
 * points at `artifact` (the module given to `palisade audit`) and names the operation in its
 * message and logical location.
 */
function sarif(findings: readonly AuditFinding[], artifact: string): string {
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'palisade audit',
            informationUri: 'https://www.npmjs.com/package/@palisade/openapi',
            rules: AUDIT_RULES.map((id) => ({
              id,
              shortDescription: { text: RULE_HELP[id] ?? id },
            })),
          },
        },
        results: findings.map((f) => ({
          ruleId: f.rule,
          ruleIndex: AUDIT_RULES.indexOf(f.rule),
          level: f.severity === 'error' ? 'error' : 'warning',
          message: { text: `${f.method} ${f.path}: ${f.message}` },
          locations: [
            {
              physicalLocation: { artifactLocation: { uri: artifact } },
              logicalLocations: [{ name: `${f.method} ${f.path}`, kind: 'function' }],
            },
          ],
          partialFingerprints: { operation: `${f.rule}:${f.method} ${f.path}` },
        })),
      },
    ],
  }
  return `${JSON.stringify(log, null, 2)}\n`
}

/**
 * Renders audit findings: an aligned `table` (the default), `json` (the findings array),
 * `sarif` (2.1.0, for GitHub code scanning) or a `markdown` table (for a pull request comment).
 *
 * @param findings - what `audit()` returned
 * @param format - default `'table'`
 * @param artifact - the file SARIF results point at; default `'openapi.json'`
 * @example
 * ```ts
 * process.stdout.write(formatFindings(audit(api), 'markdown'))
 * ```
 */
export function formatFindings(
  findings: readonly AuditFinding[],
  format: AuditFormat = 'table',
  artifact = 'openapi.json',
): string {
  switch (format) {
    case 'table':
      return table(findings)
    case 'json':
      return `${JSON.stringify(findings, null, 2)}\n`
    case 'sarif':
      return sarif(findings, artifact)
    case 'markdown':
      return markdown(findings)
    default:
      throw new TypeError(`formatFindings: unknown format "${String(format)}"`)
  }
}
