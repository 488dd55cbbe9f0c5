import { isRecord } from '../schema/common'
import type { OpenAPIApp } from './router-types'

/** Where `openapi()` leaves its wrapper on the Hono app it wraps, so tools can start from either. */
export const WRAPPER_KEY = Symbol.for('palisade.openapi.app')

/**
 * The `OpenAPIApp` behind `input`: the wrapper itself, or the Hono app `openapi()` wrapped.
 * Throws a `TypeError` starting with `name` for anything else.
 */
export function resolveApp(input: unknown, name: string): OpenAPIApp {
  if (isRecord(input) || typeof input === 'function') {
    const value = input as Record<string | symbol, unknown>
    const wrapped = value[WRAPPER_KEY]
    if (wrapped !== undefined) return wrapped as OpenAPIApp
    if (Array.isArray(value.routes) && typeof value.spec === 'function') {
      if (typeof value.request === 'function') return input as unknown as OpenAPIApp
    }
  }
  throw new TypeError(
    `${name}: expected the app openapi() returns (or the Hono app it wraps), got ${
      input === null ? 'null' : typeof input
    }`,
  )
}
