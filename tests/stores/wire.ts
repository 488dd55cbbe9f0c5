/**
 * JSON for the `/rpc` of the remote test servers, with bytes: a `Uint8Array` (an idempotency
 * store's stored body) travels as `{ "$bytes": [..] }` and comes back as a `Uint8Array`.
 */
export function toWire(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v instanceof Uint8Array ? { $bytes: Array.from(v) } : v,
  )
}

/** Parses what {@link toWire} wrote. */
export function fromWire(text: string): unknown {
  return JSON.parse(text, (_key, v) =>
    v !== null && typeof v === 'object' && Array.isArray(v.$bytes) && Object.keys(v).length === 1
      ? Uint8Array.from(v.$bytes as number[])
      : v,
  )
}
