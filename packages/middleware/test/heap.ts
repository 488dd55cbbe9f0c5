/**
 * Test support (not exported by the package): proof that memory does not hold a text, from a V8
 * heap snapshot rather than from heap sizes or timing, so the answer does not depend on the load.
 */
import { getHeapSnapshot } from 'node:v8'

/**
 * Occurrences of the text `build()` returns among the strings the V8 heap holds, read from a heap
 * snapshot (which collects garbage first, so only what is reachable counts; it records each
 * string's first 1,024 characters). The needle is built after the snapshot, so it is not in it.
 */
export async function heapOccurrences(build: () => string): Promise<number> {
  const chunks: Buffer[] = []
  for await (const chunk of getHeapSnapshot()) chunks.push(chunk as Buffer)
  const snapshot = Buffer.concat(chunks)
  const needle = Buffer.from(build())
  let count = 0
  for (let at = snapshot.indexOf(needle); at !== -1; at = snapshot.indexOf(needle, at + 1)) count++
  return count
}

/** A 32-character marker, random per call so no other string of the process carries it. */
export const newMarker = (): string => crypto.randomUUID().replaceAll('-', '')

/**
 * Key number `i`: 200 KB made of `marker`, distinct per `i`. Decoded from bytes, so it is one flat
 * string (`repeat` and `+` build a tree of pieces, which the snapshot does not show as one text).
 */
export const longKey = (marker: string, i: number | string): string =>
  new TextDecoder().decode(new TextEncoder().encode(`${i}:${marker.repeat(6_250)}`))
