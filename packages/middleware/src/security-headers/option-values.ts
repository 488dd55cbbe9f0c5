/**
 * Checks of securityHeaders' option values: booleans, header strings (no CR/LF), one token from a
 * list, and Referrer-Policy lists. Each error message starts with `securityHeaders:`.
 */
import { HEADER_VALUE } from '../internal/http/header-syntax'
import { assertOneOf, formatValue, optionError } from '../internal/options'

export const NAME = 'securityHeaders'

/**
 * A `Referrer-Policy` token (RFC-listed values only).
 *
 * @example
 * const referrerPolicy: ReferrerPolicyValue[] = ['no-referrer', 'strict-origin-when-cross-origin']
 * app.use(securityHeaders({ referrerPolicy }))
 */
export type ReferrerPolicyValue =
  | 'no-referrer'
  | 'no-referrer-when-downgrade'
  | 'origin'
  | 'origin-when-cross-origin'
  | 'same-origin'
  | 'strict-origin'
  | 'strict-origin-when-cross-origin'
  | 'unsafe-url'

const REFERRER: readonly ReferrerPolicyValue[] = [
  'no-referrer',
  'no-referrer-when-downgrade',
  'origin',
  'origin-when-cross-origin',
  'same-origin',
  'strict-origin',
  'strict-origin-when-cross-origin',
  'unsafe-url',
]

export function flag(name: string, value: unknown): boolean {
  if (value === undefined) return false
  if (typeof value !== 'boolean') {
    throw optionError(NAME, `"${name}" must be a boolean, got ${formatValue(value)}`)
  }
  return value
}

export function headerValue(
  name: string,
  value: unknown,
  fallback: string | false,
): string | false {
  if (value === undefined) return fallback
  if (value === false) return false
  if (typeof value !== 'string' || value.trim() === '') {
    throw optionError(
      NAME,
      `"${name}" must be a non-empty string or false, got ${formatValue(value)}`,
    )
  }
  if (!HEADER_VALUE.test(value)) {
    throw optionError(NAME, `"${name}" must not contain control characters such as CR or LF`)
  }
  return value
}

export function oneOrOff<T extends string>(
  name: string,
  value: unknown,
  allowed: readonly T[],
): T | false {
  if (value === undefined || value === false) return false
  return assertOneOf(NAME, name, value, allowed)
}

export function referrerPolicy(value: unknown): string | false {
  if (value === undefined || value === false) return false
  // The header may list fallbacks ("no-referrer, strict-origin-when-cross-origin").
  const parts = typeof value === 'string' ? value.split(',').map((p) => p.trim()) : value
  if (
    !Array.isArray(parts) ||
    parts.length === 0 ||
    parts.some((p) => !REFERRER.includes(p as ReferrerPolicyValue))
  ) {
    throw optionError(
      NAME,
      `"referrerPolicy" must be one of ${REFERRER.map((r) => `'${r}'`).join(', ')}, got ${formatValue(value)}`,
    )
  }
  return parts.join(', ')
}
