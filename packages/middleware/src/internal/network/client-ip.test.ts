import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { type ClientIpPlatform, declarePlatform, getClientIP, getClientIPParsed } from './client-ip'

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

/** A request as a Worker sees it: Cloudflare's `cf` object on the Request itself. */
async function cfIpOf(headers: Record<string, string>, cf: unknown = { colo: 'FRA' }) {
  const app = new Hono()
  app.get('/', (c) => c.json({ raw: getClientIP(c) ?? null }))
  const req = new Request('http://worker.test/', { headers })
  Object.defineProperty(req, 'cf', { value: cf })
  return (await (await app.fetch(req)).json()) as { raw: string | null }
}

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

  it('uses cf-connecting-ip on Cloudflare (the request carries the cf object)', async () => {
    const headers = { 'cf-connecting-ip': '192.0.2.1', 'x-forwarded-for': '1.1.1.1' }
    expect((await cfIpOf(headers)).raw).toBe('192.0.2.1')
  })

  it('gives no address on Cloudflare without cf-connecting-ip, whatever X-Forwarded-For says', async () => {
    expect((await cfIpOf({ 'x-forwarded-for': '1.1.1.1' })).raw).toBeNull()
  })

  // On Vercel, AWS Lambda, Netlify, Deno Deploy… the client can send any cf-connecting-ip it
  // likes: trusting it there let an attacker pick an allow-listed address or a victim's bucket.
  it('never reads cf-connecting-ip on a request without the cf object', async () => {
    const r = await ipOf({ 'cf-connecting-ip': '10.0.0.1', 'x-forwarded-for': '198.51.100.7' })
    expect(r.raw).toBe('198.51.100.7')
    expect((await ipOf({ 'cf-connecting-ip': '10.0.0.1' })).raw).toBeNull()
  })

  it.each([
    ['null', null],
    ['a string', 'cf'],
  ])('does not count a cf property that is %s as Cloudflare', async (_, cf) => {
    const r = await cfIpOf({ 'cf-connecting-ip': '10.0.0.1' }, cf)
    expect(r.raw).toBeNull()
  })

  it.each([
    ['API Gateway REST (v1)', { identity: { sourceIp: '198.51.100.20' } }],
    ['API Gateway HTTP API / Function URL (v2)', { http: { sourceIp: '198.51.100.20' } }],
  ])('uses the source IP of an AWS Lambda event from %s', async (_, requestContext) => {
    const headers = { 'x-forwarded-for': '10.0.0.1', 'cf-connecting-ip': '10.0.0.2' }
    expect((await ipOf(headers, { requestContext })).raw).toBe('198.51.100.20')
  })

  it('fails closed on an API Gateway event without a source IP', async () => {
    const r = await ipOf({ 'x-forwarded-for': '10.0.0.1' }, { requestContext: { http: {} } })
    expect(r.raw).toBeNull()
  })

  it('reads the right-most X-Forwarded-For entry behind an ALB (the ALB appends it)', async () => {
    const env = { requestContext: { elb: { targetGroupArn: 'arn:aws:…' } } }
    expect((await ipOf({ 'x-forwarded-for': '10.0.0.1, 198.51.100.21' }, env)).raw).toBe(
      '198.51.100.21',
    )
  })

  it('uses context.ip from the Netlify handler', async () => {
    const env = { context: { ip: '198.51.100.22', geo: {} } }
    expect((await ipOf({ 'x-forwarded-for': '10.0.0.1' }, env)).raw).toBe('198.51.100.22')
    expect((await ipOf({ 'x-forwarded-for': '10.0.0.1' }, { context: { ip: '' } })).raw).toBeNull()
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

/** `ipOf` with the platform declared for the request, as `clientIp({ platform })` does. */
async function declaredIpOf(
  platform: ClientIpPlatform,
  headers: Record<string, string>,
  env?: Env,
) {
  const app = new Hono()
  app.use(async (c, next) => {
    declarePlatform(c, platform)
    await next()
  })
  app.get('/', (c) => c.json({ raw: getClientIP(c) ?? null }))
  return (await (await app.request('/', { headers }, env)).json()) as { raw: string | null }
}

// Only an ALB's X-Forwarded-For is the platform's; on API Gateway and Function URLs the header
// is the client's own, so an event that lacks its source IP has no address at all.
describe('getClientIP: AWS Lambda events without a source IP', () => {
  const forged = { 'x-forwarded-for': '10.0.0.1, 10.0.0.2' }
  const withoutSourceIp: Array<[string, Env]> = [
    ['API Gateway REST (v1), identity without sourceIp', { identity: {} }],
    ['API Gateway REST (v1), an empty sourceIp', { identity: { sourceIp: '' } }],
    ['API Gateway REST (v1), a null sourceIp', { identity: { sourceIp: null } }],
    ['HTTP API / Function URL (v2), http without sourceIp', { http: {} }],
    ['HTTP API / Function URL (v2), a numeric sourceIp', { http: { sourceIp: 42 } }],
  ]

  it.each(withoutSourceIp)('%s: no address, X-Forwarded-For unread', async (_, requestContext) => {
    expect((await ipOf(forged, { requestContext })).raw).toBeNull()
  })

  it.each(withoutSourceIp)(
    "%s, under clientIp({ platform: 'aws-lambda' }): no address, X-Forwarded-For unread",
    async (_, requestContext) => {
      expect((await declaredIpOf('aws-lambda', forged, { requestContext })).raw).toBeNull()
    },
  )

  it.each<[string, Env | undefined]>([
    ['no env at all', undefined],
    ['an env without requestContext', { event: {} }],
    ['a requestContext of no known shape (no elb)', { requestContext: {} }],
    ['a requestContext that is not an object', { requestContext: 'ctx' }],
  ])(
    "under clientIp({ platform: 'aws-lambda' }), %s: no address, X-Forwarded-For unread",
    async (_, env) => {
      expect((await declaredIpOf('aws-lambda', forged, env)).raw).toBeNull()
    },
  )

  it("still reads the ALB's entry under clientIp({ platform: 'aws-lambda' })", async () => {
    const env = { requestContext: { elb: { targetGroupArn: 'arn:aws:…' } } }
    expect((await declaredIpOf('aws-lambda', forged, env)).raw).toBe('10.0.0.2')
  })
})

describe('getClientIP: X-Forwarded-For fallback', () => {
  it.each([
    ['a single address', '203.0.113.9', '203.0.113.9'],
    ['a single address, trimmed', '  203.0.113.9 ', '203.0.113.9'],
    ['a single IPv6 address', '2001:db8::1', '2001:db8::1'],
    ['the right-most of two entries', '203.0.113.9,198.51.100.7', '198.51.100.7'],
    ['the right-most entry of a chain', '1.1.1.1, 10.0.0.1, 203.0.113.9', '203.0.113.9'],
    ['the right-most entry, trimmed', '1.1.1.1 ,  203.0.113.9  ', '203.0.113.9'],
  ])('takes %s', async (_, xff, expected) => {
    expect((await ipOf({ 'x-forwarded-for': xff })).raw).toBe(expected)
  })

  // The nearest proxy wrote nothing usable; the entries before it are the client's own, so
  // skipping back to them would let the client choose its address.
  it.each([
    ['a trailing comma', '10.0.0.1,'],
    ['a trailing comma and space', '10.0.0.1, '],
    ['several empty entries', '203.0.113.9, ,'],
    ['only commas', ' , '],
  ])('fails closed on an empty right-most entry (%s)', async (_, xff) => {
    expect(await ipOf({ 'x-forwarded-for': xff })).toEqual({ raw: null, ok: false })
  })

  it.each([
    ['a port', '10.0.0.1, 198.51.100.7:443'],
    ['garbage', '10.0.0.1, not-an-ip'],
    ['a bracketed IPv6 with port', '10.0.0.1, [2001:db8::1]:443'],
  ])('fails closed on a malformed right-most entry (%s), never an earlier one', async (_, xff) => {
    expect((await ipOf({ 'x-forwarded-for': xff })).ok).toBe(false)
  })

  it('does not let the client choose the address by prepending entries', async () => {
    const r = await ipOf({ 'x-forwarded-for': '127.0.0.1, 203.0.113.9' })
    expect(r.raw).toBe('203.0.113.9')
  })

  it('returns undefined without any source', async () => {
    expect((await ipOf()).raw).toBeNull()
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
