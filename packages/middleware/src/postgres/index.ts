/**
 * PostgreSQL-backed stores for `rateLimit`, `concurrencyLimit`, `idempotency`, `sessions`, `apiKey` and the
 * replay checks (`PostgresNonceStore`), for
 * apps that run more than one instance and have PostgreSQL but no Redis. No driver is a
 * dependency: each store takes the app's own client, a `pg` Pool or Client or a postgres.js
 * `sql`, told apart by its shape. Tables are created by each store's `migrate()` (or its `schema`
 * SQL), never on a request.
 */

export { PostgresApiKeyStore, type PostgresApiKeyStoreOptions } from './api-key-store'
export type {
  PgLike,
  PostgresClient,
  PostgresJsLike,
  PostgresStoreOptions,
} from './client'
export {
  PostgresConcurrencyStore,
  type PostgresConcurrencyStoreOptions,
} from './concurrency-store'
export {
  PostgresIdempotencyStore,
  type PostgresIdempotencyStoreOptions,
} from './idempotency-store'
export { PostgresNonceStore, type PostgresNonceStoreOptions } from './nonce-store'
export { PostgresRateLimitStore, type PostgresRateLimitStoreOptions } from './rate-limit-store'
export { PostgresSessionStore, type PostgresSessionStoreOptions } from './session-store'
