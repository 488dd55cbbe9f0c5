/**
 * Chooses the example app's stores: in-memory by default, Redis when `REDIS_URL` is set, so the
 * same app scales out by starting more processes against one Redis.
 *
 *   REDIS_URL      redis://host:port — use the Redis stores (unset: memory stores)
 *   REDIS_PREFIX   key prefix shared by all instances of one app (default 'palisade:')
 *   REDIS_CLIENT   'ioredis' (default) or 'node-redis' — both work through a one-line adapter
 */
import type { ApiKeyLifecycleStore } from '@palisade/middleware/api-key'
import { MemoryApiKeyStore } from '@palisade/middleware/api-key'
import type { IdempotencyStore } from '@palisade/middleware/idempotency'
import { MemoryIdempotencyStore } from '@palisade/middleware/idempotency'
import type { RateLimitStore } from '@palisade/middleware/rate-limit'
import { MemoryRateLimitStore } from '@palisade/middleware/rate-limit'
import type { RedisCommand } from '@palisade/middleware/redis'
import type { SessionStore } from '@palisade/middleware/sessions'
import { MemorySessionStore } from '@palisade/middleware/sessions'
// The Redis stores and both clients are imported only when REDIS_URL is set (below): loading
// them costs the start of every memory-store run a few hundred modules it never uses.

export interface AppStores {
  rateLimitStore: RateLimitStore
  sessionStore: SessionStore
  /** Partner API keys with their lifecycle (expiry, limits, rotation, revocation). */
  apiKeyStore: ApiKeyLifecycleStore
  /** Idempotency-Key records (POST /api/comments). */
  idempotencyStore: IdempotencyStore
  kind: 'memory' | 'redis'
  /** Releases timers (memory) or the Redis connection. */
  close(): Promise<void>
}

type Env = Record<string, string | undefined>

/** The URL without its password, for log lines. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  } catch {
    return '<unparseable REDIS_URL>'
  }
}

/** Logs the first error of each outage, then stays quiet until the connection is back. */
function outageLogger(url: string) {
  let down = false
  return {
    error(error: unknown) {
      if (down) return
      down = true
      const reason = error instanceof Error ? error.message : String(error)
      console.warn(`redis ${redactUrl(url)} unavailable, retrying: ${reason}`)
    },
    ready() {
      if (down) console.warn(`redis ${redactUrl(url)} reconnected`)
      down = false
    },
  }
}

// Reconnect forever, at most once a second, so the app recovers on its own when Redis returns.
const retryDelay = (attempt: number) => Math.min(attempt * 100, 1_000)

/**
 * Waits for the first connection, at most 5 s. Clients keep retrying on their own, so a failed
 * start must also stop the client, or its reconnect timer would keep the process alive.
 */
async function startup(connecting: Promise<unknown>, stop: () => void): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no connection within 5 s')), 5_000)
  })
  try {
    await Promise.race([connecting, timeout])
  } catch (error) {
    stop()
    throw error
  } finally {
    clearTimeout(timer)
  }
}

/**
 * An ioredis connection tuned for a web app: while Redis is down, commands fail at once (no
 * offline queue, one retry) so requests get a fast 503 instead of hanging, and the 'error'
 * listener keeps connection errors from crashing the process.
 */
async function connectIoredis(
  url: string,
): Promise<{ send: RedisCommand; close(): Promise<void> }> {
  const [{ Redis }, { fromIoredis }] = await Promise.all([
    import('ioredis'),
    import('@palisade/middleware/redis'),
  ])
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: retryDelay,
  })
  const log = outageLogger(url)
  client.on('error', log.error)
  client.on('ready', log.ready)
  await startup(client.connect(), () => client.disconnect())
  return {
    send: fromIoredis(client),
    async close() {
      await client.quit().catch(() => client.disconnect())
    },
  }
}

/** The same for node-redis (v5+): no offline queue, endless reconnects, an 'error' listener. */
async function connectNodeRedis(
  url: string,
): Promise<{ send: RedisCommand; close(): Promise<void> }> {
  const [{ createClient }, { fromNodeRedis }] = await Promise.all([
    import('redis'),
    import('@palisade/middleware/redis'),
  ])
  let connectedOnce = false
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 2_000,
      // node-redis also retries the first connect; give up early then (returning the cause stops
      // it), and retry forever only once the app was up.
      reconnectStrategy: (retries, cause) =>
        connectedOnce || retries < 3 ? retryDelay(retries + 1) : cause,
    },
  })
  const log = outageLogger(url)
  client.on('error', log.error)
  client.on('ready', () => {
    connectedOnce = true
    log.ready()
  })
  await startup(client.connect(), () => client.destroy())
  return {
    send: fromNodeRedis(client),
    async close() {
      await client.close().catch(() => client.destroy())
    },
  }
}

/**
 * Creates the stores the example app needs. With `REDIS_URL` set they live in Redis
 * (shared by every instance using the same `REDIS_PREFIX`); otherwise in this process's memory.
 * Rejects when Redis cannot be reached at startup: a misconfigured URL should stop the deploy,
 * while a later outage only degrades requests (503) until Redis is back.
 *
 * @example
 * const stores = await createStores()
 * app.use('/api/*', rateLimit({ store: stores.rateLimitStore }))
 * process.on('SIGTERM', () => stores.close())
 */
export async function createStores(env: Env = process.env): Promise<AppStores> {
  const url = env.REDIS_URL
  if (!url) {
    const rateLimitStore = new MemoryRateLimitStore()
    const sessionStore = new MemorySessionStore()
    const apiKeyStore = new MemoryApiKeyStore()
    const idempotencyStore = new MemoryIdempotencyStore()
    return {
      rateLimitStore,
      sessionStore,
      apiKeyStore,
      idempotencyStore,
      kind: 'memory',
      async close() {
        rateLimitStore.destroy()
        sessionStore.destroy_()
        idempotencyStore.destroy()
        await apiKeyStore.destroy()
      },
    }
  }

  const clientName = env.REDIS_CLIENT ?? 'ioredis'
  if (clientName !== 'ioredis' && clientName !== 'node-redis') {
    throw new TypeError(
      `createStores: REDIS_CLIENT must be 'ioredis' or 'node-redis', got '${clientName}'`,
    )
  }
  const connection = await (clientName === 'ioredis'
    ? connectIoredis(url)
    : connectNodeRedis(url)
  ).catch((error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error)
    throw new Error(`createStores: cannot reach Redis at ${redactUrl(url)}: ${reason}`)
  })
  const { RedisApiKeyStore, RedisIdempotencyStore, RedisRateLimitStore, RedisSessionStore } =
    await import('@palisade/middleware/redis')
  const prefix = env.REDIS_PREFIX ?? 'palisade:'
  const sendCommand = connection.send
  return {
    rateLimitStore: new RedisRateLimitStore({ sendCommand, prefix: `${prefix}rl:` }),
    sessionStore: new RedisSessionStore({ sendCommand, prefix: `${prefix}sess:` }),
    apiKeyStore: new RedisApiKeyStore({ sendCommand, prefix: `${prefix}key:` }),
    idempotencyStore: new RedisIdempotencyStore({ sendCommand, prefix: `${prefix}ik:` }),
    kind: 'redis',
    close: connection.close,
  }
}
