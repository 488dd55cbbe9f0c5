/**
 * An interval that does not keep the process alive: `unref()` on Node and Bun, `Deno.unrefTimer`
 * on Deno. Used by the memory stores' sweeps, which must never hold a server open on shutdown.
 */
export function unrefInterval(fn: () => void, ms: number): () => void {
  const handle: unknown = setInterval(fn, ms)
  if (handle && typeof handle === 'object' && 'unref' in handle) {
    ;(handle as { unref: () => void }).unref()
  } else if (typeof handle === 'number') {
    const deno = (globalThis as { Deno?: { unrefTimer?: (id: number) => void } }).Deno
    deno?.unrefTimer?.(handle)
  }
  return () => clearInterval(handle as ReturnType<typeof setInterval>)
}
