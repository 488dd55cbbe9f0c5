/**
 * Reading the `Signature-Input` and `Signature` fields (RFC 9421 §4): both are Dictionaries
 * (RFC 9651), parsed by `structured-headers`. A field that does not parse, a member of the wrong
 * shape or a parameter of the wrong type makes the whole pair unusable; duplicate keys follow
 * RFC 9651 §4.2.2 (the last one wins), so a second field line can only replace a signature, which
 * must then verify on its own.
 */
import { type InnerList, type Item, parseDictionary } from 'structured-headers'

/** One signature of the message: its label, what it covers, its parameters and its bytes. */
export interface ParsedSignature {
  readonly label: string
  /** The Signature-Input member: covered components and parameters. */
  readonly input: InnerList
  readonly signature: Uint8Array<ArrayBuffer>
  readonly keyid: string | undefined
  readonly alg: string | undefined
  readonly created: number | undefined
  readonly expires: number | undefined
  readonly nonce: string | undefined
  readonly tag: string | undefined
}

/** Longest Signature or Signature-Input field read; real ones are a few hundred bytes. */
export const MAX_FIELD_LENGTH = 8192
/** Most signatures one message may carry. */
export const MAX_SIGNATURES = 8

/** Why a Signature / Signature-Input pair cannot be used (for logs, never for the client). */
export class SignatureSyntaxError extends Error {
  override name = 'SignatureSyntaxError'
}

function dictionary(name: string, value: string) {
  if (value.length > MAX_FIELD_LENGTH) {
    throw new SignatureSyntaxError(`${name} is longer than ${MAX_FIELD_LENGTH} characters`)
  }
  let parsed: ReturnType<typeof parseDictionary>
  try {
    parsed = parseDictionary(value)
  } catch {
    throw new SignatureSyntaxError(`${name} is not a valid Dictionary (RFC 9651)`)
  }
  if (parsed.size > MAX_SIGNATURES) {
    throw new SignatureSyntaxError(`${name} holds more than ${MAX_SIGNATURES} members`)
  }
  return parsed
}

const STRING_PARAMS = ['keyid', 'alg', 'nonce', 'tag'] as const
const INTEGER_PARAMS = ['created', 'expires'] as const

/** A Signature-Input member as an inner list of string components with typed parameters. */
function inputOf(label: string, member: Item | InnerList): InnerList {
  if (!Array.isArray(member[0])) {
    throw new SignatureSyntaxError(`Signature-Input ${label} is not an inner list`)
  }
  const list = member as InnerList
  for (const [name] of list[0]) {
    if (typeof name !== 'string') {
      throw new SignatureSyntaxError(
        `Signature-Input ${label} covers a component that is not a string`,
      )
    }
  }
  for (const p of STRING_PARAMS) {
    const v = list[1].get(p)
    if (v !== undefined && typeof v !== 'string') {
      throw new SignatureSyntaxError(`Signature-Input ${label}: ${p} must be a string`)
    }
  }
  for (const p of INTEGER_PARAMS) {
    const v = list[1].get(p)
    if (v !== undefined && !Number.isInteger(v)) {
      throw new SignatureSyntaxError(`Signature-Input ${label}: ${p} must be an integer`)
    }
  }
  return list
}

/**
 * The signatures of a message, in the order of its Signature-Input field: every label present in
 * both fields. Throws a {@link SignatureSyntaxError} when either field is malformed.
 */
export function parseSignatures(input: string, signature: string): ParsedSignature[] {
  const inputs = dictionary('Signature-Input', input)
  const signatures = dictionary('Signature', signature)
  const out: ParsedSignature[] = []
  for (const [label, member] of inputs) {
    const sig = signatures.get(label)
    if (sig === undefined) continue
    if (Array.isArray(sig[0]) || !(sig[0] instanceof ArrayBuffer)) {
      throw new SignatureSyntaxError(`Signature ${label} is not a byte sequence`)
    }
    const list = inputOf(label, member)
    const params = list[1]
    out.push({
      label,
      input: list,
      signature: new Uint8Array(sig[0]),
      keyid: params.get('keyid') as string | undefined,
      alg: params.get('alg') as string | undefined,
      created: params.get('created') as number | undefined,
      expires: params.get('expires') as number | undefined,
      nonce: params.get('nonce') as string | undefined,
      tag: params.get('tag') as string | undefined,
    })
  }
  return out
}
