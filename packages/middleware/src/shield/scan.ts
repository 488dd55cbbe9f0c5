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

/** Longest name or path whose verdict is remembered, and how many of each kind are. */
const CACHED_LENGTH = 64
const CACHED_VALUES = 512
/**
 * Longest header value or user agent whose verdict is remembered. A browser's `User-Agent`,
 * `Accept` and `Referer` run to 100–200 characters and come again on every request it sends:
 * checked anew, each costs the engine about half a microsecond (a browser's headers added about
 * 11 µs to shield's own cost over @hono/node-server, 2026-12-07). Hashing one for the lookup
 * costs a fraction of that, and 512 of them are a quarter of a megabyte at most.
 */
const CACHED_HEADER_LENGTH = 256
/**
 * Longest body value whose verdict is remembered: a sentence or two. At most
 * {@link BODY_SLOTS} of them are kept, so memory stays bounded (half a megabyte at worst).
 */
const CACHED_BODY_LENGTH = 256
/** One body value in this many, among those not remembered, is remembered when checked. */
const ADMIT = 8

/**
 * The kinds of value whose verdicts are remembered: names (JSON keys, form fields, query
 * parameters), paths, header values and user agents, all checked without a parameter name, and
 * short body values (see {@link Verdicts.of}). They repeat across an API's requests: every object
 * of an array has the same keys, every request the same fields, a route its path, a JSON request
 * its `Content-Type`, a client its `User-Agent` and `Accept`; and in bodies, the values of enumerations, statuses, tags, currencies, country
 * codes, short names, and the same sentence in each object of an array or each retry of a post.
 */
export type RememberedKind = 'name' | 'path' | 'header' | 'user-agent' | 'body'

/**
 * The verdicts on short names, paths, header values and body values of one shield() instance. detect() is a
 * pure function of the value, its kind and the options, so a remembered verdict is the verdict;
 * each kind's map is emptied when full, so memory stays bounded whatever clients send.
 */
export class Verdicts {
  private readonly byKind: Record<
    Exclude<RememberedKind, 'body'>,
    Map<string, AttackCategory | null>
  > = {
    name: new Map(),
    path: new Map(),
    header: new Map(),
    'user-agent': new Map(),
  }
  private readonly bodies = new BodyVerdicts()
  /** The last object keys a JSON walk found clean (walk-json.ts): the next body's mostly has them. */
  readonly cleanKeys = new CleanKeys()

  /**
   * detect(value, kind, options, name). A body value's verdict is remembered under the value
   * alone when it cannot depend on `name` (`mayReadName`), under the value and the name otherwise.
   */
  of(
    value: string,
    kind: RememberedKind,
    options: DetectOptions,
    name?: string,
  ): AttackCategory | undefined {
    if (kind === 'body') {
      return value.length > CACHED_BODY_LENGTH
        ? detect(value, kind, options, name)
        : this.bodies.of(value, options, name)
    }
    const longest =
      kind === 'header' || kind === 'user-agent' ? CACHED_HEADER_LENGTH : CACHED_LENGTH
    if (value.length > longest) return detect(value, kind, options, name)
    const verdicts = this.byKind[kind]
    const known = verdicts.get(value)
    if (known !== undefined) return known ?? undefined
    const found = detect(value, kind, options, name)
    if (name !== undefined && mayReadName(value)) return found
    if (verdicts.size >= CACHED_VALUES) verdicts.clear()
    verdicts.set(value, found ?? null)
    return found
  }
}

/**
 * The last keys of a JSON object found clean as names, in order, whole (not cut by the budget),
 * and their length in all: the objects of an array mostly have the same keys, and so do the
 * bodies a route receives, and a name's verdict cannot change (detect() is a pure function of
 * it), so a repeat only spends the budget. `keys` is `undefined` before the first.
 */
export class CleanKeys {
  keys: readonly string[] | undefined = undefined
  length = 0
}

/** Slots of {@link BodyVerdicts} (a power of two). */
const BODY_SLOTS = 1024

/**
 * The verdicts on short body values: a direct-mapped table, not a Map. Most body values never
 * come again (ids, times, prose), and a Map lookup hashes every character of each (about 90 ns
 * for a fresh 35-character string on this host, close to what detect() costs on one): here a
 * value's slot comes from its length and three of its characters, and a miss mostly ends at a
 * length or first-character difference. One unknown value in {@link ADMIT} takes its slot (the
 * one there before is forgotten), so a value that repeats gets in soon and the others mostly
 * cost no memory; at most {@link BODY_SLOTS} values are kept. A value is remembered with the
 * name it came under; found under another name only when its verdict cannot read the name
 * (`mayReadName`: a URL, which is remote file inclusion under `include`, can).
 */
class BodyVerdicts {
  private readonly values: (string | undefined)[] = new Array(BODY_SLOTS).fill(undefined)
  private readonly names: (string | undefined)[] = new Array(BODY_SLOTS).fill(undefined)
  /**
   * Whether the slot's verdict holds under any name (`!mayReadName(value)`), `undefined` until
   * the value comes under another name: asked then, not when the value is remembered, as most
   * remembered values never come again (a regular expression over the whole value, each time).
   */
  private readonly anyName: (boolean | undefined)[] = new Array(BODY_SLOTS).fill(undefined)
  private readonly verdicts: (AttackCategory | null)[] = new Array(BODY_SLOTS).fill(null)
  /** Unknown values seen, for {@link ADMIT}. */
  private unknown = 0

  of(value: string, options: DetectOptions, name: string | undefined): AttackCategory | undefined {
    const slot = slotOf(value)
    if (
      this.values[slot] === value &&
      (this.names[slot] === name || this.holdsUnderAnyName(slot))
    ) {
      return this.verdicts[slot] ?? undefined
    }
    const found = detect(value, 'body', options, name)
    if (++this.unknown % ADMIT === 0) {
      this.values[slot] = value
      this.names[slot] = name
      this.anyName[slot] = undefined
      this.verdicts[slot] = found ?? null
    }
    return found
  }

  private holdsUnderAnyName(slot: number): boolean {
    let any = this.anyName[slot]
    if (any === undefined) {
      any = !mayReadName(this.values[slot] as string)
      this.anyName[slot] = any
    }
    return any
  }
}

/** A slot for a non-empty value: its length and its first, middle and last characters. */
function slotOf(value: string): number {
  const n = value.length
  const mixed =
    Math.imul(n, 0x9e3779b1) ^
    Math.imul(value.charCodeAt(0), 0x85ebca6b) ^
    Math.imul(value.charCodeAt(n >> 1), 0xc2b2ae35) ^
    Math.imul(value.charCodeAt(n - 1), 0x27d4eb2f)
  return (mixed ^ (mixed >>> 15)) & (BODY_SLOTS - 1)
}

/** Whether the verdict on a value of `kind` checked under `name` may be remembered ({@link Verdicts.of}). */
const remembered = (kind: InputKind, name: string | undefined): kind is RememberedKind =>
  kind === 'body' ||
  (name === undefined &&
    (kind === 'name' || kind === 'path' || kind === 'header' || kind === 'user-agent'))

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
  /** Notes for the decision's `cause` ({@link note}), `undefined` until the first. */
  notes: string[] | undefined
  /** The request's `Content-Type`, as the header walk found it (`scanRequestParts`). */
  contentType: string | undefined
  /** The request's `Content-Encoding`, as the header walk found it. */
  contentEncoding: string | undefined
  /**
   * Why the body could not be inspected whole, beyond {@link capped}: decoded no further than
   * the cap (`over-cap`), or in a content coding not decoded here (`coding`).
   */
  uninspected: 'over-cap' | 'coding' | undefined

  constructor(
    readonly options: DetectOptions,
    readonly maxInspect: number,
    readonly verdicts?: Verdicts,
  ) {
    this.budget = maxInspect
  }

  /** Adds a note for the decision's `cause`: a body over the cap, a body read other than declared. */
  note(text: string): void {
    if (this.notes === undefined) this.notes = [text]
    else this.notes.push(text)
  }

  /** Checks a value outside the body (`name`: the parameter it came under); true when it fired. */
  check(value: string, kind: InputKind, location: string | (() => string), name?: string): boolean {
    const category = this.verdict(value, kind, name)
    if (category === undefined) return false
    return this.fired(category, typeof location === 'string' ? location : location())
  }

  /**
   * What {@link check} asks the engine (or the remembered verdicts), without recording a hit: for
   * a caller that builds the location only when something fires, then calls {@link fired}.
   */
  verdict(value: string, kind: InputKind, name?: string): AttackCategory | undefined {
    if (value === '') return undefined
    return this.verdicts !== undefined && remembered(kind, name)
      ? this.verdicts.of(value, kind, this.options, name)
      : detect(value, kind, this.options, name)
  }

  /** Records the hit; true, for a caller to return. */
  fired(category: AttackCategory, location: string): true {
    this.hit = { category, location }
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
