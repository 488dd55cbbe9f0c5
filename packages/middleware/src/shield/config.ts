import type { Context } from 'hono'
import { type PathPatterns, pathPatterns } from '../internal/http/path-patterns'
import { keyOption } from '../internal/network/client-ip-key'
import {
  assertBoolean,
  assertFunction,
  assertKnownKeys,
  assertPositiveInteger,
  assertStringArray,
  formatValue,
  optionError,
} from '../internal/options'
import { prefixOption } from '../internal/stores/store-args'
import type { RateLimitStore } from '../rate-limit/store'
import { ATTACK_CATEGORIES, type AttackCategory } from './detect'
import { compilePointers, type PointerTrie } from './pointers'

/**
 * What {@link ShieldOptions.onDetect} receives: what was found and where, never the value.
 *
 * @example
 * const detection: ShieldDetection = { category: 'sqli', location: 'body:/comment', dryRun: false }
 */
export interface ShieldDetection {
  /** The attack category that fired. */
  category: AttackCategory
  /** Where: `path`, `query:q`, `query` (a parameter name), `header:referer`, `cookie:sid`, `body:/comment`, `body`. */
  location: string
  /** `true` when shield runs in dry run and lets the request through. */
  dryRun: boolean
}

/**
 * Repeat offenders: a client with `after` detections within `windowMs` is refused every request
 * for `durationMs`, on every instance that shares the store.
 *
 * @example
 * const ban: ShieldBanOptions = { after: 5, windowMs: 60_000, durationMs: 15 * 60_000, store: new MemoryRateLimitStore() }
 */
export interface ShieldBanOptions {
  /** Detections that ban the client. Required, a positive integer. */
  after: number
  /** Window the detections are counted in, in milliseconds. Default `60000`. */
  windowMs?: number
  /** How long the ban lasts, in milliseconds. Default `600000` (10 minutes). */
  durationMs?: number
  /**
   * Where detections are counted: any rate-limit store with `consume` (memory, Redis, PostgreSQL,
   * Durable Objects, Deno KV). Required: share one store between instances to ban everywhere.
   */
  store: RateLimitStore
  /** The client's key. Default: the client IP (IPv6 by its /56), as rateLimit's default key. */
  key?: (c: Context) => string | Promise<string>
  /** Prefix of the keys in the store, apart from rate limits sharing it. Default `'shield:'`. */
  prefix?: string
}

/**
 * Options of {@link shield}.
 *
 * @example
 * const options: ShieldOptions = { paranoia: 1, rules: { scanner: false }, fields: { skip: ['/snippet'] } }
 * app.use('/api/*', shield(options))
 */
export interface ShieldOptions {
  /** Each category on (`true`, the default for all) or off (`false`). */
  rules?: Partial<Record<AttackCategory, boolean>>
  /** `1` (default): few false positives. `2`: more detections, more false positives. */
  paranoia?: 1 | 2
  /**
   * Requests shield lets through uninspected: exact paths and `prefix/*` patterns, or a function.
   */
  exempt?: readonly string[] | ((c: Context) => boolean | Promise<boolean>)
  /**
   * JSON pointers into the body (a form's fields are `/name`; `*` matches any index or key):
   * `skip` is never inspected, `inspect` always is, even where the route's schema says the field
   * holds no free text. A pointer covers everything below it.
   */
  fields?: { skip?: readonly string[]; inspect?: readonly string[] }
  /** Body characters inspected at most; the rest passes uninspected (the decision says so). Default 65536. */
  maxInspectBytes?: number
  /**
   * A body shield cannot inspect whole: longer than `maxInspectBytes`, or sent in a content
   * coding this runtime does not decode (`br` on Node 20 and Workers, `zstd` but on Bun,
   * `compress`). `'allow'` (default): it passes, inspected as far as shield could, and the
   * decision says so. `'refuse'`: answered 413 `body_too_large` or 415 `unsupported_media_type`
   * (with `Accept-Encoding`), unless the part inspected already found an attack (403).
   */
  uninspected?: 'allow' | 'refuse'
  /** Report instead of refuse: every request passes, each would-be block is a `dry-run` decision. */
  dryRun?: boolean
  /** Called for each detection (also in dry run), before the request is refused. */
  onDetect?: (detection: ShieldDetection, c: Context) => void | Promise<void>
  /** Ban repeat offenders (see {@link ShieldBanOptions}). Default: no ban. */
  ban?: ShieldBanOptions
}

/** The ban, checked. */
export interface BanConfig {
  readonly after: number
  readonly windowMs: number
  readonly durationMs: number
  readonly store: RateLimitStore
  readonly keyOf: (c: Context) => string | Promise<string>
  readonly prefix: string
}

/** `shield`'s options, checked, with their defaults filled in. */
export interface ShieldConfig {
  readonly rules: ReadonlySet<AttackCategory>
  readonly paranoia: 1 | 2
  readonly exempt: PathPatterns | undefined
  readonly exemptFn: ((c: Context) => boolean | Promise<boolean>) | undefined
  readonly skip: readonly string[]
  readonly inspect: readonly string[]
  /** The user's pointers alone, compiled (routes without schema hints). */
  readonly fields: PointerTrie | undefined
  readonly maxInspect: number
  /** `uninspected: 'refuse'`. */
  readonly refuseUninspected: boolean
  readonly dryRun: boolean
  readonly onDetect: ((detection: ShieldDetection, c: Context) => void | Promise<void>) | undefined
  readonly ban: BanConfig | undefined
}

export const NAME = 'shield'
const KNOWN = [
  'rules',
  'paranoia',
  'exempt',
  'fields',
  'maxInspectBytes',
  'uninspected',
  'dryRun',
  'onDetect',
  'ban',
] as const

/** Checks `options` and returns the frozen configuration, or throws the first problem found. */
export function shieldConfig(options: ShieldOptions | undefined): ShieldConfig {
  assertKnownKeys(NAME, options, KNOWN)
  const o = options ?? {}
  const paranoia = o.paranoia ?? 1
  if (paranoia !== 1 && paranoia !== 2) {
    throw optionError(NAME, `"paranoia" must be 1 or 2, got ${formatValue(paranoia)}`)
  }
  const { skip, inspect } = fieldsOption(o.fields)
  const exempt = exemptOption(o.exempt)
  const uninspected = o.uninspected ?? 'allow'
  if (uninspected !== 'allow' && uninspected !== 'refuse') {
    throw optionError(
      NAME,
      `"uninspected" must be 'allow' or 'refuse', got ${formatValue(uninspected)}`,
    )
  }
  return Object.freeze({
    rules: rulesOption(o.rules),
    paranoia,
    ...exempt,
    skip,
    inspect,
    fields: skip.length + inspect.length > 0 ? compilePointers(skip, inspect) : undefined,
    maxInspect: assertPositiveInteger(NAME, 'maxInspectBytes', o.maxInspectBytes ?? 65_536),
    refuseUninspected: uninspected === 'refuse',
    dryRun: assertBoolean(NAME, 'dryRun', o.dryRun ?? false),
    onDetect:
      o.onDetect === undefined
        ? undefined
        : assertFunction<NonNullable<ShieldOptions['onDetect']>>(NAME, 'onDetect', o.onDetect),
    ban: o.ban === undefined ? undefined : banOption(o.ban),
  })
}

function rulesOption(rules: unknown): ReadonlySet<AttackCategory> {
  const on = new Set<AttackCategory>(ATTACK_CATEGORIES)
  if (rules === undefined) return on
  if (rules === null || typeof rules !== 'object' || Array.isArray(rules)) {
    throw optionError(
      NAME,
      `"rules" must be an object of category: boolean, got ${formatValue(rules)}`,
    )
  }
  for (const [category, value] of Object.entries(rules)) {
    if (!ATTACK_CATEGORIES.includes(category as AttackCategory)) {
      throw optionError(
        NAME,
        `"rules" has an unknown category ${JSON.stringify(category)}; known: ${ATTACK_CATEGORIES.join(', ')}`,
      )
    }
    if (assertBoolean(NAME, `rules.${category}`, value) === false)
      on.delete(category as AttackCategory)
  }
  if (on.size === 0) throw optionError(NAME, '"rules" turns every category off')
  return on
}

function exemptOption(exempt: unknown): Pick<ShieldConfig, 'exempt' | 'exemptFn'> {
  if (exempt === undefined) return { exempt: undefined, exemptFn: undefined }
  if (typeof exempt === 'function') {
    return { exempt: undefined, exemptFn: exempt as ShieldConfig['exemptFn'] }
  }
  return { exempt: pathPatterns(NAME, 'exempt', exempt), exemptFn: undefined }
}

function fieldsOption(fields: unknown): { skip: string[]; inspect: string[] } {
  if (fields === undefined) return { skip: [], inspect: [] }
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) {
    throw optionError(NAME, '"fields" must be { skip?: string[], inspect?: string[] }')
  }
  assertKnownKeys(`${NAME}: "fields"`, fields, ['skip', 'inspect'])
  const f = fields as { skip?: unknown; inspect?: unknown }
  const skip = assertStringArray(NAME, 'fields.skip', f.skip ?? [])
  const inspect = assertStringArray(NAME, 'fields.inspect', f.inspect ?? [])
  for (const pointer of [...skip, ...inspect]) {
    if (!pointer.startsWith('/')) {
      throw optionError(
        NAME,
        `"fields" entry ${JSON.stringify(pointer)} must be a JSON pointer starting with "/"`,
      )
    }
  }
  return { skip: [...skip], inspect: [...inspect] }
}

function banOption(ban: unknown): BanConfig {
  const where = `${NAME}: "ban"`
  if (ban === null || typeof ban !== 'object' || Array.isArray(ban)) {
    throw optionError(NAME, '"ban" must be { after, windowMs?, durationMs?, store, key?, prefix? }')
  }
  assertKnownKeys(where, ban, ['after', 'windowMs', 'durationMs', 'store', 'key', 'prefix'])
  const b = ban as Partial<ShieldBanOptions>
  if (b.after === undefined) throw optionError(NAME, '"ban.after" is required')
  const after = assertPositiveInteger(NAME, 'ban.after', b.after)
  const windowMs = assertPositiveInteger(NAME, 'ban.windowMs', b.windowMs ?? 60_000)
  const durationMs = assertPositiveInteger(NAME, 'ban.durationMs', b.durationMs ?? 600_000)
  if (!Number.isSafeInteger((after + 1) * windowMs)) {
    throw optionError(NAME, '"ban.after" × "ban.windowMs" must be a safe integer')
  }
  const store = b.store
  if (store === null || typeof store !== 'object' || typeof store.consume !== 'function') {
    throw optionError(
      NAME,
      '"ban.store" is required: a rate-limit store with consume() (MemoryRateLimitStore, or the Redis, PostgreSQL, Durable Object or Deno KV store)',
    )
  }
  return Object.freeze({
    after,
    windowMs,
    durationMs,
    store,
    keyOf: keyOption(NAME, 'ban.key', b.key, undefined),
    prefix: prefixOption(NAME, b.prefix, 'shield:'),
  })
}
