import { type AttackCategory, type DetectOptions, detect, type InputKind } from './detect'

/** What one request's inspection found: the category and the location, never the value. */
export interface Hit {
  readonly category: AttackCategory
  readonly location: string
}

/** Longest field or parameter name whose verdict is remembered, and how many are remembered. */
const CACHED_NAME = 64
const CACHED_NAMES = 512

/**
 * The verdicts on names (JSON keys, form fields, query parameters) of one shield() instance. An
 * API's names repeat: every object of an array has the same keys, every request the same fields.
 * detect() is a pure function of the value, its kind and the options, so a remembered verdict is
 * the verdict; the map is emptied when full, so memory stays bounded whatever clients send.
 */
export class NameVerdicts {
  private readonly verdicts = new Map<string, AttackCategory | null>()

  of(name: string, options: DetectOptions): AttackCategory | undefined {
    if (name.length > CACHED_NAME) return detect(name, 'name', options)
    const known = this.verdicts.get(name)
    if (known !== undefined) return known ?? undefined
    const found = detect(name, 'name', options)
    if (this.verdicts.size >= CACHED_NAMES) this.verdicts.clear()
    this.verdicts.set(name, found ?? null)
    return found
  }
}

/** Longest name kept in a location (a field or parameter name is the client's text). */
const MAX_NAME = 64

/** A name as it may appear in a location: cut to {@link MAX_NAME} characters, no control characters. */
export function safeName(name: string): string {
  const cut = name.length > MAX_NAME ? `${name.slice(0, MAX_NAME)}…` : name
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  return cut.replace(/[\u0000-\u001f\u007f]/g, '?')
}

/**
 * One request's inspection: runs the engine over each value, stops at the first hit, and keeps
 * the body's budget (`maxInspectBytes`, counted in characters) and what the decision should say
 * about what was and was not read.
 */
export class Scan {
  hit: Hit | undefined
  /** Body characters still to inspect. */
  budget: number
  /** Body characters seen in all, inspected or not (for the note on a body over the cap). */
  bodyChars = 0
  /** Notes for the decision's `cause`: a body over the cap, a body read other than declared. */
  readonly notes: string[] = []

  constructor(
    readonly options: DetectOptions,
    readonly maxInspect: number,
    readonly names?: NameVerdicts,
  ) {
    this.budget = maxInspect
  }

  /** Checks a value outside the body (`name`: the parameter it came under); true when it fired. */
  check(value: string, kind: InputKind, location: string | (() => string), name?: string): boolean {
    if (value === '') return false
    const category =
      kind === 'name' && this.names !== undefined
        ? this.names.of(value, this.options)
        : detect(value, kind, this.options, name)
    if (category === undefined) return false
    this.hit = { category, location: typeof location === 'string' ? location : location() }
    return true
  }

  /**
   * Checks a body value within the budget; true when inspection should stop (a hit, or the
   * budget spent: the rest of the body is not read).
   */
  body(value: string, kind: InputKind, location: () => string, name?: string): boolean {
    if (value === '') return false
    if (this.budget <= 0) return true
    const part = value.length > this.budget ? value.slice(0, this.budget) : value
    this.budget -= part.length
    return this.check(part, kind, location, name) || this.budget <= 0
  }

  /** Whether the budget ran out before the body did. */
  get capped(): boolean {
    return this.budget <= 0 && this.bodyChars > this.maxInspect
  }
}
