/**
 * Durable Object stores for Cloudflare Workers.
 *
 * @module @palisade/middleware/cloudflare
 */
export * from '@palisade/middleware/cloudflare'
