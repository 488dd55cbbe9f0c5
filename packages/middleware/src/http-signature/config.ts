import { type Item, parseItem, serializeDictionary } from 'structured-headers'
import {
  assertKnownKeys,
  assertNonEmptyString,
  assertNonNegativeInteger,
  assertPositiveInteger,
  formatValue,
  optionError,
} from '../internal/options'
import { MemoryNonceStore, type NonceStore } from '../internal/stores/nonce-store'
import { SIGNATURE_ALGORITHMS, type SignatureAlgorithm } from './algorithms'
import { componentId } from './components'
import {
  type JwksCacheOptions,
  type JwksFetch,
  type KeyResolver,
  keyResolver,
  type SignatureKeys,
} from './keys'

/**
 * Options of {@link httpSignature}.
 *
 * @example
 * const options: HttpSignatureOptions = {
 *   keys: 'https://partner.example/.well-known/jwks.json',
 *   tag: 'partner-api',
 *   maxAgeSeconds: 60,
 * }
 */
export interface HttpSignatureOptions {
  /**
   * Where the key of a `keyid` comes from: a lookup `(keyid, c) => key | undefined` (a
   * `CryptoKey` or a JWK), a JWKS object, or a JWKS URL (fetched and cached as jwtAuth's `jwks`).
   * The key decides the algorithm. Required.
   */
  keys: SignatureKeys
  /** The algorithms accepted (each key still decides its own). Default: all five. */
  algorithms?: SignatureAlgorithm[]
  /**
   * Components every accepted signature must cover, as identifiers (`'@method'`,
   * `'content-type'`, `'@query-param;name="id"'`). Default: `@method` and either `@target-uri`
   * or both `@authority` and `@path`. `content-digest` is required besides whenever the request
   * has a body.
   */
  components?: string[]
  /** Oldest accepted `created`, in seconds. Default `300`. */
  maxAgeSeconds?: number
  /** Leeway for the signer's clock on `created` and `expires`, in seconds. Default `5`. */
  clockSkewSeconds?: number
  /** Only signatures with this `tag` parameter are considered (and one is required). */
  tag?: string
  /** Only the signature with this label is considered (of several on the message). */
  label?: string
  /**
   * Replay protection: a signature's `nonce` (then required) is claimed here for the signature's
   * lifetime, and a nonce seen before is refused. A shared store (Redis, PostgreSQL, Durable
   * Objects, Deno KV) when the app runs on several instances. Default: no nonce check.
   */
  nonce?: NonceStore
  /** How a JWKS URL is cached (as jwtAuth's `jwksCache`). Only with a URL. */
  jwksCache?: JwksCacheOptions
  /** The `fetch` a JWKS URL is read with. Only with a URL. */
  fetch?: JwksFetch
}

/** One httpSignature instance's options, checked and frozen. */
export interface HttpSignatureConfig {
  readonly keys: KeyResolver
  readonly algorithms: ReadonlySet<SignatureAlgorithm>
  /** Each entry: alternatives, one of which must be covered (all of each alternative). */
  readonly required: readonly (readonly (readonly string[])[])[]
  readonly maxAgeMs: number
  readonly skewMs: number
  readonly tag: string | undefined
  readonly label: string | undefined
  readonly nonce: NonceStore | undefined
  /** A nonce store that can fail (any but the memory store). */
  readonly storeCanFail: boolean
  /** The `Accept-Signature` field sent with a 401 (RFC 9421 §5.1). */
  readonly acceptSignature: string
  /** The message of a 401: what a valid signature needs, never what failed. */
  readonly guidance: string
}

const KNOWN = [
  'keys',
  'algorithms',
  'components',
  'maxAgeSeconds',
  'clockSkewSeconds',
  'tag',
  'label',
  'nonce',
  'jwksCache',
  'fetch',
] as const

/** The identifier of a component option, as the signature base spells it (`"@path"`). */
function identifier(factory: string, text: unknown, i: number): string {
  if (typeof text !== 'string' || text === '') {
    throw optionError(
      factory,
      `"components[${i}]" must be a component identifier, got ${formatValue(text)}`,
    )
  }
  // `@query-param;name="id"` → the Item `"@query-param";name="id"`, parsed by the RFC 9651 parser.
  const semicolon = text.indexOf(';')
  const name = semicolon === -1 ? text : text.slice(0, semicolon)
  const params = semicolon === -1 ? '' : text.slice(semicolon)
  try {
    return componentId(parseItem(`${JSON.stringify(name)}${params}`))
  } catch {
    throw optionError(
      factory,
      `"components[${i}]" is not a component identifier: ${formatValue(text)}`,
    )
  }
}

const DEFAULT_REQUIRED = [[['"@method"']], [['"@target-uri"'], ['"@authority"', '"@path"']]]

/** Checks the options once, at construction. */
export function httpSignatureConfig(
  factory: string,
  options: HttpSignatureOptions,
): HttpSignatureConfig {
  if (options === null || typeof options !== 'object')
    throw optionError(factory, '"keys" is required')
  assertKnownKeys(factory, options, KNOWN)
  if (options.keys === undefined) throw optionError(factory, '"keys" is required')
  const keys = keyResolver(factory, options.keys, options.jwksCache, options.fetch)
  const listed = options.algorithms ?? SIGNATURE_ALGORITHMS
  if (!Array.isArray(listed) || listed.length === 0) {
    throw optionError(factory, '"algorithms" must be a non-empty array')
  }
  for (const alg of listed) {
    if (!SIGNATURE_ALGORITHMS.includes(alg)) {
      throw optionError(
        factory,
        `"algorithms" lists ${formatValue(alg)}, not one of ${SIGNATURE_ALGORITHMS.join(', ')}`,
      )
    }
  }
  let required: string[][][] = DEFAULT_REQUIRED
  if (options.components !== undefined) {
    if (!Array.isArray(options.components))
      throw optionError(factory, '"components" must be an array')
    required = options.components.map((text, i) => [[identifier(factory, text, i)]])
  }
  const maxAgeSeconds = assertPositiveInteger(
    factory,
    'maxAgeSeconds',
    options.maxAgeSeconds ?? 300,
  )
  const skew = assertNonNegativeInteger(factory, 'clockSkewSeconds', options.clockSkewSeconds ?? 5)
  const tag =
    options.tag === undefined ? undefined : assertNonEmptyString(factory, 'tag', options.tag)
  const label =
    options.label === undefined ? undefined : assertNonEmptyString(factory, 'label', options.label)
  const nonce = options.nonce
  if (nonce !== undefined && (nonce === null || typeof nonce.claim !== 'function')) {
    throw optionError(factory, '"nonce" must be a NonceStore (with claim(nonce, ttlMs))')
  }
  const acceptSignature = acceptSignatureField(factory, required, label, tag, nonce !== undefined)
  const wanted = required
    .map((alternatives) => alternatives.map((all) => all.join(' + ')).join(' or '))
    .join(', ')
  const guidance = `Sign the request as RFC 9421 describes: Signature and Signature-Input covering ${wanted} (and content-digest when there is a body), with keyid and created${nonce ? ' and a fresh nonce' : ''}${tag === undefined ? '' : ` and tag "${tag}"`}, within ${maxAgeSeconds} s`
  return Object.freeze({
    keys,
    algorithms: new Set(listed),
    required,
    maxAgeMs: maxAgeSeconds * 1000,
    skewMs: skew * 1000,
    tag,
    label,
    nonce,
    storeCanFail: nonce !== undefined && !(nonce instanceof MemoryNonceStore),
    acceptSignature,
    guidance,
  })
}

/**
 * The `Accept-Signature` field of a 401 (RFC 9421 §5.1): the label, the first alternative of each
 * required component, `created`, `nonce` when replays are checked, and the tag.
 */
function acceptSignatureField(
  factory: string,
  required: readonly (readonly (readonly string[])[])[],
  label: string | undefined,
  tag: string | undefined,
  nonce: boolean,
): string {
  const items = required.flatMap((alternatives) =>
    (alternatives[0] ?? []).map((id) => parseItem(id) as Item),
  )
  const params = new Map<string, string | boolean>([['created', true]])
  if (nonce) params.set('nonce', true)
  if (tag !== undefined) params.set('tag', tag)
  try {
    return serializeDictionary(new Map([[label ?? 'sig1', [items, params]]]))
  } catch {
    throw optionError(
      factory,
      '"label" must be a lower-case key and "tag" printable ASCII (RFC 9651)',
    )
  }
}
