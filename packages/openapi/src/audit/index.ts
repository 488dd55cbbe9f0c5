/**
 * @palisade/openapi/audit — a security and contract audit of every documented operation, from
 * what routes declare and what their middleware describe. Never imported by the root entry.
 */
export type {
  AuditExemption,
  AuditFinding,
  AuditOptions,
  AuditPolicy,
  AuditRule,
  AuditSeverity,
} from './audit'
export { AUDIT_RULES, audit, SUNSET_WARNING_DAYS } from './audit'
export type { AuditFormat } from './format'
export { formatFindings } from './format'
