import { digestHex } from './crypto'

/** Longest key kept as it is; longer keys are held as their SHA-256. */
export const MAX_VERBATIM_KEY = 128

const HASHED_PREFIX = 'sha256:'
/** Length of a hashed key: the prefix and 64 hex digits. */
const HASHED_LENGTH = HASHED_PREFIX.length + 64

/**
 * The form in which a client-derived key (a rate-limit key) is held in memory: the key itself up
 * to {@link MAX_VERBATIM_KEY} characters, else `sha256:<hex>` of it, so a client that can choose
 * long keys (a username, a body field) cannot make a store or cache hold its text: 300 keys of
 * 200 KB held verbatim are 60 MB.
 *
 * SHA-256, not a fast non-cryptographic hash: a key's count is shared by whatever collides with it,
 * and with a 32-bit or 64-bit hash an attacker could craft keys that land on a victim's counter.
 * A short key that already looks like a hashed one (`sha256:` and 64 hex digits) is hashed too, so
 * no key text, long or short, can name another key's entry. Short keys, the usual case, cost no
 * hashing and no await; WebCrypto's digest is asynchronous, hence the promise for long ones.
 *
 * @example
 * boundKey('203.0.113.7') // '203.0.113.7'
 * await boundKey('x'.repeat(200_000)) // 'sha256:…' (71 characters)
 */
export function boundKey(key: string): string | Promise<string> {
  if (
    key.length <= MAX_VERBATIM_KEY &&
    !(key.length === HASHED_LENGTH && key.startsWith(HASHED_PREFIX))
  ) {
    return key
  }
  return digestHex('SHA-256', key).then((hex) => HASHED_PREFIX + hex)
}
