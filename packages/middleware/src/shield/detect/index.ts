// PLACEHOLDER, replaced by shield-detect's engine (issue 38): the interface is the real one, the
// checks are a handful of naive ones, enough for the middleware's own tests. Do not build on them.

/** The attack categories shield() detects. */
export type AttackCategory =
  | 'sqli'
  | 'xss'
  | 'lfi'
  | 'rfi'
  | 'rce'
  | 'php'
  | 'java'
  | 'ssti'
  | 'prototype-pollution'
  | 'scanner'

/** Every category, in a fixed order. */
export const ATTACK_CATEGORIES: readonly AttackCategory[] = [
  'sqli',
  'xss',
  'lfi',
  'rfi',
  'rce',
  'php',
  'java',
  'ssti',
  'prototype-pollution',
  'scanner',
]

/** Where a value came from; `name` is a parameter, field or object-key name. */
export type InputKind = 'path' | 'query' | 'header' | 'user-agent' | 'cookie' | 'body' | 'name'

/** What the engine checks for. */
export interface DetectOptions {
  rules: ReadonlySet<AttackCategory>
  paranoia: 1 | 2
}

function decode(value: string): string {
  let out = value
  for (let i = 0; i < 3; i++) {
    try {
      const next = decodeURIComponent(out)
      if (next === out) break
      out = next
    } catch {
      break
    }
  }
  return out.toLowerCase()
}

/** The first category `value` looks like an attack of, or `undefined`. */
export function detect(
  value: string,
  kind: InputKind,
  options: DetectOptions,
): AttackCategory | undefined {
  const v = decode(value)
  const on = options.rules
  if (on.has('prototype-pollution') && kind === 'name' && v === '__proto__')
    return 'prototype-pollution'
  if (on.has('sqli') && /'\s*or\s+1\s*=\s*1/.test(v)) return 'sqli'
  if (on.has('xss') && v.includes('<script')) return 'xss'
  if (on.has('lfi') && v.includes('../') && v.includes('etc/passwd')) return 'lfi'
  if (on.has('java') && v.includes('${jndi:')) return 'java'
  if (on.has('scanner') && kind === 'path' && (v === '/.env' || v.endsWith('/.env')))
    return 'scanner'
  if (on.has('scanner') && kind === 'user-agent' && v.includes('sqlmap')) return 'scanner'
  return undefined
}
