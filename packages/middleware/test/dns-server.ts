// A real DNS server on loopback (UDP, node:dgram) for botGuard's test with real node:dns: it
// answers PTR, A and AAAA questions from a zone in memory, NXDOMAIN for names it does not know,
// and drops the questions for names listed in `silent` (a resolver that never answers).
// Test support lives in test/, outside src/, so it is never built or published.
import { createSocket } from 'node:dgram'
import type { AddressInfo } from 'node:net'

export interface Zone {
  /** `1.66.249.66.in-addr.arpa` → PTR names. */
  ptr: Record<string, string[]>
  a: Record<string, string[]>
  aaaa: Record<string, string[]>
  /** Names whose questions are never answered. */
  silent: string[]
}

export interface DnsServer {
  /** `127.0.0.1:<port>`, for `Resolver#setServers`. */
  address: string
  /** The questions asked so far, as `TYPE name`. */
  asked: string[]
  close(): Promise<void>
}

const TYPES: Record<number, string> = { 1: 'A', 12: 'PTR', 28: 'AAAA' }

function readName(msg: Buffer, start: number): [string, number] {
  const labels: string[] = []
  let at = start
  while (at < msg.length && msg[at] !== 0) {
    const length = msg[at] as number
    labels.push(msg.subarray(at + 1, at + 1 + length).toString('latin1'))
    at += length + 1
  }
  return [labels.join('.'), at + 1]
}

function encodeName(name: string): Buffer {
  const parts = name.split('.').filter(Boolean)
  return Buffer.concat([
    ...parts.map((p) => Buffer.concat([Buffer.from([p.length]), Buffer.from(p, 'latin1')])),
    Buffer.from([0]),
  ])
}

function ipv6Bytes(text: string): Buffer {
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined]
  const h = (head ?? '').split(':').filter(Boolean)
  const t = tail === undefined ? [] : tail.split(':').filter(Boolean)
  const groups = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t]
  const out = Buffer.alloc(16)
  for (const [i, g] of groups.entries()) out.writeUInt16BE(Number.parseInt(g, 16), i * 2)
  return out
}

function rdataOf(type: number, value: string): Buffer {
  if (type === 1) return Buffer.from(value.split('.').map(Number))
  if (type === 28) return ipv6Bytes(value)
  return encodeName(value)
}

function answer(query: Buffer, zone: Zone): Buffer | null {
  const [name, end] = readName(query, 12)
  const type = query.readUInt16BE(end)
  const question = query.subarray(12, end + 4)
  const lower = name.toLowerCase()
  if (zone.silent.includes(lower)) return null
  const table = type === 12 ? zone.ptr : type === 1 ? zone.a : type === 28 ? zone.aaaa : {}
  const known = lower in zone.ptr || lower in zone.a || lower in zone.aaaa
  const values = table[lower] ?? []
  const header = Buffer.alloc(12)
  query.copy(header, 0, 0, 2) // ID
  // QR, RD copied, RA; RCODE 3 (NXDOMAIN) for a name the zone does not have at all.
  header.writeUInt16BE(0x8180 | (query.readUInt16BE(2) & 0x0100) | (known ? 0 : 3), 2)
  header.writeUInt16BE(1, 4)
  header.writeUInt16BE(values.length, 6)
  const records = values.map((v) => {
    const rdata = rdataOf(type, v)
    const fixed = Buffer.alloc(10)
    fixed.writeUInt16BE(type, 0)
    fixed.writeUInt16BE(1, 2)
    fixed.writeUInt32BE(60, 4)
    fixed.writeUInt16BE(rdata.length, 8)
    return Buffer.concat([Buffer.from([0xc0, 12]), fixed, rdata])
  })
  return Buffer.concat([header, question, ...records])
}

export async function startDnsServer(zone: Zone): Promise<DnsServer> {
  const socket = createSocket('udp4')
  const asked: string[] = []
  socket.on('message', (msg, from) => {
    try {
      const [name, end] = readName(msg, 12)
      asked.push(`${TYPES[msg.readUInt16BE(end)] ?? msg.readUInt16BE(end)} ${name}`)
      const reply = answer(msg, zone)
      if (reply) socket.send(reply, from.port, from.address)
    } catch {
      // A malformed question gets no answer.
    }
  })
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
  const { port } = socket.address() as AddressInfo
  return {
    address: `127.0.0.1:${port}`,
    asked,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  }
}
