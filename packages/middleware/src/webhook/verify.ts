// The signature arithmetic both sides share: the bytes signed, the HMAC and Ed25519 signatures
// over them, and the constant-time match of what a request carries.
import { base64, base64url, encodedEqual, fromBase64, lazy, toHex } from '../internal/crypto'
import { ed25519Key, hmacKey, type ReadSecret } from './keys'
import type { Scheme, SignatureParts } from './presets'

const encoder = new TextEncoder()

/** `bytes` written as the scheme writes signatures. */
export function encode(bytes: Uint8Array, encoding: Scheme['encoding']): string {
  if (encoding === 'hex') return toHex(bytes)
  return encoding === 'base64' ? base64(bytes) : base64url(bytes)
}

/** True when every code unit of `text` is ASCII, so its UTF-8 bytes are its code units. */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false
  return true
}

/** Writes ASCII `text` into `into` at `at`, one byte per code unit. */
function writeAscii(text: string, into: Uint8Array, at: number): void {
  for (let i = 0; i < text.length; i++) into[at + i] = text.charCodeAt(i)
}

/**
 * The bytes the sender signed: the scheme's text around the body, the body as received. The text
 * around it (a timestamp, an id, the preset's separators) is ASCII in every preset, so it is
 * written straight into the one message buffer: encoding it apart with `TextEncoder` cost two
 * more allocations, about 1.7 µs per request. Other text (a custom preset's template) is encoded.
 */
export function signedMessage(
  scheme: Scheme,
  id: string | undefined,
  timestamp: string | undefined,
  body: Uint8Array,
): Uint8Array<ArrayBuffer> {
  const [before, after] = scheme.around(id, timestamp)
  if (before === '' && after === '') return body as Uint8Array<ArrayBuffer>
  if (!isAscii(before) || !isAscii(after)) {
    const head = encoder.encode(before)
    const tail = encoder.encode(after)
    const message = new Uint8Array(head.length + body.length + tail.length)
    message.set(head)
    message.set(body, head.length)
    message.set(tail, head.length + body.length)
    return message
  }
  const message = new Uint8Array(before.length + body.length + after.length)
  writeAscii(before, message, 0)
  message.set(body, before.length)
  writeAscii(after, message, before.length + body.length)
  return message
}

/** The HMAC of `message` under `key`, written as the scheme writes it. */
export async function hmacOf(
  key: CryptoKey,
  message: Uint8Array<ArrayBuffer>,
  encoding: Scheme['encoding'],
): Promise<string> {
  return encode(new Uint8Array(await crypto.subtle.sign('HMAC', key, message)), encoding)
}

/** The verifier of one webhook() instance: its keys imported on first use, then kept. */
export interface Verifier {
  /** The signature of `parts` that verifies `message` under some secret, or `undefined`. */
  match(parts: SignatureParts, message: Uint8Array<ArrayBuffer>): Promise<string | undefined>
}

/** A {@link Verifier} for `secrets` under `scheme`. */
export function verifier(scheme: Scheme, secrets: readonly ReadSecret[]): Verifier {
  const keys = lazy(async () => ({
    hmac: await Promise.all(
      secrets.flatMap((s) => (s.kind === 'hmac' ? [hmacKey(s.raw, scheme.hash)] : [])),
    ),
    ed25519: await Promise.all(
      secrets.flatMap((s) => (s.kind === 'ed25519-public' ? [ed25519Key(s.key, 'verify')] : [])),
    ),
  }))
  // The keys once imported: after the first request, no promise to wait on before signing.
  let imported: Awaited<ReturnType<typeof keys>> | undefined
  return {
    async match(parts, message) {
      if (imported === undefined) imported = await keys()
      const { hmac, ed25519 } = imported
      if (parts.hmac.length > 0) {
        for (const key of hmac) {
          const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, message))
          // Every candidate is compared, a match or not: the time does not tell which one matched.
          // Compared with the MAC's bytes as the scheme writes them, without encoding them first.
          let found: string | undefined
          for (const candidate of parts.hmac) {
            if (encodedEqual(candidate, mac, scheme.encoding) && found === undefined)
              found = candidate
          }
          if (found !== undefined) return found
        }
      }
      for (const candidate of parts.ed25519) {
        const signature = fromBase64(candidate)
        if (signature === null || signature.length !== 64) continue
        for (const key of ed25519) {
          if (await crypto.subtle.verify({ name: 'Ed25519' }, key, signature, message))
            return candidate
        }
      }
      return undefined
    },
  }
}
