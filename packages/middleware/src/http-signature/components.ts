/**
 * Component values and the signature base (RFC 9421 §2): what a signature covers, computed the
 * same way by the verifier (httpSignature) and the signer (signRequest). Identifiers and the
 * `@signature-params` line are serialised by `structured-headers` (RFC 9651), never by hand.
 */
import {
  type BareItem,
  type Dictionary,
  type InnerList,
  type Item,
  type Parameters,
  parseDictionary,
  serializeDictionary,
  serializeInnerList,
  serializeItem,
} from 'structured-headers'

/** The parts of an HTTP message a signature base reads. `status` only for a response. */
export interface SignedMessage {
  readonly method?: string
  readonly url?: URL
  readonly headers: Headers
  readonly status?: number
}

/** A component that cannot be part of a valid signature base; the reason is for logs only. */
export class ComponentError extends Error {
  override name = 'ComponentError'
}

/** Fields whose `sf` / `key` forms are known Dictionaries (RFC 9421 §2.1.1, §2.1.2). */
const DICTIONARY_FIELDS = new Set([
  'content-digest',
  'repr-digest',
  'want-content-digest',
  'signature',
  'signature-input',
  'accept-signature',
  'cache-control',
  'priority',
])

/**
 * The form-urlencoded percent-encode set, with a space as `%20` (RFC 9421 §2.2.8 and its
 * examples): everything but ASCII letters, digits and `*-._` is escaped.
 */
function encodeQueryPart(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()~]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  )
}

/** `@query-param;name="…"`: the one value of that parameter, re-encoded; an error if not one. */
function queryParam(url: URL, params: Parameters): string {
  const name = params.get('name')
  if (typeof name !== 'string') throw new ComponentError('@query-param needs a name parameter')
  const values: string[] = []
  for (const [k, v] of new URLSearchParams(url.search)) {
    if (encodeQueryPart(k) === name) values.push(encodeQueryPart(v))
  }
  if (values.length !== 1) {
    throw new ComponentError(`@query-param ${name} occurs ${values.length} times, not once`)
  }
  return values[0] as string
}

/** The value of a derived component (`@method`, `@path`, …) of `message`. */
function derived(message: SignedMessage, name: string, params: Parameters): string {
  const allowed = name === '@query-param' ? ['name'] : []
  for (const key of params.keys()) {
    if (!allowed.includes(key)) throw new ComponentError(`${name} takes no parameter ${key}`)
  }
  if (name === '@status') {
    if (message.status === undefined) throw new ComponentError('@status is for responses')
    return String(message.status)
  }
  const url = message.url
  if (url === undefined || message.method === undefined) {
    throw new ComponentError(`${name} is for requests`)
  }
  switch (name) {
    case '@method':
      return message.method
    case '@target-uri':
      return url.href
    case '@authority':
      return url.host.toLowerCase()
    case '@scheme':
      return url.protocol.slice(0, -1).toLowerCase()
    case '@request-target':
      return url.pathname + url.search
    case '@path':
      return url.pathname === '' ? '/' : url.pathname
    case '@query':
      return url.search === '' ? '?' : url.search
    case '@query-param':
      return queryParam(url, params)
    default:
      throw new ComponentError(`unknown derived component ${name}`)
  }
}

/** The value of a header field component, plain or with `sf` / `key` (RFC 9421 §2.1). */
function field(message: SignedMessage, name: string, params: Parameters): string {
  if (name !== name.toLowerCase()) throw new ComponentError(`${name} is not lower case`)
  for (const key of params.keys()) {
    // `bs` needs each field line apart, which a fetch Headers object has already joined;
    // `req` and `tr` name parts of another message (the request of a response, trailers).
    if (key !== 'sf' && key !== 'key') throw new ComponentError(`${name}: unsupported ${key}`)
  }
  const value = message.headers.get(name)
  if (value === null) throw new ComponentError(`${name} is not in the message`)
  const key = params.get('key')
  if (!params.has('sf') && key === undefined) return value
  if (!DICTIONARY_FIELDS.has(name)) throw new ComponentError(`${name} is not a known Dictionary`)
  let dictionary: Dictionary
  try {
    dictionary = parseDictionary(value)
  } catch {
    throw new ComponentError(`${name} is not a valid Dictionary`)
  }
  if (key === undefined) return serializeDictionary(dictionary)
  if (typeof key !== 'string') throw new ComponentError(`${name}: key must be a string`)
  const member = dictionary.get(key)
  if (member === undefined) throw new ComponentError(`${name} has no member ${key}`)
  return memberValue(member)
}

/** A Dictionary member's value, serialised (an Item or an Inner List). */
function memberValue(member: Item | InnerList): string {
  return Array.isArray(member[0])
    ? serializeInnerList(member as InnerList)
    : serializeItem(member as Item)
}

/** One covered component: its name and parameters, as an Item of the Signature-Input list. */
export type Component = Item

/** The identifier's text in a signature base or policy: `"@query-param";name="Pet"`. */
export function componentId(component: Component): string {
  return serializeItem(component)
}

/** The value of one covered component of `message`. */
export function componentValue(message: SignedMessage, component: Component): string {
  const [name, params] = component
  if (typeof name !== 'string' || name.length === 0) {
    throw new ComponentError('a component identifier must be a non-empty string')
  }
  if (name === '@signature-params') throw new ComponentError('@signature-params cannot be covered')
  return name.startsWith('@') ? derived(message, name, params) : field(message, name, params)
}

/**
 * The signature base (RFC 9421 §2.5) of `message` for the covered components and parameters of
 * `input` (one Signature-Input member). Throws a {@link ComponentError} when a component is
 * missing, repeated or unsupported.
 */
export function signatureBase(message: SignedMessage, input: InnerList): string {
  const [components, params] = input
  const seen = new Set<string>()
  let base = ''
  for (const component of components) {
    const id = componentId(component)
    if (seen.has(id)) throw new ComponentError(`${id} is covered twice`)
    seen.add(id)
    const value = componentValue(message, component)
    if (/[\r\n]/.test(value)) throw new ComponentError(`${id} holds a line break`)
    base += `${id}: ${value}\n`
  }
  return `${base}"@signature-params": ${serializeInnerList([components, params])}`
}

/** A parameter of a Signature-Input member, typed. */
export function param<T extends BareItem>(
  params: Parameters,
  name: string,
  type: 'string' | 'number',
): T | undefined {
  const value = params.get(name)
  if (value === undefined) return undefined
  if (typeof value !== type) throw new ComponentError(`${name} must be a ${type}`)
  return value as T
}
