import { digestHex } from '../crypto'

/** Longest key kept as it is; longer keys are held as their SHA-256. */
export const MAX_VERBATIM_KEY = 128

const HASHED_PREFIX = 'sha256:'
/** Length of a hashed key: the prefix and 64 hex digits. */
const HASHED_LENGTH = HASHED_PREFIX.length + 64
/**
 * Characters no backend can hold as they are: NUL (PostgreSQL text refuses it) and a lone
 * surrogate (UTF-8 encoders turn every one of them into U+FFFD, so two keys would share a row).
 */
const UNSTORABLE = /[\0\p{Cs}]/u

/**
 * The form in which a client-derived key (a rate-limit or concurrency key) is held in memory and
 * sent to a backend: the key itself up to {@link MAX_VERBATIM_KEY} characters, else
 * `sha256:<hex>` of it, so a client that can choose long keys (a username, a body field) cannot
 * make a store or cache hold its text (300 keys of 200 KB held verbatim are 60 MB), nor pass a
 * backend's own bound (PostgreSQL's index row size, Deno KV's 2 KiB key, a Durable Object's key).
 * A key with a NUL or a lone surrogate is hashed too, whatever its length: PostgreSQL refuses NUL
 * in text, and UTF-8 drivers would merge every lone surrogate into U+FFFD (such a key is hashed
 * in its JSON form, which keeps each surrogate apart).
 * Every backend store applies it to the key it is given, so the key text never reaches SQL or a
 * storage key unbounded.
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
 * await boundKey('a\u0000b') // 'sha256:…'
 */
export function boundKey(key: string): string | Promise<string> {
  const unstorable = UNSTORABLE.test(key)
  if (
    !unstorable &&
    key.length <= MAX_VERBATIM_KEY &&
    !(key.length === HASHED_LENGTH && key.startsWith(HASHED_PREFIX))
  ) {
    return key
  }
  // The JSON form after a NUL: no key hashed as it is holds a NUL, so the two never meet.
  const text = unstorable ? `\0${JSON.stringify(key)}` : key
  return digestHex('SHA-256', text).then((hex) => HASHED_PREFIX + hex)
}
