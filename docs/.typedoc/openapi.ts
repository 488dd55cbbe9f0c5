/**
 * OpenAPI 3.1.0 documentation, validation and docs pages for Hono apps.
 *
 * @module @palisade/openapi
 */
export * from '@palisade/openapi'
