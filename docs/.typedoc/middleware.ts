/**
 * Security and utility middleware for Hono. Every export of the root entry; each middleware is
 * also its own subpath (`@palisade/middleware/cors`, …).
 *
 * @module @palisade/middleware
 */
export * from '@palisade/middleware'
