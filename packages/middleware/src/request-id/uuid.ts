// requestId()'s default generator: a random version 4 UUID, as `crypto.randomUUID()` makes, built
// as one flat string. Node builds randomUUID()'s 36 characters by adding up 20 pieces, a tree of
// about a dozen cons strings (about 0.6 KB a request) that the first reader of the ID (the
// response header, the log line) must flatten again; this fills one array of character codes
// and makes the string from it in one step (bench/FINDINGS.md, issue 42).

/** Random bytes for this many UUIDs are drawn at once, as Node's randomUUID() does (128). */
const UUIDS_PER_DRAW = 128
const pool = new Uint8Array(16 * UUIDS_PER_DRAW)
let next = pool.length

const HEX = Array.from('0123456789abcdef', (ch) => ch.charCodeAt(0))
/** Where each of the 16 bytes' two hex digits go in `xxxxxxxx-xxxx-4xxx-Nxxx-xxxxxxxxxxxx`. */
const AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34]
const codes: number[] = Array.from('xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx', (ch) => ch.charCodeAt(0))

/**
 * A random UUID, version 4 (RFC 9562 §5.4): 122 random bits from `crypto.getRandomValues`, the
 * version and variant bits set, lower-case hex.
 */
export function randomUuid(): string {
  if (next === pool.length) {
    crypto.getRandomValues(pool)
    next = 0
  }
  for (let i = 0; i < 16; i++) {
    let byte = pool[next + i] as number
    // The version (4) in byte 6, the variant (binary 10) in byte 8.
    if (i === 6) byte = (byte & 0x0f) | 0x40
    else if (i === 8) byte = (byte & 0x3f) | 0x80
    const at = AT[i] as number
    codes[at] = HEX[byte >> 4] as number
    codes[at + 1] = HEX[byte & 0x0f] as number
  }
  next += 16
  return String.fromCharCode(...codes)
}
