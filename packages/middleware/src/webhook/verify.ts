// The signature arithmetic both sides share: the bytes signed, the HMAC and Ed25519 signatures
// over them, and the constant-time match of what a request carries.
import { base64, base64url, fromBase64, lazy, toHex } from '../internal/crypto'
import { ed25519Key, hmacKey, type ReadSecret } from './keys'
import type { Scheme, SignatureParts } from './presets'

const encoder = new TextEncoder()

/** `bytes` written as the scheme writes signatures. */
export function encode(bytes: Uint8Array, encoding: Scheme['encoding']): string {
  if (encoding === 'hex') return toHex(bytes)
  return encoding === 'base64' ? base64(bytes) : base64url(bytes)
}

/** The lowercase hex digit of a nibble, without a branch or a table on its value. */
function hexDigit(n: number): number {
  // '0'…'9' are 48…57; from 10 on, 39 more reaches 'a' (97).
  return n + 48 + (((9 - n) >> 31) & 39)
}

/**
 * The RFC 4648 base64 character of a 6-bit value (`url`: the base64url alphabet), without a
 * branch or a table on its value: each range past the first shifts by a mask of the sign of
 * `limit - v`.
 */
function base64Digit(v: number, url: boolean): number {
  let c = v + 65 // A…Z
  c += ((25 - v) >> 31) & 6 // a…z from 26
  c -= ((51 - v) >> 31) & 75 // 0…9 from 52
  c -= ((61 - v) >> 31) & (url ? 13 : 15) // 62: '-' or '+'
  c += ((62 - v) >> 31) & (url ? 49 : 3) // 63: '_' or '/'
  return c
}

/**
 * Whether `text` is exactly `bytes` written in `encoding` (hex: lowercase; base64: padded;
 * base64url: unpadded, as `toHex`, `base64` and `base64url` write them), in
 * time that depends only on the lengths. The same answer as `timingSafeEqual(text,
 * encode(bytes))`, without building the encoded string: a webhook compares every signature it
 * receives against the HMAC it computed, and encoding the HMAC first was a string of 32 or more
 * concatenations (and, for base64, `btoa`) per request.
 */
export function encodedEqual(
  text: string,
  bytes: Uint8Array,
  encoding: 'hex' | 'base64' | 'base64url',
): boolean {
  // Past the end of `text`, charCodeAt gives NaN, and NaN | 0 is 0: no branch on the content.
  const at = (i: number) => text.charCodeAt(i) | 0
  const n = bytes.length
  if (encoding === 'hex') {
    let diff = text.length ^ (2 * n)
    for (let i = 0; i < n; i++) {
      const b = bytes[i] as number
      diff |= (at(2 * i) ^ hexDigit(b >> 4)) | (at(2 * i + 1) ^ hexDigit(b & 15))
    }
    return diff === 0
  }
  const url = encoding === 'base64url'
  const rest = n % 3
  const length = url ? ((n - rest) / 3) * 4 + (rest === 0 ? 0 : rest + 1) : Math.ceil(n / 3) * 4
  let diff = text.length ^ length
  let j = 0
  for (let i = 0; i < n; i += 3) {
    // A short last group reads 0 past the end of `bytes`; its characters are then cut or padded.
    const v = ((bytes[i] as number) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0)
    const chars = i + 3 <= n ? 4 : n - i + 1
    diff |= at(j++) ^ base64Digit(v >> 18, url)
    diff |= at(j++) ^ base64Digit((v >> 12) & 63, url)
    if (chars > 2) diff |= at(j++) ^ base64Digit((v >> 6) & 63, url)
    else if (!url) diff |= at(j++) ^ 61 // '='
    if (chars > 3) diff |= at(j++) ^ base64Digit(v & 63, url)
    else if (!url) diff |= at(j++) ^ 61
  }
  return diff === 0
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
