import {
  type InnerList,
  type Item,
  parseDictionary,
  parseItem,
  serializeDictionary,
} from 'structured-headers'
import { randomToken } from '../internal/crypto'
import type { Jwk as JWK } from '../internal/keys/jwk'
import { formatValue, optionError } from '../internal/options'
import {
  algorithmOfCryptoKey,
  algorithmOfJwk,
  importJwk,
  isCryptoKey,
  type SignatureAlgorithm,
  signBytes,
} from './algorithms'
import { signatureBase } from './components'
import { contentDigest, type DigestAlgorithm } from './digest'

/**
 * Options of {@link signRequest}.
 *
 * @example
 * const options: SignRequestOptions = { key: privateJwk, keyid: 'billing-2026', tag: 'partner-api' }
 */
export interface SignRequestOptions {
  /** The private key (a `CryptoKey` with `sign`, or a private JWK; an `oct` JWK for HMAC). Required. */
  key: CryptoKey | JWK
  /** The `keyid` the verifier looks the key up by. Required. */
  keyid: string
  /** The algorithm; must agree with the key. Default: the key's own (an RSA JWK needs `alg`). */
  alg?: SignatureAlgorithm
  /**
   * Components to cover. Default `@method`, `@target-uri`, and `content-digest` when there is a
   * body (the Content-Digest field is added then).
   */
  components?: string[]
  /** The `tag` parameter (the verifier's `tag` option). */
  tag?: string
  /** The signature's label. Default `'sig1'`. */
  label?: string
  /** `created`, in seconds. Default now. */
  created?: number
  /** `expires`, in seconds. Default none. */
  expires?: number
  /** The `nonce`: a string, or `false` for none. Default a random 128-bit token. */
  nonce?: string | false
  /** Content-Digest algorithm for a body. Default `'sha-256'`. */
  digest?: DigestAlgorithm
  /** Also put `alg` in the signature parameters. Default `false` (the key decides). */
  includeAlg?: boolean
}

const NAME = 'signRequest'

/** The signing key as a CryptoKey and its algorithm, checked against `alg`. */
async function signingKey(
  key: unknown,
  alg: unknown,
): Promise<{ key: CryptoKey; alg: SignatureAlgorithm }> {
  let own: SignatureAlgorithm | undefined
  if (isCryptoKey(key)) own = algorithmOfCryptoKey(key)
  else if (key !== null && typeof key === 'object')
    own = algorithmOfJwk({ alg: alg as string, ...(key as JWK) })
  else throw optionError(NAME, `"key" must be a CryptoKey or a JWK, got ${formatValue(key)}`)
  if (own === undefined)
    throw optionError(NAME, '"key" fits none of the algorithms (an RSA JWK needs "alg")')
  if (alg !== undefined && alg !== own) {
    throw optionError(NAME, `"alg" is ${formatValue(alg)} but the key is for ${own}`)
  }
  if (isCryptoKey(key)) return { key, alg: own }
  return { key: await importJwk(key as JWK, own, 'sign'), alg: own }
}

/** A component option as the Item of the Signature-Input list. */
function component(text: string): Item {
  const semicolon = text.indexOf(';')
  const name = semicolon === -1 ? text : text.slice(0, semicolon)
  try {
    return parseItem(`${JSON.stringify(name)}${semicolon === -1 ? '' : text.slice(semicolon)}`)
  } catch {
    throw optionError(NAME, `"components" lists ${formatValue(text)}, not a component identifier`)
  }
}

/** `field` with the member `label` set to `value`, keeping any other signatures. */
function withMember(field: string | null, label: string, value: Item | InnerList): string {
  let dictionary: ReturnType<typeof parseDictionary> = new Map()
  if (field !== null) {
    try {
      dictionary = parseDictionary(field)
    } catch {
      dictionary = new Map()
    }
  }
  dictionary.set(label, value)
  return serializeDictionary(dictionary)
}

/**
 * Signs an outgoing `Request` (RFC 9421) and returns a new one carrying `Signature-Input`,
 * `Signature` and, for a body, `Content-Digest` (RFC 9530): ready for `fetch`. The key decides
 * the algorithm. `httpSignature` on the receiving side verifies it.
 *
 * @param request - The request to sign; its body is read (a clone), the returned request carries it.
 * @param options.key - Private `CryptoKey` or JWK. Required.
 * @param options.keyid - The key's id for the verifier. Required.
 * @param options.components - Covered components. Default `@method`, `@target-uri` (+ `content-digest`).
 * @param options.nonce - Default a random token; `false` for none.
 * @example
 * import { signRequest } from '@palisade/middleware/http-signature'
 *
 * const signed = await signRequest(new Request('https://billing.internal/charge', {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json' },
 *   body: JSON.stringify({ amount: 5 }),
 * }), { key: privateJwk, keyid: 'checkout-2026', tag: 'internal' })
 * const response = await fetch(signed)
 */
export async function signRequest(request: Request, options: SignRequestOptions): Promise<Request> {
  if (!(request instanceof Request)) throw optionError(NAME, '"request" must be a Request')
  if (options === null || typeof options !== 'object')
    throw optionError(NAME, 'options are required')
  if (typeof options.keyid !== 'string' || options.keyid === '') {
    throw optionError(NAME, '"keyid" must be a non-empty string')
  }
  const { key, alg } = await signingKey(options.key, options.alg)
  const hasBody = request.body !== null
  const bytes = hasBody ? new Uint8Array(await request.clone().arrayBuffer()) : new Uint8Array(0)
  const headers = new Headers(request.headers)
  const names = [...(options.components ?? ['@method', '@target-uri'])]
  if (bytes.length > 0) {
    headers.set('content-digest', await contentDigest(bytes, options.digest ?? 'sha-256'))
    if (!names.includes('content-digest')) names.push('content-digest')
  }
  const params = new Map<string, string | number>()
  params.set('created', options.created ?? Math.floor(Date.now() / 1000))
  if (options.expires !== undefined) params.set('expires', options.expires)
  params.set('keyid', options.keyid)
  if (options.includeAlg) params.set('alg', alg)
  const nonce = options.nonce === undefined ? randomToken(16) : options.nonce
  if (nonce !== false) params.set('nonce', nonce)
  if (options.tag !== undefined) params.set('tag', options.tag)
  const input: InnerList = [names.map(component), params]
  const base = signatureBase({ method: request.method, url: new URL(request.url), headers }, input)
  const signature = await signBytes(alg, key, new TextEncoder().encode(base))
  const label = options.label ?? 'sig1'
  headers.set('signature-input', withMember(headers.get('signature-input'), label, input))
  headers.set(
    'signature',
    withMember(headers.get('signature'), label, [signature.buffer, new Map()]),
  )
  return new Request(request, { headers, ...(hasBody ? { body: bytes } : {}) })
}
