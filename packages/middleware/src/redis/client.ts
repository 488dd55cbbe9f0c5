import { digestHex, lazy } from '../internal/crypto'
import { assertFunction } from '../internal/options'
import { parseStoredObject, storeOptions } from '../internal/stores/store-args'

/**
 * Sends one raw Redis command and resolves with its reply. This is the only thing the Redis stores
 * need from a client, so the package depends on none: wrap whichever client the app already has
 * (see {@link fromIoredis} and {@link fromNodeRedis}). Errors must reject the promise; the stores
 * pass them on untouched, so the middleware's failure policy decides what the request gets.
 *
 * @example
 * const sendCommand: RedisCommand = (args) => client.call(args[0]!, ...args.slice(1))
 */
export type RedisCommand = (args: string[]) => Promise<unknown>

/**
 * The part of an ioredis client the adapter uses.
 *
 * @example
 * const client: IoredisLike = new Redis(process.env.REDIS_URL!)
 * const store = new RedisRateLimitStore({ sendCommand: fromIoredis(client) })
 */
export interface IoredisLike {
  call(command: string, ...args: string[]): Promise<unknown>
}

/**
 * The part of a node-redis (v5+) client the adapter uses.
 *
 * @example
 * const client: NodeRedisLike = await createClient({ url: process.env.REDIS_URL }).connect()
 * const store = new RedisSessionStore({ sendCommand: fromNodeRedis(client) })
 */
export interface NodeRedisLike {
  sendCommand(args: string[]): Promise<unknown>
}

/**
 * Adapts an `ioredis` client: `(args) => client.call(args[0], ...args.slice(1))`. An ioredis
 * `Cluster` fits too: it finds each command's keys itself (including `EVALSHA`'s) and routes it to
 * the node that owns their slot.
 *
 * @param client - A connected `ioredis` client (`new Redis(url)`).
 * @example
 * import { Redis } from 'ioredis'
 * const client = new Redis(process.env.REDIS_URL!)
 * const store = new RedisRateLimitStore({ sendCommand: fromIoredis(client) })
 */
export function fromIoredis(client: IoredisLike): RedisCommand {
  return (args) => client.call(args[0] as string, ...args.slice(1))
}

/**
 * Adapts a `redis` (node-redis v5 or later) client: `(args) => client.sendCommand(args)`.
 *
 * @param client - A connected node-redis client (`await createClient({ url }).connect()`).
 * @example
 * import { createClient } from 'redis'
 * const client = await createClient({ url: process.env.REDIS_URL }).connect()
 * const store = new RedisSessionStore({ sendCommand: fromNodeRedis(client) })
 */
export function fromNodeRedis(client: NodeRedisLike): RedisCommand {
  return (args) => client.sendCommand(args)
}

/**
 * The part of a node-redis (v5+) cluster client the adapter uses. Unlike a single-node client, a
 * cluster needs the command's first key to pick the node that owns its slot.
 *
 * @example
 * const cluster: NodeRedisClusterLike = await createCluster({ rootNodes }).connect()
 * const store = new RedisRateLimitStore({ sendCommand: fromNodeRedisCluster(cluster) })
 */
export interface NodeRedisClusterLike {
  sendCommand(
    firstKey: string | undefined,
    isReadonly: boolean | undefined,
    args: string[],
  ): Promise<unknown>
}

/**
 * The first key of a command the stores send, for cluster routing: after `numkeys` for
 * `EVAL`/`EVALSHA`/`FCALL` (none when `numkeys` is 0), the first argument for every other command.
 */
export function firstKeyOf(args: readonly string[]): string | undefined {
  const name = (args[0] ?? '').toUpperCase()
  if (name === 'EVAL' || name === 'EVALSHA' || name === 'EVAL_RO' || name === 'EVALSHA_RO') {
    return Number(args[2]) > 0 ? args[3] : undefined
  }
  if (name === 'FCALL' || name === 'FCALL_RO') return Number(args[2]) > 0 ? args[3] : undefined
  return args[1]
}

/**
 * Adapts a node-redis (v5+) **cluster** (`createCluster`): routes each command by its first key
 * (a script's first key after `numkeys`, else the command's first argument) and always to the
 * slot's master (`isReadonly: false`), so a read never sees a replica that lags behind. For ioredis, {@link fromIoredis} takes a `Cluster` as is.
 *
 * @param cluster - A connected node-redis cluster (`await createCluster({ rootNodes }).connect()`).
 * @example
 * import { createCluster } from 'redis'
 * const cluster = await createCluster({ rootNodes: [{ url: 'redis://10.0.0.1:7000' }] }).connect()
 * const store = new RedisSessionStore({ sendCommand: fromNodeRedisCluster(cluster) })
 */
export function fromNodeRedisCluster(cluster: NodeRedisClusterLike): RedisCommand {
  return (args) => cluster.sendCommand(firstKeyOf(args), false, args)
}

/**
 * Options every Redis store takes.
 *
 * @example
 * const options: RedisStoreOptions = { sendCommand: fromIoredis(client), prefix: 'shop:' }
 */
export interface RedisStoreOptions {
  /** Sends one command to Redis; see {@link RedisCommand}. Required. */
  sendCommand: RedisCommand
  /** Prepended to every key the store writes, so several apps can share one Redis. */
  prefix?: string
}

/** Validates the options shared by all Redis stores; returns the command function and prefix. */
export function redisStoreOptions(
  store: string,
  options: RedisStoreOptions | undefined,
  defaultPrefix: string,
): { send: RedisCommand; prefix: string } {
  const prefix = storeOptions(store, options, 'sendCommand', defaultPrefix)
  const send = assertFunction<RedisCommand>(store, 'sendCommand', options?.sendCommand)
  return { send, prefix }
}

const decoder = new TextDecoder()

/**
 * A bulk-string reply as text: clients answer with a string by default and with bytes (a Buffer
 * is a Uint8Array) when configured for binary replies. Anything else is not a string reply.
 */
export function replyText(reply: unknown): string | null {
  if (typeof reply === 'string') return reply
  if (reply instanceof Uint8Array) return decoder.decode(reply)
  return null
}

/** An integer reply; clients return numbers, some configurations return strings or bigints. */
export function replyInteger(reply: unknown): number | null {
  if (typeof reply === 'number') return Number.isInteger(reply) ? reply : null
  if (typeof reply === 'bigint') return Number(reply)
  const text = replyText(reply)
  if (text === null || !/^-?\d+$/.test(text)) return null
  return Number(text)
}

/** Whether an error is Redis's "script not in cache" reply (after a restart or SCRIPT FLUSH). */
export function isNoScriptError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error)
  return message.startsWith('NOSCRIPT')
}

/** A Lua script and its SHA-1 (computed once, on first use). */
export interface RedisScript {
  readonly source: string
  readonly sha: () => Promise<string>
}

/**
 * Wraps a Lua script for {@link runScript}.
 *
 * @example
 * const INCR = redisScript("return redis.call('INCR', KEYS[1])")
 */
export function redisScript(source: string): RedisScript {
  return { source, sha: lazy(() => digestHex('SHA-1', source)) }
}

/**
 * Runs a script in one round trip: `EVALSHA`, re-sent as `EVAL` (which also caches it again) only
 * when Redis answers `NOSCRIPT` after a restart, a failover or `SCRIPT FLUSH`. Any other failure
 * (connection, OOM) is passed on rather than doubling the load on a struggling server. The keys
 * are declared, so Redis Cluster clients route the call by them; callers keep them in one slot.
 *
 * @example
 * const count = await runScript(send, INCR, ['rl:{203.0.113.7}'], [])
 */
export async function runScript(
  send: RedisCommand,
  script: RedisScript,
  keys: readonly string[],
  args: readonly string[],
): Promise<unknown> {
  const tail = [String(keys.length), ...keys, ...args]
  try {
    return await send(['EVALSHA', await script.sha(), ...tail])
  } catch (error) {
    if (!isNoScriptError(error)) throw error
    return send(['EVAL', script.source, ...tail])
  }
}

/** Parses a stored JSON object; a corrupt or non-object value reads as missing. */
export function parseJsonObject(reply: unknown): Record<string, unknown> | null {
  return parseStoredObject(replyText(reply))
}
