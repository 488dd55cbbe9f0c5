/**
 * What the store suites share around their assertions: a fresh store per test (made before it,
 * released after it), keys no other run uses, real-time sleeps, and, for the killed-instance
 * tests, a store connection that can be cut and the shared Redis and PostgreSQL they run on.
 * The suites' checks stay in their own files; only the set-up lives here.
 */
import type { PostgresClient } from '@palisade/middleware/postgres'
import { fromIoredis, type RedisCommand } from '@palisade/middleware/redis'
import { afterAll, afterEach, beforeEach, expect } from 'vitest'
import { dropStoreTable, pgPool, uniqueTable } from '../postgres/support'
import { deleteByPrefix, ioredisClient, keysWithPrefix, uniquePrefix } from '../redis/support'

/** A factory of fresh, empty stores. */
export type Factory<S> = () => S | Promise<S>

/** How a conformance block releases its stores. */
export interface StoreRelease<S> {
  /** Called after each test with the store the factory returned (stop timers, delete keys). */
  release?: (store: S) => unknown
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let run = 0
/** A key no other test (or earlier run against a shared server) uses. */
export const freshKey = (label: string) =>
  `${label}:${Date.now().toString(36)}:${(++run).toString(36)}:${Math.random().toString(36).slice(2, 8)}`

/**
 * Registers `beforeEach`/`afterEach` hooks that make a store for each test and release it after,
 * and returns a getter for the current test's store (it throws outside a test).
 */
export function useStore<S>(makeStore: Factory<S>, options: StoreRelease<S> | undefined): () => S {
  let store: S | undefined
  beforeEach(async () => {
    store = await makeStore()
  })
  afterEach(async () => {
    if (store !== undefined) await options?.release?.(store)
    store = undefined
  })
  return () => {
    if (store === undefined) throw new Error('store used outside a test')
    return store
  }
}

/**
 * Cuts an instance off its store: every call after `kill()` fails and reaches nothing. Records
 * when the last successful call was sent (`sent`) and answered (`acked`), so a test judges expiry
 * against what the store was told, never against an assumed time.
 */
export class Lifeline {
  alive = true
  sent = 0
  acked = 0
  /** Wraps one store call. */
  async call<T>(send: () => Promise<T>): Promise<T> {
    if (!this.alive) throw new Error('instance killed')
    const sent = Date.now()
    const result = await send()
    if (!this.alive) throw new Error('instance killed')
    this.sent = sent
    this.acked = Date.now()
    return result
  }
  kill(): void {
    this.alive = false
  }
  /** A Redis connection through this line. */
  redis(send: RedisCommand): RedisCommand {
    return (args) => this.call(() => send(args))
  }
  /** A PostgreSQL client through this line. */
  postgres(pool: ReturnType<typeof pgPool>): PostgresClient {
    return {
      query: (text: string, values?: unknown[]) => this.call(() => pool.query(text, values)),
    }
  }
}

/**
 * The shared Redis and PostgreSQL of a killed-instance test, with a key prefix and a table of its
 * own (`label`): registers an `afterAll` that deletes both and checks no key was left behind.
 */
export function sharedBackends(label: string) {
  const redis = ioredisClient()
  const send = fromIoredis(redis)
  const pool = pgPool()
  const prefix = uniquePrefix(label)
  const table = uniqueTable(label.replaceAll('-', ''))
  afterAll(async () => {
    await deleteByPrefix(send, prefix)
    const left = await keysWithPrefix(send, prefix)
    redis.disconnect()
    await dropStoreTable(pool, table)
    await pool.end()
    expect(left).toEqual([])
  })
  return { send, pool, prefix, table }
}
