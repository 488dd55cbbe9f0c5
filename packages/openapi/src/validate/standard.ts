import { isRecord } from '../schema/common'

/**
 * The result of a Standard Schema v1 `validate` call: the parsed value, or the issues found.
 * (The interface is written out here so the package depends on no schema library.)
 */
export type StandardResult<Output = unknown> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly StandardIssue[] }

/** One Standard Schema issue: a message and where in the value it applies. */
export interface StandardIssue {
  readonly message: string
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined
}

/**
 * A Standard Schema v1 (zod 3.24+, zod 4, valibot, arktype, effect, …): what validation and the
 * handler types read. Only the members the package uses are listed.
 *
 * @example
 * const schema: StandardSchemaV1<string, number> = z.coerce.number()
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>
    readonly types?: { readonly input: Input; readonly output: Output } | undefined
  }
}

/** Validates one value; the result may be a promise only when the schema is asynchronous. */
export type ValidateFn = (value: unknown) => StandardResult | Promise<StandardResult>

interface SafeParser {
  safeParseAsync: (value: unknown) => Promise<{ success: boolean; data?: unknown; error?: unknown }>
}

/** The validate function of a Standard Schema, or of an older zod without `~standard`. */
export function validatorOf(schema: unknown): ValidateFn | undefined {
  if (!isRecord(schema) && typeof schema !== 'function') return undefined
  const standard = (schema as { '~standard'?: unknown })['~standard']
  if (isRecord(standard) && typeof standard.validate === 'function') {
    const validate = standard.validate as ValidateFn
    return (value) => validate(value)
  }
  const parser = schema as Partial<SafeParser>
  if (typeof parser.safeParseAsync === 'function') {
    return async (value) => {
      const r = await (parser as SafeParser).safeParseAsync(value)
      if (r.success) return { value: r.data }
      const issues = (r.error as { issues?: StandardIssue[] } | undefined)?.issues ?? []
      return { issues: issues.length > 0 ? issues : [{ message: 'Invalid value' }] }
    }
  }
  return undefined
}

/** RFC 6901 JSON pointer for a Standard Schema issue path (`''` for the whole value). */
export function toPointer(path: StandardIssue['path']): string {
  if (!path || path.length === 0) return ''
  let out = ''
  for (const segment of path) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment
    out += `/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`
  }
  return out
}
