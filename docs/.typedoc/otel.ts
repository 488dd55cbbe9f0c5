/**
 * OpenTelemetry bridge: each middleware decision as a span event, a counter and a store latency
 * histogram. Needs `@opentelemetry/api` (an optional peer dependency).
 *
 * @module @palisade/middleware/otel
 */
export * from '@palisade/middleware/otel'
