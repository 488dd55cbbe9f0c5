/**
 * Option validation shared by every factory. Each helper throws a `TypeError` whose message starts
 * with the factory's name, so a misconfiguration is found when the app starts, never on a request.
 */

export function optionError(factory: string, message: string): TypeError {
  return new TypeError(`${factory}: ${message}`)
}

/** Rejects unknown option keys: catches typos such as `maxage` for `maxAge`. */
export function assertKnownKeys(
  factory: string,
  options: object | undefined,
  known: readonly string[],
): void {
  if (options === undefined) return
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw optionError(factory, 'options must be an object')
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw optionError(factory, `unknown option "${key}" (known: ${known.join(', ')})`)
    }
  }
}

export function assertPositiveInteger(factory: string, name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw optionError(factory, `"${name}" must be a positive integer, got ${formatValue(value)}`)
  }
  return value
}

export function assertNonNegativeInteger(factory: string, name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw optionError(
      factory,
      `"${name}" must be a non-negative integer, got ${formatValue(value)}`,
    )
  }
  return value
}

export function assertNonEmptyString(factory: string, name: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw optionError(factory, `"${name}" must be a non-empty string, got ${formatValue(value)}`)
  }
  return value
}

export function assertBoolean(factory: string, name: string, value: unknown): boolean {
  if (typeof value !== 'boolean') {
    throw optionError(factory, `"${name}" must be a boolean, got ${formatValue(value)}`)
  }
  return value
}

export function assertFunction<T extends (...args: never[]) => unknown>(
  factory: string,
  name: string,
  value: unknown,
): T {
  if (typeof value !== 'function') {
    throw optionError(factory, `"${name}" must be a function, got ${formatValue(value)}`)
  }
  return value as T
}

export function assertStringArray(
  factory: string,
  name: string,
  value: unknown,
  { allowEmpty = true }: { allowEmpty?: boolean } = {},
): string[] {
  // An index loop, not .some(): .some() skips the holes of a sparse array such as `[, 'a']`.
  const list = Array.isArray(value) ? (value as unknown[]) : null
  let valid = list !== null
  for (let i = 0; list && valid && i < list.length; i++) {
    const v = list[i]
    valid = typeof v === 'string' && v.length > 0
  }
  if (!list || !valid) {
    throw optionError(factory, `"${name}" must be an array of non-empty strings`)
  }
  if (!allowEmpty && list.length === 0) {
    throw optionError(factory, `"${name}" must not be empty`)
  }
  return value as string[]
}

export function assertOneOf<T extends string>(
  factory: string,
  name: string,
  value: unknown,
  allowed: readonly T[],
): T {
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    throw optionError(
      factory,
      `"${name}" must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${formatValue(value)}`,
    )
  }
  return value as T
}

/** A short, safe description of a bad value for an error message (never the whole value). */
export function formatValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return value.length > 40 ? 'a long string' : JSON.stringify(value)
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return typeof value
}
