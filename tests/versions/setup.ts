// Set by tests/versions/run.mjs: turns Palisade's borrowed internals off for the whole run
// (the switch users set, `globalThis.__PALISADE_NO_INTERNALS__ = true`).
if (process.env.PALISADE_NO_INTERNALS === '1') {
  Object.assign(globalThis, { __PALISADE_NO_INTERNALS__: true })
}
