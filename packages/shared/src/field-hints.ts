/**
 * The field-hints protocol: which request-body fields of a route hold no free text. A route
 * validator (`@palisade/openapi`'s request validator) carries the hints of its route under a
 * registered symbol; a content guard (`shield()`) finds the route's handlers with Hono's
 * `matchedRoutes(c)` and reads them there, so neither package imports the other. Both inline this
 * file at build time; the symbol being registered (`Symbol.for`) makes their two copies one key.
 *
 * A pointer is a JSON pointer (RFC 6901) into the body (a JSON body, or a form's fields as
 * `/name`), where a segment `*` stands for any array index or any property name (a schema's
 * `items` and `additionalProperties`). Pointers end at a string, number or boolean field; a hint
 * on an object or array covers everything below it.
 */

/**
 * The key under which a route's validator carries its {@link FieldHints}.
 *
 * @example
 * const hints: unknown = Reflect.get(validator, FIELD_HINTS)
 */
export const FIELD_HINTS: unique symbol = Symbol.for('palisade.fieldHints')

/**
 * What a route tells a content guard about its body.
 *
 * @example
 * const hints: FieldHints = { skip: ['/age', '/tags/*', '/id'] }
 */
export interface FieldHints {
  /**
   * Fields that are validated, not free text (number, integer, boolean, enum, const, strings of
   * format uuid, date, date-time or email), or marked `x-palisade-shield: false`.
   */
  readonly skip: readonly string[]
}

/**
 * Attaches `hints` to a route's validator (a function made for that route alone) and returns it.
 *
 * @example
 * withFieldHints(validator, { skip: ['/age'] })
 */
export function withFieldHints<F extends object>(carrier: F, hints: FieldHints): F {
  Object.defineProperty(carrier, FIELD_HINTS, { value: Object.freeze(hints), enumerable: false })
  return carrier
}

/**
 * The hints `carrier` carries, or `undefined`: anything that is not a {@link FieldHints} with a
 * string array under `skip` is ignored.
 *
 * @example
 * fieldHintsOf(validator)?.skip // ['/age']
 */
export function fieldHintsOf(carrier: unknown): FieldHints | undefined {
  if (typeof carrier !== 'function' && (typeof carrier !== 'object' || carrier === null)) {
    return undefined
  }
  const hints = (carrier as { [FIELD_HINTS]?: unknown })[FIELD_HINTS]
  if (typeof hints !== 'object' || hints === null) return undefined
  const skip = (hints as { skip?: unknown }).skip
  if (!Array.isArray(skip) || !skip.every((p) => typeof p === 'string')) return undefined
  return hints as FieldHints
}
