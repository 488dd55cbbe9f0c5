import { optionError } from '../internal/options'
import { storeOptions } from '../internal/store-args'

/** A Deno KV key: an array of parts (`Deno.KvKey`). */
export type DenoKvKey = readonly unknown[]

/**
 * One read from Deno KV (`Deno.KvEntryMaybe`): `versionstamp` is `null` when the key is absent.
 *
 * @example
 * const entry: DenoKvEntryLike<number> = await kv.get(['hits'])
 */
export interface DenoKvEntryLike<T> {
  value: T | null
  versionstamp: string | null
}

/**
 * The part of `Deno.AtomicOperation` the stores use.
 *
 * @example
 * const op: DenoKvAtomicLike = kv.atomic()
 */
export interface DenoKvAtomicLike {
  check(...checks: { key: DenoKvKey; versionstamp: string | null }[]): DenoKvAtomicLike
  set(key: DenoKvKey, value: unknown, options?: { expireIn?: number }): DenoKvAtomicLike
  delete(key: DenoKvKey): DenoKvAtomicLike
  commit(): Promise<{ ok: boolean }>
}

/**
 * The part of a `Deno.Kv` handle the stores use. Pass the handle itself
 * (`await Deno.openKv()`): the package reads no `Deno` global.
 *
 * @example
 * const kv: DenoKvLike = await Deno.openKv()
 */
export interface DenoKvLike {
  get<T = unknown>(key: DenoKvKey): Promise<DenoKvEntryLike<T>>
  set(key: DenoKvKey, value: unknown, options?: { expireIn?: number }): Promise<unknown>
  delete(key: DenoKvKey): Promise<void>
  atomic(): DenoKvAtomicLike
}

/**
 * Options every Deno KV store takes.
 *
 * @example
 * const options: DenoKvStoreOptions = { kv: await Deno.openKv(), prefix: 'shop:rl' }
 */
export interface DenoKvStoreOptions {
  /** An open Deno KV handle (`await Deno.openKv()`). Required. */
  kv: DenoKvLike
  /** First part of every key the store writes, so several apps or stores can share one KV. */
  prefix?: string
}

/** Validates a Deno KV store's options; returns the handle and prefix. */
export function denoKvStoreOptions(
  store: string,
  options: DenoKvStoreOptions | undefined,
  defaultPrefix: string,
): { kv: DenoKvLike; prefix: string } {
  const prefix = storeOptions(store, options, 'kv', defaultPrefix)
  const kv = options?.kv as Partial<DenoKvLike> | undefined
  if (
    kv === null ||
    typeof kv !== 'object' ||
    typeof kv.get !== 'function' ||
    typeof kv.atomic !== 'function'
  ) {
    throw optionError(store, '"kv" must be an open Deno KV handle (await Deno.openKv())')
  }
  return { kv: kv as DenoKvLike, prefix }
}

/** How many times a check-and-set is retried after losing a race before the call fails. */
const MAX_ATTEMPTS = 512

/**
 * Runs `attempt` until it commits: `attempt` reads, then commits an atomic operation guarded by
 * `check` on what it read, and returns `undefined` when the check failed (someone wrote in
 * between). Short random pauses spread the retries of many concurrent writers.
 */
export async function checkAndSet<T>(
  store: string,
  attempt: () => Promise<{ committed: true; value: T } | undefined>,
): Promise<T> {
  for (let i = 0; i < MAX_ATTEMPTS; i++) {
    const result = await attempt()
    if (result) return result.value
    if (i >= 4) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(i, 20)))
  }
  throw new Error(`${store}: gave up after ${MAX_ATTEMPTS} conflicting writes`)
}
