import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { getClientIP, getClientIPParsed } from './client-ip'

type Env = Record<string, unknown>

async function ipOf(headers: Record<string, string> = {}, env?: Env) {
  const app = new Hono()
  app.get('/', (c) => {
    return c.json({ raw: getClientIP(c) ?? null, ok: getClientIPParsed(c) !== null })
  })
  const res = await app.request('/', { headers }, env)
  return (await res.json()) as { raw: string | null; ok: boolean }
}

const node = (remoteAddress?: string): Env => ({ incoming: { socket: { remoteAddress } } })

describe('getClientIP: connection address first', () => {
  it('uses the @hono/node-server socket address', async () => {
    expect((await ipOf({}, node('203.0.113.5'))).raw).toBe('203.0.113.5')
  })

  it('prefers the socket address over a spoofed X-Forwarded-For', async () => {
    const r = await ipOf({ 'x-forwarded-for': '1.2.3.4' }, node('203.0.113.5'))
    expect(r.raw).toBe('203.0.113.5')
  })

  it('prefers the socket address over a spoofed cf-connecting-ip', async () => {
    const r = await ipOf({ 'cf-connecting-ip': '1.2.3.4' }, node('203.0.113.5'))
    expect(r.raw).toBe('203.0.113.5')
  })

  it('uses Bun requestIP()', async () => {
    const env = { requestIP: () => ({ address: '198.51.100.7' }) }
    expect((await ipOf({ 'x-forwarded-for': '1.2.3.4' }, env)).raw).toBe('198.51.100.7')
  })

  it('falls through when Bun requestIP() throws (the env is not a Bun server)', async () => {
    const throwing = {
      requestIP: () => {
        throw new Error('not a server')
      },
    }
    expect((await ipOf({ 'x-forwarded-for': '9.9.9.9' }, throwing)).raw).toBe('9.9.9.9')
  })

  // Bun returns null for a request whose client already disconnected; a client that sends a
  // forged X-Forwarded-For and hangs up at once must not have it trusted.
  it('never reads forgeable headers when Bun requestIP() returns null', async () => {
    const headers = { 'x-forwarded-for': '9.9.9.9', 'cf-connecting-ip': '8.8.8.8' }
    expect((await ipOf(headers, { requestIP: () => null })).raw).toBeNull()
  })

  it('uses Deno remoteAddr.hostname', async () => {
    const env = { remoteAddr: { hostname: '2001:db8::1', port: 1234 } }
    expect((await ipOf({}, env)).raw).toBe('2001:db8::1')
  })

  it('uses cf-connecting-ip when the runtime exposes no socket (Workers)', async () => {
    expect(
      (await ipOf({ 'cf-connecting-ip': '192.0.2.1', 'x-forwarded-for': '1.1.1.1' })).raw,
    ).toBe('192.0.2.1')
  })

  it('ignores an env that is not an object', async () => {
    const app = new Hono()
    app.get('/', (c) => c.text(getClientIP(c) ?? 'none'))
    const res = await app.request(
      '/',
      { headers: { 'x-forwarded-for': '5.5.5.5' } },
      'str' as never,
    )
    expect(await res.text()).toBe('5.5.5.5')
  })

  // Node's socket reports no address once the client has hung up. A request sent with a forged
  // X-Forwarded-For by a client that disconnects at once must not get that address trusted.
  it('never reads forgeable headers when the node socket has no address (closed socket)', async () => {
    const headers = { 'x-forwarded-for': '7.7.7.7', 'cf-connecting-ip': '8.8.8.8' }
    const r = await ipOf(headers, node(undefined))
    expect(r).toEqual({ raw: null, ok: false })
  })

  it('never reads forgeable headers when the Deno env has no remote hostname', async () => {
    const r = await ipOf({ 'x-forwarded-for': '7.7.7.7' }, { remoteAddr: { transport: 'tcp' } })
    expect(r.raw).toBeNull()
  })

  // Only local processes (a reverse proxy) can connect to a Unix socket, and it has no client
  // address of its own: the proxy's X-Forwarded-For is the only source there.
  it('reads X-Forwarded-For on a Node Unix-socket server', async () => {
    const env = {
      incoming: {
        socket: { remoteAddress: undefined, server: { address: () => '/run/app.sock' } },
      },
    }
    expect((await ipOf({ 'x-forwarded-for': '7.7.7.7' }, env)).raw).toBe('7.7.7.7')
  })

  it('reads X-Forwarded-For on a Deno Unix-socket server', async () => {
    const env = { remoteAddr: { transport: 'unix', path: '/run/app.sock' } }
    expect((await ipOf({ 'x-forwarded-for': '7.7.7.7' }, env)).raw).toBe('7.7.7.7')
  })

  it('does not read X-Forwarded-For from a closed socket of a Node TCP server', async () => {
    const env = {
      incoming: {
        socket: { remoteAddress: undefined, server: { address: () => ({ port: 3000 }) } },
      },
    }
    expect((await ipOf({ 'x-forwarded-for': '7.7.7.7' }, env)).raw).toBeNull()
  })
})

describe('getClientIP: X-Forwarded-For fallback', () => {
  it.each([
    ['a single address', '203.0.113.9', '203.0.113.9'],
    ['the right-most entry of a chain', '1.1.1.1, 10.0.0.1, 203.0.113.9', '203.0.113.9'],
    ['the right-most entry, trimmed', '1.1.1.1 ,  203.0.113.9  ', '203.0.113.9'],
    ['the last non-empty entry', '203.0.113.9, ,', '203.0.113.9'],
  ])('takes %s', async (_, xff, expected) => {
    expect((await ipOf({ 'x-forwarded-for': xff })).raw).toBe(expected)
  })

  it('does not let the client choose the address by prepending entries', async () => {
    const r = await ipOf({ 'x-forwarded-for': '127.0.0.1, 203.0.113.9' })
    expect(r.raw).toBe('203.0.113.9')
  })

  it('returns undefined without any source', async () => {
    expect((await ipOf()).raw).toBeNull()
    expect((await ipOf({ 'x-forwarded-for': ' , ' })).raw).toBeNull()
  })
})

describe('getClientIPParsed', () => {
  it('parses a valid address', async () => {
    expect((await ipOf({}, node('203.0.113.5'))).ok).toBe(true)
  })

  it('treats an IPv4-mapped IPv6 socket address as the IPv4 address', async () => {
    const app = new Hono()
    app.get('/', (c) => c.json(getClientIPParsed(c)))
    const mapped = await (await app.request('/', {}, node('::ffff:10.0.0.1'))).json()
    expect(mapped).toEqual({ version: 4, value: 0x0a000001 })
  })

  it.each(['not-an-ip', '1.2.3.4.5', '999.1.1.1', '1.2.3.4:80', '', 'unknown'])(
    'returns null for the unparseable address %j',
    async (value) => {
      expect((await ipOf({ 'x-forwarded-for': value })).ok).toBe(false)
    },
  )

  it('returns null when there is no address', async () => {
    expect((await ipOf()).ok).toBe(false)
  })
})
