import { sha256Hex, sha256HexSync } from '../internal/crypto'

/** Keys up to this many characters are hashed synchronously (about 16 µs at the limit). */
const SYNC_HASH_MAX_LENGTH = 4096

/**
 * SHA-256 hex of an API key, as the stores keep it. A key of ordinary length is hashed in
 * JavaScript: WebCrypto's digest is a thread-pool job on Node, dearer than hashing a few dozen
 * bytes. A longer string (only reachable by calling a store directly: the middleware caps keys
 * at 4,096 characters) goes to WebCrypto rather than block the event loop. Both give the same hex.
 */
export function hashApiKey(key: string): string | Promise<string> {
  return key.length <= SYNC_HASH_MAX_LENGTH ? sha256HexSync(key) : sha256Hex(key)
}
