import {
  type AttackCategory,
  type DetectOptions,
  detect,
  type InputKind,
  mayReadName,
} from './detect'

/** What one request's inspection found: the category and the location, never the value. */
export interface Hit {
  readonly category: AttackCategory
  readonly location: string
}

/** Longest value whose verdict is remembered, and how many are remembered per kind. */
const CACHED_LENGTH = 64
const CACHED_VALUES = 512
/** One body value in this many, among those not remembered, is remembered when checked. */
const ADMIT = 8

/**
 * The kinds of value whose verdicts are remembered: names (JSON keys, form fields, query
 * parameters), paths and header values, all checked without a parameter name, and short body
 * values whose verdict cannot depend on the name they came under (see {@link Verdicts.of}). They
 * repeat across an API's requests: every object of an array has the same keys, every request the
 * same fields, a route its path, a JSON request its `Content-Type`; and in bodies, the values of
 * enumerations, statuses, tags, currencies, country codes, short names.
 */
export type RememberedKind = 'name' | 'path' | 'header' | 'body'

/**
 * The verdicts on short names, paths, header values and body values of one shield() instance. detect() is a
 * pure function of the value, its kind and the options, so a remembered verdict is the verdict;
 * each kind's map is emptied when full, so memory stays bounded whatever clients send.
 */
export class Verdicts {
  private readonly byKind: Record<RememberedKind, Map<string, AttackCategory | null>> = {
    name: new Map(),
    path: new Map(),
    header: new Map(),
    body: new Map(),
  }
  /** Body values looked up and not known, for {@link ADMIT}. */
  private unknownBodies = 0

  /**
   * detect(value, kind, options, name). A body value's verdict is remembered only when it cannot
   * depend on `name` (`mayReadName`), so a remembered one holds under any name.
   */
  of(
    value: string,
    kind: RememberedKind,
    options: DetectOptions,
    name?: string,
  ): AttackCategory | undefined {
    if (value.length > CACHED_LENGTH) return detect(value, kind, options, name)
    const verdicts = this.byKind[kind]
    const known = verdicts.get(value)
    if (known !== undefined) return known ?? undefined
    const found = detect(value, kind, options, name)
    if (kind === 'body') {
      // Most body values never come again (ids, times, prose): one unknown value in ADMIT is
      // remembered, so a value that repeats gets in soon and the others mostly cost no memory.
      if (++this.unknownBodies % ADMIT !== 0) return found
      // Remembered under the value alone: not when the verdict may have read the name.
      if (mayReadName(value)) return found
    } else if (name !== undefined && mayReadName(value)) return found
    if (verdicts.size >= CACHED_VALUES) verdicts.clear()
    verdicts.set(value, found ?? null)
    return found
  }
}

/** Whether the verdict on a value of `kind` checked under `name` may be remembered ({@link Verdicts.of}). */
const remembered = (kind: InputKind, name: string | undefined): kind is RememberedKind =>
  kind === 'body' ||
  (name === undefined && (kind === 'name' || kind === 'path' || kind === 'header'))

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
    readonly verdicts?: Verdicts,
  ) {
    this.budget = maxInspect
  }

  /** Checks a value outside the body (`name`: the parameter it came under); true when it fired. */
  check(value: string, kind: InputKind, location: string | (() => string), name?: string): boolean {
    if (value === '') return false
    const category =
      this.verdicts !== undefined && remembered(kind, name)
        ? this.verdicts.of(value, kind, this.options, name)
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
