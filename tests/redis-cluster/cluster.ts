/**
 * A real Redis Cluster for tests: six redis-server processes (3 masters, 3 replicas) on loopback
 * ports, made into a cluster with `redis-cli --cluster create … --cluster-replicas 1`, and stopped
 * by PID. Nothing is persisted; every node's files live in a temporary directory that `stop()`
 * removes. `cluster-node-timeout` is 1 s so a killed master is replaced within a few seconds.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { RedisCommand } from '@palisade/middleware/redis'
import { Cluster, Redis } from 'ioredis'
import { createCluster } from 'redis'
import { sleep, waitForPing } from '../redis/support'

const run = promisify(execFile)

/** Node timeout of the test cluster: how long a master may be silent before it is failed over. */
export const NODE_TIMEOUT_MS = 1_000

async function canListen(port: number): Promise<boolean> {
  const server = createServer()
  return new Promise((resolve) => {
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

/**
 * `count` ports that are free together with their cluster-bus port (+10000). Redis Cluster needs
 * known ports (port 0 disables TCP), so they are probed in 20000–29999, below the ephemeral range.
 */
async function clusterPorts(count: number): Promise<number[]> {
  const ports: number[] = []
  while (ports.length < count) {
    const port = 20_000 + Math.floor(Math.random() * 10_000)
    if (ports.some((p) => Math.abs(p - port) < 2)) continue
    if ((await canListen(port)) && (await canListen(port + 10_000))) ports.push(port)
  }
  return ports
}

/** One node of the running cluster. */
export interface ClusterNode {
  readonly port: number
  readonly process: ChildProcess
  /** Whether the process is still running. */
  alive(): boolean
}

/** A running test cluster. */
export interface TestCluster {
  readonly nodes: readonly ClusterNode[]
  /** `[{ host, port }]` of every node, for `new Cluster(...)` / `createCluster({ rootNodes })`. */
  readonly seeds: { host: string; port: number }[]
  /** A plain (non-cluster) command function to one node. */
  node(port: number): RedisCommand
  /** Ports of the current masters, as the surviving nodes see them. */
  masters(): Promise<number[]>
  /** The port of the master that serves `key`'s slot now. */
  masterOf(key: string): Promise<number>
  /** SIGKILLs the node on `port` (a crash, not a shutdown) and waits for it to exit. */
  kill(port: number): Promise<void>
  /**
   * Resolves once every live node reports `cluster_state:ok`, all slots are covered and every
   * replica's link to its master is up.
   */
  waitHealthy(timeoutMs?: number): Promise<void>
  /** Stops every node by PID and removes the temporary directory. */
  stop(): Promise<void>
}

/** Starts six nodes, creates the cluster and waits until it serves every slot. */
export async function startCluster(): Promise<TestCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'palisade-cluster-'))
  const ports = await clusterPorts(6)
  const children = ports.map((port) =>
    spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(dir, `nodes-${port}.conf`),
        '--cluster-node-timeout',
        String(NODE_TIMEOUT_MS),
        '--dir',
        dir,
        '--logfile',
        join(dir, `redis-${port}.log`),
        // Replicas sync at once instead of after the default 5 s, so they can be promoted early.
        '--repl-diskless-sync-delay',
        '0',
        '--save',
        '',
        '--appendonly',
        'no',
        '--daemonize',
        'no',
      ],
      { stdio: 'ignore' },
    ),
  )
  const nodes: ClusterNode[] = ports.map((port, i) => {
    const child = children[i] as ChildProcess
    return {
      port,
      process: child,
      alive: () => child.exitCode === null && child.signalCode === null,
    }
  })
  const connections = new Map<number, Redis>()
  const node = (port: number): RedisCommand => {
    let client = connections.get(port)
    if (!client) {
      client = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 0, retryStrategy: () => null })
      client.on('error', () => {})
      connections.set(port, client)
    }
    const c = client
    return (args) => c.call(args[0] as string, ...args.slice(1))
  }

  const stop = async () => {
    for (const client of connections.values()) client.disconnect()
    await Promise.all(
      nodes.map(async (n) => {
        if (!n.alive()) return
        const exited = once(n.process, 'exit')
        n.process.kill('SIGKILL')
        await exited
      }),
    )
    rmSync(dir, { recursive: true, force: true })
  }

  const liveNodes = () => nodes.filter((n) => n.alive())

  const waitHealthy = async (timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const states = await Promise.all(
        liveNodes().map(async (n) => {
          try {
            const info = String(await node(n.port)(['CLUSTER', 'INFO']))
            return /cluster_state:ok/.test(info) && /cluster_slots_ok:16384/.test(info)
          } catch {
            return false
          }
        }),
      )
      // A replica that never finished its first sync cannot be promoted: wait for every link.
      const links = await Promise.all(
        liveNodes().map(async (n) => {
          try {
            const info = String(await node(n.port)(['INFO', 'replication']))
            return /role:master/.test(info) || /master_link_status:up/.test(info)
          } catch {
            return false
          }
        }),
      )
      if (states.every(Boolean) && links.every(Boolean)) return
      if (Date.now() > deadline) throw new Error('cluster did not become healthy')
      await sleep(100)
    }
  }

  const slotsTable = async (): Promise<Array<[number, number, number]>> => {
    for (const n of liveNodes()) {
      try {
        const reply = (await node(n.port)(['CLUSTER', 'SLOTS'])) as Array<
          [number, number, [string, number, ...unknown[]], ...unknown[]]
        >
        return reply.map(([from, to, master]) => [from, to, Number(master[1])])
      } catch {
        // try the next node
      }
    }
    throw new Error('no node answered CLUSTER SLOTS')
  }

  try {
    await Promise.all(nodes.map((n) => waitForPing(n.port, n.process, 15_000)))
    await run(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...ports.map((p) => `127.0.0.1:${p}`),
        '--cluster-replicas',
        '1',
        '--cluster-yes',
      ],
      { timeout: 60_000 },
    )
    await waitHealthy()
  } catch (error) {
    await stop()
    throw error
  }

  return {
    nodes,
    seeds: ports.map((port) => ({ host: '127.0.0.1', port })),
    node,
    waitHealthy,
    stop,
    async masters() {
      return [...new Set((await slotsTable()).map(([, , port]) => port))]
    },
    async masterOf(key: string) {
      const slot = Number(await node(liveNodes()[0]?.port ?? 0)(['CLUSTER', 'KEYSLOT', key]))
      const row = (await slotsTable()).find(([from, to]) => slot >= from && slot <= to)
      if (!row) throw new Error(`no master serves slot ${slot}`)
      return row[2]
    },
    async kill(port: number) {
      const target = nodes.find((n) => n.port === port)
      if (!target?.alive()) return
      const exited = once(target.process, 'exit')
      target.process.kill('SIGKILL')
      await exited
      connections.get(port)?.disconnect()
      connections.delete(port)
    },
  }
}

/**
 * An ioredis `Cluster` set up as an app should be for failover: commands are not queued while a
 * slot has no master (`enableOfflineQueue: false`), each command retries at most once per node,
 * and the slot map is refreshed shortly after a node disappears.
 */
export async function ioredisCluster(cluster: TestCluster): Promise<Cluster> {
  const client = new Cluster(cluster.seeds, {
    enableOfflineQueue: false,
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    maxRedirections: 4,
    slotsRefreshTimeout: 1_000,
    redisOptions: { maxRetriesPerRequest: 1, connectTimeout: 1_000 },
  })
  client.on('error', () => {})
  client.on('node error', () => {})
  await once(client, 'ready')
  return client
}

/** A connected node-redis cluster client. */
export async function nodeRedisCluster(cluster: TestCluster) {
  const client = createCluster({
    rootNodes: cluster.seeds.map(({ host, port }) => ({ url: `redis://${host}:${port}` })),
    defaults: { socket: { connectTimeout: 1_000, reconnectStrategy: () => 200 } },
  })
  client.on('error', () => {})
  await client.connect()
  return client
}

/** Deletes every key under `prefix` on every live master (SCAN runs per node in a cluster). */
export async function deleteClusterPrefix(cluster: TestCluster, prefix: string): Promise<number> {
  let deleted = 0
  for (const port of await cluster.masters()) {
    const send = cluster.node(port)
    let cursor = '0'
    do {
      const [next, keys] = (await send([
        'SCAN',
        cursor,
        'MATCH',
        `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`,
        'COUNT',
        '1000',
      ])) as [string, string[]]
      cursor = String(next)
      for (const key of keys) deleted += Number(await send(['DEL', key]))
    } while (cursor !== '0')
  }
  return deleted
}

/** CRC16/XMODEM, the checksum Redis Cluster hashes keys with. */
function crc16(bytes: Uint8Array): number {
  let crc = 0
  for (const byte of bytes) {
    crc ^= byte << 8
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc
}

/** The hash slot of `key`: only the part inside the first non-empty `{…}` counts (a hash tag). */
export function hashSlot(key: string): number {
  const open = key.indexOf('{')
  const close = open === -1 ? -1 : key.indexOf('}', open + 1)
  const hashed = close > open + 1 ? key.slice(open + 1, close) : key
  return crc16(new TextEncoder().encode(hashed)) % 16_384
}
