/** Test support (not exported by the package): stores that fail, and a JSON POST. */

/** A store call that fails as a lost connection does. */
export const down = (): Promise<never> => Promise.reject(new Error('down'))

/** A store of every kind, each method failing (the ones that clean up succeed, as they may). */
export const failing = {
  increment: down,
  consume: down,
  validate: down,
  get: down,
  set: down,
  destroy: async () => {},
  acquire: down,
  renew: down,
  release: async () => {},
  claim: down,
  begin: down,
  complete: down,
  abandon: async () => {},
}

/** A POST of `body` declared as JSON. */
export const json = (body: string): RequestInit => ({
  method: 'POST',
  body,
  headers: { 'content-type': 'application/json' },
})
