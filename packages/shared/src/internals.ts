// The one switch that turns off every read of another package's internals, in both packages
// (ARCHITECTURE.md "Borrowed internals"): `globalThis.__PALISADE_NO_INTERNALS__ = true`. Each
// adapter (middleware `internal/http/node-server.ts`, openapi `app/hono-internals.ts`) asks it
// on every call, so a test can turn it on and off around the same app.

/**
 * True when the user switched the borrowed internals off (`__PALISADE_NO_INTERNALS__` on
 * `globalThis`, the one place every runtime has, set before or after the app is built).
 */
export function internalsSwitchedOff(): boolean {
  return (globalThis as { __PALISADE_NO_INTERNALS__?: unknown }).__PALISADE_NO_INTERNALS__ === true
}
