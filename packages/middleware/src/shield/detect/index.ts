/**
 * The detection engine of `shield()`: one function that says whether a single input value (a
 * query value, a header, a JSON string, a field name…) carries an attack, and which kind.
 * Detectors are our own code; the OWASP Core Rule Set and libinjection gave the ideas (see
 * bench/README.md "shield corpus" for how they measure against CRS's regression tests).
 */
import { detectJava } from './java'
import { detectLfi } from './lfi'
import { mayNeedDecoding, normalize } from './normalize'
import { detectPhp } from './php'
import { CATEGORY_BIT, candidates, passes, type Shape, shapeOf } from './prefilter'
import { CONTROL, NON_ASCII, punctuation } from './prefilter-automaton'
import { detectPrototypePollution } from './prototype-pollution'
import { detectRce } from './rce'
import { detectRfi } from './rfi'
import { detectScanner } from './scanner'
import { detectSqli } from './sqli'
import { detectSsti } from './ssti'
import type { InputKind, Paranoia, Subject } from './subject'
import { detectXss } from './xss'

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

/** Every category, in the order detect() tries them (the most specific first). */
export const ATTACK_CATEGORIES: readonly AttackCategory[] = Object.freeze([
  'prototype-pollution',
  'java',
  'ssti',
  'scanner',
  'rfi',
  'rce',
  'php',
  'lfi',
  'xss',
  'sqli',
])

export type { InputKind } from './subject'

export interface DetectOptions {
  /** The categories to look for. */
  rules: ReadonlySet<AttackCategory>
  /** 1: few false positives (the default of shield()); 2: also the weaker signals. */
  paranoia: 1 | 2
}

type Detector = (subject: Subject, kind: InputKind, paranoia: Paranoia) => boolean

/**
 * Long values are inspected in overlapping windows: a detector's cost on one window is bounded,
 * so the whole stays linear in the value's length even where a pattern is polynomial on its
 * input (tests/shield/detect-redos.test.ts lists those). An injection longer than the overlap
 * that straddles two windows is the price; real payloads are far shorter.
 */
const WINDOW = 4096
const OVERLAP = 512

function windows(text: string): string[] {
  if (text.length <= WINDOW) return [text]
  const out: string[] = []
  for (let start = 0; start < text.length; start += WINDOW - OVERLAP) {
    out.push(text.slice(start, start + WINDOW))
    if (start + WINDOW >= text.length) break
  }
  return out
}

const DETECTORS: Record<AttackCategory, Detector> = {
  'prototype-pollution': detectPrototypePollution,
  java: detectJava,
  ssti: detectSsti,
  php: detectPhp,
  rfi: detectRfi,
  lfi: detectLfi,
  rce: detectRce,
  xss: detectXss,
  sqli: detectSqli,
  scanner: detectScanner,
}

/**
 * Decodes `value` as an attacker would encode it, then runs each enabled detector that applies to
 * `kind`; the first category that fires, or undefined. Never throws, linear time. `name` is the
 * parameter, field or key the value came under, when known (a URL is remote file inclusion in a
 * parameter named for a server path, such as `include` or `_CONF[path]`).
 *
 * @example
 * detect("1' OR '1'='1", 'query', { rules: new Set(ATTACK_CATEGORIES), paranoia: 1 }) // 'sqli'
 */
export function detect(
  value: string,
  kind: InputKind,
  options: DetectOptions,
  name?: string,
): AttackCategory | undefined {
  return detectWith(value, kind, options, name, true)
}

/**
 * Characters without which detect() never reads the `name` it is given: only remote file
 * inclusion reads it (rfi.ts, a URL under a parameter named for a server path), and its test
 * needs `:`, `/` or `?` (prefilter.ts); every character normalize() decodes is `% & \`, a
 * control or a non-ASCII character, so a value without any of these decodes to itself.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are among those normalize() decodes
const NAME_READ_NEEDS = /[:/?%&\\\u0000-\u001f\u007f-\uffff]/

/**
 * Whether detect()'s verdict on `value` may depend on its `name`; false proves
 * `detect(value, kind, options, name)` is `detect(value, kind, options)` for every name.
 */
export function mayReadName(value: string): boolean {
  return NAME_READ_NEEDS.test(value)
}

/**
 * detect(), with the pre-filter (prefilter.ts) on or off: off, every enabled detector runs on
 * every value. The two must agree on every value (prefilter.property.test.ts).
 */
export function detectWith(
  value: string,
  kind: InputKind,
  options: DetectOptions,
  name: string | undefined,
  filtered: boolean,
): AttackCategory | undefined {
  if (typeof value !== 'string' || value.length === 0) return undefined
  try {
    if (filtered && value.length <= WINDOW) {
      // Read before decoding: every character normalize() decodes is `% & \`, a control or a
      // non-ASCII character in the lower case too, so a shape without them (most values) proves
      // normalize(value) is value, and with them the one pattern decides.
      const lower = value.toLowerCase()
      const shape = shapeOf(lower, SHAPE)
      if ((shape.punct & DECODED_PUNCT) === 0 && (shape.other & DECODED_OTHER) === 0)
        return inWindow(value, value, lower, shape, kind, options, name)
      if (!mayNeedDecoding(value)) return inWindow(value, value, lower, shape, kind, options, name)
    }
    const normalized = normalize(value)
    for (const text of normalized.length <= WINDOW ? [normalized] : windows(normalized)) {
      const lower = text.toLowerCase()
      const shape = filtered ? shapeOf(lower, SHAPE) : undefined
      const found = inWindow(value, text, lower, shape, kind, options, name)
      if (found !== undefined) return found
    }
  } catch {
    // A detector bug must not turn into a 500: the value is let through, as an undetected one.
  }
  return undefined
}

/**
 * The shape of the value (or window) being checked, rewritten for each: detect() is synchronous
 * and calls no code that detects, so one object serves every call and none is made per value.
 */
const SHAPE: Shape = { punct: 0, other: 0, words: 0 }

/** The characters of a shape that normalize() may decode (with the fullwidth forms, non-ASCII). */
const DECODED_PUNCT = punctuation('%&\\')
const DECODED_OTHER = CONTROL | NON_ASCII

function inWindow(
  raw: string,
  text: string,
  lower: string,
  shape: Shape | undefined,
  kind: InputKind,
  options: DetectOptions,
  name: string | undefined,
): AttackCategory | undefined {
  let subject: Subject | undefined
  const { categories, bits, mask } = enabled(options.rules)
  // The categories whose pre-filter test may pass (all of them without the pre-filter).
  const may = shape === undefined ? -1 : candidates(shape, kind, options.paranoia) & mask
  if (may === 0) return undefined
  for (let i = 0; i < categories.length; i++) {
    if ((may & (bits[i] as number)) === 0) continue
    const category = categories[i] as AttackCategory
    if (shape !== undefined && !passes(category, lower, shape, kind, options.paranoia)) continue
    subject ??= { raw, text, lower, name }
    if (DETECTORS[category](subject, kind, options.paranoia)) return category
  }
  return undefined
}

/**
 * The enabled categories in {@link ATTACK_CATEGORIES}' order, remembered per rules set: shield()
 * builds its set once and never changes it, so a value's loop skips ten `Set.has` calls.
 */
const ENABLED = new WeakMap<ReadonlySet<AttackCategory>, Enabled>()

/** The enabled categories in order, each one's bit ({@link CATEGORY_BIT}), and all their bits. */
interface Enabled {
  readonly categories: readonly AttackCategory[]
  readonly bits: Int32Array
  readonly mask: number
}

function enabled(rules: ReadonlySet<AttackCategory>): Enabled {
  let list = ENABLED.get(rules)
  if (list === undefined) {
    const categories = ATTACK_CATEGORIES.filter((category) => rules.has(category))
    const bits = Int32Array.from(categories, (category) => CATEGORY_BIT[category] as number)
    list = { categories, bits, mask: bits.reduce((all, bit) => all | bit, 0) }
    ENABLED.set(rules, list)
  }
  return list
}
