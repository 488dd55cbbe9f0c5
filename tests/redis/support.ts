/**
 * Helpers for tests that need a real Redis: the shared server (`REDIS_URL`, default
 * 127.0.0.1:6379), unique key prefixes per run, cleanup by prefix, and throwaway redis-server
 * processes for fault tests (the shared server is never stopped).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { createServer } from 'node:net'
import { fromIoredis, fromNodeRedis, type RedisCommand } from '@palisade/middleware/redis'
import { Redis } from 'ioredis'
import { createClient } from 'redis'
import { afterAll, beforeAll } from 'vitest'

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

/** A key prefix no other test run uses: `palisade-test:<label>:<pid>:<random>:`. */
export function uniquePrefix(label: string): string {
  return `palisade-test:${label}:${process.pid}:${randomUUID().slice(0, 8)}:`
}

/** An ioredis client that gives up quickly instead of queueing commands forever. */
export function ioredisClient(url = REDIS_URL): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: false })
  client.on('error', () => {})
  return client
}

/** A connected node-redis client. */
export async function nodeRedisClient(url = REDIS_URL) {
  const client = createClient({ url })
  client.on('error', () => {})
  await client.connect()
  return client
}

/**
 * Two app instances' connections to one Redis, as a multi-instance test wants them: instance A
 * through ioredis, instance B through node-redis, one key prefix for the file. Call it at the top
 * of a test file: it connects before the file's tests and deletes the prefix and disconnects after.
 */
export function twoInstanceClients(label: string) {
  const prefix = uniquePrefix(label)
  const io = ioredisClient()
  let node: Awaited<ReturnType<typeof nodeRedisClient>> | undefined
  beforeAll(async () => {
    node = await nodeRedisClient()
  })
  afterAll(async () => {
    await deleteByPrefix(fromIoredis(io), prefix)
    io.disconnect()
    await node?.close()
  })
  return {
    prefix,
    io,
    /** Instance A's command sender (ioredis). */
    a: fromIoredis(io),
    /** Instance B's command sender (node-redis), once connected. */
    b(): RedisCommand {
      if (!node) throw new Error('node-redis not connected')
      return fromNodeRedis(node)
    },
  }
}

const escapeGlob = (text: string) => text.replace(/[*?[\]\\]/g, '\\$&')

/** Every key under `prefix`, found with SCAN (never KEYS, which blocks the server). */
export async function keysWithPrefix(send: RedisCommand, prefix: string): Promise<string[]> {
  const keys: string[] = []
  let cursor = '0'
  do {
    const reply = (await send([
      'SCAN',
      cursor,
      'MATCH',
      `${escapeGlob(prefix)}*`,
      'COUNT',
      '1000',
    ])) as [string, string[]]
    cursor = String(reply[0])
    keys.push(...reply[1].map(String))
  } while (cursor !== '0')
  return keys
}

/** Deletes every key under `prefix`; returns how many there were. */
export async function deleteByPrefix(send: RedisCommand, prefix: string): Promise<number> {
  const keys = await keysWithPrefix(send, prefix)
  for (let i = 0; i < keys.length; i += 500) await send(['DEL', ...keys.slice(i, i + 500)])
  return keys.length
}

/** Every key under `prefix` with its type and value, as one text (for "no plain secret" checks). */
export async function dumpPrefix(send: RedisCommand, prefix: string): Promise<string> {
  const lines: string[] = []
  for (const key of await keysWithPrefix(send, prefix)) {
    const type = String(await send(['TYPE', key]))
    const value =
      type === 'hash'
        ? await send(['HGETALL', key])
        : type === 'string'
          ? await send(['GET', key])
          : `<${type}>`
    lines.push(`${key} (${type}) = ${JSON.stringify(value)}`)
  }
  return lines.join('\n')
}

/** A TCP port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  server.close()
  await once(server, 'close')
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `probe` until it returns true, for at most `ms`; resolves how long it took. */
export async function until(probe: () => Promise<boolean>, ms = 15_000): Promise<number> {
  const start = Date.now()
  while (Date.now() - start < ms) {
    if (await probe().catch(() => false)) return Date.now() - start
    await sleep(100)
  }
  throw new Error(`condition not met within ${ms} ms`)
}

/** A throwaway redis-server child process (no persistence) on `port`. */
export interface RedisServerProcess {
  readonly port: number
  readonly url: string
  /** SIGKILLs the server (a crash, not a clean shutdown) and waits for it to exit. */
  kill(): Promise<void>
}

/** Resolves once the redis-server `child` on `port` answers PING; rejects if it exits or is late. */
export async function waitForPing(
  port: number,
  child: ChildProcess,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`redis-server on ${port} exited with ${child.exitCode}`)
    }
    const probe = new Redis(port, '127.0.0.1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    })
    probe.on('error', () => {})
    try {
      await probe.connect()
      if ((await probe.ping()) === 'PONG') return
    } catch {
      // not up yet
    } finally {
      probe.disconnect()
    }
    if (Date.now() > deadline) {
      throw new Error(`redis-server on ${port} did not answer within ${timeoutMs} ms`)
    }
    await sleep(50)
  }
}

/**
 * Starts redis-server on `port` and resolves once it answers PING. Nothing is saved
 * automatically; with `dir`, an explicit SAVE writes `dir/dump.rdb`, which a server restarted
 * with the same `dir` loads (so a test can show what survived an outage).
 */
export async function startRedisServer(
  port: number,
  options: { dir?: string } = {},
): Promise<RedisServerProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']
  if (options.dir) args.push('--dir', options.dir, '--dbfilename', 'dump.rdb')
  const child: ChildProcess = spawn('redis-server', [...args, '--daemonize', 'no'], {
    stdio: 'ignore',
  })
  const exited = once(child, 'exit')
  const url = `redis://127.0.0.1:${port}`
  try {
    await waitForPing(port, child, 10_000)
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
  return {
    port,
    url,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL')
        await exited
      }
    },
  }
}

/** A running `examples/server.ts` child process. */
export interface ExampleServer {
  readonly url: string
  /** Everything the process wrote so far. */
  output(): string
  /** Whether the process is still running. */
  alive(): boolean
  /** SIGTERM, then SIGKILL after 5 s; resolves once the process is gone. */
  stop(): Promise<void>
}

const ROOT = new URL('../../', import.meta.url)

/**
 * Starts the example server (`node --import tsx examples/server.ts`) with `env` on top of this
 * process's environment, and resolves once it prints `listening on http://127.0.0.1:<port>`.
 */
export function startExampleServer(env: Record<string, string>): Promise<ExampleServer> {
  return startServerProcess('examples/server.ts', env)
}

/**
 * Starts `script` (a path from the repository root) with `node --import tsx` and `env` on top of
 * this process's environment, and resolves once it prints `listening on http://127.0.0.1:<port>`.
 */
export async function startServerProcess(
  script: string,
  env: Record<string, string>,
): Promise<ExampleServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const exited = once(child, 'exit')
  const alive = () => child.exitCode === null && child.signalCode === null
  const stop = async () => {
    if (!alive()) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
    await exited
    clearTimeout(timer)
  }
  const deadline = Date.now() + 30_000
  for (;;) {
    const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
    if (match?.[1]) return { url: match[1], output: () => output, alive, stop }
    if (!alive() || Date.now() > deadline) {
      await stop()
      throw new Error(`${script} did not start (env ${JSON.stringify(env)}):\n${output}`)
    }
    await sleep(50)
  }
}
