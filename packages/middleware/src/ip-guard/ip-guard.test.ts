import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { type IpGuardOptions, ipGuard } from './index'

function appWith(options: IpGuardOptions): Hono {
  const app = new Hono()
  app.use('*', ipGuard(options))
  app.get('/', (c) => c.text('ok'))
  return app
}

/** A request as @hono/node-server delivers it: the socket address in `env.incoming`. */
function fromSocket(app: Hono, remoteAddress: string | undefined, headers?: HeadersInit) {
  return app.request('/', { headers }, { incoming: { socket: { remoteAddress } } })
}

describe('ipGuard options', () => {
  it.each([
    ['10.0.0.0/33', /invalid IP or CIDR "10\.0\.0\.0\/33"/],
    ['1.2.3', /invalid IP or CIDR "1\.2\.3"/],
    ['::1/129', /invalid IP or CIDR "::1\/129"/],
    ['10.0.0.0/8x', /invalid IP or CIDR/],
    ['example.com', /invalid IP or CIDR/],
    ['010.0.0.1', /invalid IP or CIDR/],
  ])('throws a TypeError naming the factory for the entry %j', (entry, pattern) => {
    expect(() => ipGuard({ list: ['10.0.0.1', entry] })).toThrow(TypeError)
    expect(() => ipGuard({ list: [entry] })).toThrow(pattern)
    expect(() => ipGuard({ list: [entry] })).toThrow(/^ipGuard: /)
  })

  it('requires list', () => {
    expect(() => ipGuard(undefined as unknown as IpGuardOptions)).toThrow(
      /^ipGuard: "list" is required/,
    )
    expect(() => ipGuard({} as IpGuardOptions)).toThrow(/^ipGuard: "list" is required/)
    expect(() => ipGuard({ list: '10.0.0.1' as unknown as string[] })).toThrow(/^ipGuard: "list"/)
  })

  it('rejects an empty allow list (it would lock everyone out) but accepts an empty deny list', () => {
    expect(() => ipGuard({ mode: 'allow', list: [] })).toThrow(/^ipGuard: "list" must not be empty/)
    expect(() => ipGuard({ mode: 'deny', list: [] })).not.toThrow()
  })

  it('rejects unknown options, a bad mode, a bad keyGenerator and a bad message', () => {
    expect(() => ipGuard({ list: [], modes: 'allow' } as unknown as IpGuardOptions)).toThrow(
      /^ipGuard: unknown option "modes"/,
    )
    expect(() => ipGuard({ list: [], mode: 'block' as 'deny' })).toThrow(/^ipGuard: "mode"/)
    expect(() => ipGuard({ list: [], keyGenerator: 'x' as unknown as () => string })).toThrow(
      /^ipGuard: "keyGenerator"/,
    )
    expect(() => ipGuard({ list: [], message: '' })).toThrow(/^ipGuard: "message"/)
  })
})

describe('ipGuard deny mode (default)', () => {
  const app = appWith({ list: ['203.0.113.0/24', '2001:db8::/32', '10.1.2.3/8'] })

  it.each([
    ['203.0.113.9', 403],
    ['203.0.114.1', 200],
    ['::ffff:203.0.113.9', 403],
    ['::ffff:cb00:7109', 403],
    ['2001:db8::1', 403],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', 403],
    ['2001:db9::1', 200],
    ['10.200.1.1', 403],
    ['11.0.0.1', 200],
    ['::cb00:7109', 200],
  ])('socket address %s → %i', async (ip, status) => {
    const res = await fromSocket(app, ip)
    expect(res.status).toBe(status)
  })

  it('answers a rejection with 403 text/plain "Access denied"', async () => {
    const res = await fromSocket(app, '203.0.113.9')
    expect(res.status).toBe(403)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await res.text()).toBe('Access denied')
  })

  it('uses a custom message', async () => {
    const res = await fromSocket(appWith({ list: ['1.2.3.4'], message: 'Go away' }), '1.2.3.4')
    expect(await res.text()).toBe('Go away')
  })

  it.each([
    ['no address at all', undefined],
    ['an unparseable address', 'not-an-ip'],
    ['an address with a port', '1.2.3.4:80'],
    ['a short IPv4 form', '10.1'],
  ])('rejects %s (fail closed)', async (_label, ip) => {
    expect((await fromSocket(app, ip)).status).toBe(403)
  })
})

describe('ipGuard allow mode', () => {
  const app = appWith({ mode: 'allow', list: ['10.0.0.0/8', '::1', 'fd00::/8'] })

  it.each([
    ['10.0.0.1', 200],
    ['::ffff:10.0.0.1', 200],
    ['::ffff:a00:1', 200],
    ['0:0:0:0:0:0:0:1', 200],
    ['fd12::1', 200],
    ['11.0.0.1', 403],
    ['127.0.0.1', 403],
    ['::a00:1', 403],
    ['fe80::1', 403],
  ])('socket address %s → %i', async (ip, status) => {
    expect((await fromSocket(app, ip)).status).toBe(status)
  })

  it.each([undefined, '', 'garbage', '10.0.0.1%eth0'])(
    'rejects the missing or unparseable address %j (fail closed)',
    async (ip) => {
      expect((await fromSocket(app, ip)).status).toBe(403)
    },
  )
})

describe('ipGuard client address source', () => {
  it('prefers the socket address over a forged X-Forwarded-For', async () => {
    const app = appWith({ mode: 'allow', list: ['10.0.0.1'] })
    const res = await fromSocket(app, '198.51.100.1', { 'x-forwarded-for': '10.0.0.1' })
    expect(res.status).toBe(403)
  })

  it('falls back to the right-most X-Forwarded-For entry when the runtime exposes no address', async () => {
    const app = appWith({ mode: 'allow', list: ['10.0.0.1'] })
    const ok = await app.request('/', { headers: { 'x-forwarded-for': '6.6.6.6, 10.0.0.1' } })
    expect(ok.status).toBe(200)
    const spoofed = await app.request('/', { headers: { 'x-forwarded-for': '10.0.0.1, 6.6.6.6' } })
    expect(spoofed.status).toBe(403)
    expect((await app.request('/')).status).toBe(403)
  })

  it('rejects a forged allow-listed X-Forwarded-For from a client whose socket has closed', async () => {
    const app = appWith({ mode: 'allow', list: ['10.0.0.0/8'] })
    const res = await fromSocket(app, undefined, { 'x-forwarded-for': '10.0.0.1' })
    expect(res.status).toBe(403)
  })

  it('uses keyGenerator, sync or async, and fails closed when it returns nothing usable', async () => {
    const list = ['192.0.2.0/24']
    const fromHeader = appWith({
      mode: 'allow',
      list,
      keyGenerator: (c) => c.req.header('x-real-ip'),
    })
    expect((await fromHeader.request('/', { headers: { 'x-real-ip': '192.0.2.5' } })).status).toBe(
      200,
    )
    expect((await fromHeader.request('/', { headers: { 'x-real-ip': '192.0.3.5' } })).status).toBe(
      403,
    )
    expect((await fromHeader.request('/')).status).toBe(403)
    const asyncGen = appWith({ list, keyGenerator: async () => '192.0.2.1' })
    expect((await asyncGen.request('/')).status).toBe(403)
    const nullGen = appWith({ list, keyGenerator: () => null })
    expect((await nullGen.request('/')).status).toBe(403)
  })

  it('does not run the handler when it rejects', async () => {
    let ran = false
    const app = new Hono()
    app.use('*', ipGuard({ list: ['1.2.3.4'] }))
    app.get('/', (c) => {
      ran = true
      return c.text('ok')
    })
    await fromSocket(app, '1.2.3.4')
    expect(ran).toBe(false)
  })

  it('lets app.onError reshape the rejection', async () => {
    const app = new Hono()
    app.use('*', ipGuard({ list: ['1.2.3.4'] }))
    app.get('/', (c) => c.text('ok'))
    app.onError((err, c) => c.json({ error: err.message }, 403))
    const res = await fromSocket(app, '1.2.3.4')
    expect(await res.json()).toEqual({ error: 'Access denied' })
  })

  it('compiles a 10,000-entry list of disjoint ranges and still matches exactly', async () => {
    // Every other /24, so nothing merges: 10,000 separate intervals.
    const list = Array.from({ length: 10_000 }, (_, i) => `10.${i >> 7}.${(i & 127) * 2}.0/24`)
    const app = appWith({ list })
    for (const [ip, status] of [
      ['10.0.0.1', 403],
      ['10.0.1.1', 200],
      ['10.0.2.255', 403],
      ['10.78.30.200', 403],
      ['10.78.31.1', 200],
      ['10.78.32.1', 200],
      ['9.255.255.255', 200],
    ] as const) {
      expect((await fromSocket(app, ip)).status, ip).toBe(status)
    }
  })
})
