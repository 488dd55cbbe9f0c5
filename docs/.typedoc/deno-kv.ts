/**
 * Deno KV stores.
 *
 * @module @palisade/middleware/deno-kv
 */
export * from '@palisade/middleware/deno-kv'
