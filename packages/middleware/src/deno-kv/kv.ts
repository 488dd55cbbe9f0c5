import type { Context } from 'hono'
import { optionError } from '../internal/options'
import { storeOptions } from '../internal/stores/store-args'
import { ContextBinding, unboundStoreError } from '../internal/stores/store-binding'

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
 * Reads the Deno KV handle from the request's context, or opens it on first use: the handle or
 * the promise of one (`Deno.openKv()`). Return the same handle or promise on every call (it is
 * what the store is kept for), e.g. `const opening = Deno.openKv(); … kv: () => opening`.
 *
 * @example
 * let opening: Promise<DenoKvLike> | undefined
 * const resolve: DenoKvResolver = () => (opening ??= Deno.openKv())
 */
// biome-ignore lint/suspicious/noExplicitAny: c.env is typed by the app's Bindings, unknown here
export type DenoKvResolver = (c: Context<any>) => DenoKvLike | Promise<DenoKvLike>

/**
 * Options every Deno KV store takes.
 *
 * @example
 * const options: DenoKvStoreOptions = { kv: await Deno.openKv(), prefix: 'shop:rl' }
 */
export interface DenoKvStoreOptions {
  /**
   * An open Deno KV handle (`await Deno.openKv()`), or a resolver that returns it (or the
   * promise of it) for a request, so the store can be built before the handle is open. Required.
   */
  kv: DenoKvLike | DenoKvResolver
  /** First part of every key the store writes, so several apps or stores can share one KV. */
  prefix?: string
}

/** What a Deno KV store is built on: its handle, prefix and context binding. */
export interface DenoKvTarget<S> {
  /** The handle; with a resolver, one whose every call rejects until `forContext(c)`. */
  kv: DenoKvLike
  prefix: string
  /** For `forContext(c)`: the store itself, or (resolver) the store on the resolved handle. */
  forContext(c: Context, self: S, make: (kv: DenoKvLike) => S): S
}

/** Validates a Deno KV store's options; returns the handle, prefix and context binding. */
export function denoKvStoreOptions<S>(
  store: string,
  options: DenoKvStoreOptions | undefined,
  defaultPrefix: string,
  needs: readonly (keyof DenoKvLike | 'list')[] = ['get', 'atomic'],
): DenoKvTarget<S> {
  const prefix = storeOptions(store, options, 'kv', defaultPrefix)
  const binding = new ContextBinding<object, S>(store, 'a Deno KV handle', options?.kv)
  const forContext = (c: Context, self: S, make: (kv: DenoKvLike) => S): S =>
    binding.bind(c, self, (handle) =>
      make(
        'then' in handle
          ? openingKv(store, handle as Promise<unknown>, needs)
          : (handle as DenoKvLike),
      ),
    )
  if (binding.resolves) return { kv: unboundKv(store), prefix, forContext }
  const kv = options?.kv
  if (!isKv(kv, needs)) {
    throw optionError(
      store,
      `"kv" must be an open Deno KV handle (await Deno.openKv()) with ${needs.join(', ')}, or a resolver`,
    )
  }
  return { kv, prefix, forContext }
}

function isKv(kv: unknown, needs: readonly string[]): kv is DenoKvLike {
  return (
    kv !== null &&
    typeof kv === 'object' &&
    needs.every((m) => typeof (kv as Record<string, unknown>)[m] === 'function')
  )
}

/** The handle of a store built with a resolver, used without `forContext(c)`: every call fails. */
function unboundKv(store: string): DenoKvLike {
  const fail = (): never => {
    throw unboundStoreError(store)
  }
  return {
    get: async () => fail(),
    set: async () => fail(),
    delete: async () => fail(),
    atomic: fail,
  }
}

/**
 * A handle over the promise a resolver returned: each call waits for the promise (KV calls are
 * I/O anyway); an atomic operation is recorded and replayed on the real handle at `commit()`.
 */
function openingKv(store: string, opening: Promise<unknown>, needs: readonly string[]): DenoKvLike {
  const open = async (): Promise<DenoKvLike & { list?: DenoKvListLike['list'] }> => {
    const kv = await opening
    if (!isKv(kv, needs))
      throw new TypeError(`${store}: the resolver's promise gave no Deno KV handle`)
    return kv
  }
  const handle: DenoKvLike & DenoKvListLike = {
    get: async (key) => (await open()).get(key),
    set: async (key, value, options) => (await open()).set(key, value, options),
    delete: async (key) => (await open()).delete(key),
    async *list<T>(selector: { prefix: DenoKvKey }) {
      const kv = await open()
      if (kv.list) yield* kv.list<T>(selector)
    },
    atomic() {
      const steps: ((op: DenoKvAtomicLike) => unknown)[] = []
      const recorder: DenoKvAtomicLike = {
        check(...checks) {
          steps.push((op) => op.check(...checks))
          return recorder
        },
        set(key, value, options) {
          steps.push((op) => op.set(key, value, options))
          return recorder
        },
        delete(key) {
          steps.push((op) => op.delete(key))
          return recorder
        },
        async commit() {
          const op = (await open()).atomic()
          for (const step of steps) step(op)
          return op.commit()
        },
      }
      return recorder
    },
  }
  return handle
}

/**
 * The `list` of a `Deno.Kv` handle, which the concurrency store needs beyond {@link DenoKvLike}:
 * the entries whose key starts with `prefix` (not the prefix key itself).
 *
 * @example
 * const kv: DenoKvLike & DenoKvListLike = await Deno.openKv()
 */
export interface DenoKvListLike {
  list<T = unknown>(selector: {
    prefix: DenoKvKey
  }): AsyncIterable<{
    key: DenoKvKey
    value: T
    versionstamp: string
  }>
}

/**
 * Whether `error` is SQLite's "database is locked": on a local KV file that another process is
 * writing, a commit can find the file busy (Deno throws a TypeError with that message). Reads are
 * never refused.
 */
export function isBusy(error: unknown): boolean {
  return error instanceof Error && /\bdatabase (?:table )?is (?:locked|busy)\b/i.test(error.message)
}

/** How many times in all a write is tried while the local KV file is busy. */
export const BUSY_ATTEMPTS = 8
/** The longest pause between two tries of a busy write (ms); they start at 4 ms and double. */
const BUSY_PAUSE_MS = 100

/**
 * Runs `write` (a whole check-and-set: it re-reads before it commits again), trying it again
 * while the local KV file is busy, up to {@link BUSY_ATTEMPTS} times in all with short random
 * pauses that double (at most about half a second in all); any other error, and the last busy
 * one, propagate.
 */
export async function retryBusy<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write()
    } catch (error) {
      if (attempt >= BUSY_ATTEMPTS || !isBusy(error)) throw error
      const ceiling = Math.min(4 * 2 ** (attempt - 1), BUSY_PAUSE_MS)
      await new Promise((resolve) =>
        setTimeout(resolve, ceiling / 2 + (Math.random() * ceiling) / 2),
      )
    }
  }
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
