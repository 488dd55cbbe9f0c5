// concurrencyLimit under hostile input: spoofed forwarding headers must not buy slots, odd
// socket addresses must land on the client's one key, and garbage bodies, lying headers and odd
// methods must never answer 5xx nor leave a slot held.
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { concurrencyLimit, MemoryConcurrencyStore } from './index'

const fromSocket = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } })

function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return { opened, open }
}

/** Slow `GET /slow` (held until `open()`), and `ALL /echo` that reads the body as text. */
function makeApp(max: number) {
  const store = new MemoryConcurrencyStore()
  const g = gate()
  const app = new Hono()
  app.use('*', concurrencyLimit({ max, store }))
  app.get('/slow', async (c) => {
    await g.opened
    return c.text('done')
  })
  app.all('/echo', async (c) => c.text(`read ${(await c.req.text()).length}`))
  /** Leases held for `key`: a probe with max 1 is admitted only when none is. */
  const held = async (key: string) => {
    const probe = await store.acquire(key, 'probe', 1_000_000, 60_000)
    await store.release(key, 'probe')
    return probe.inFlight - 1
  }
  return { app, open: g.open, held }
}

const SPOOFS: Record<string, string>[] = [
  { 'x-forwarded-for': '198.51.100.1' },
  { 'x-forwarded-for': '198.51.100.1, 198.51.100.2, 10.0.0.1' },
  { 'x-real-ip': '198.51.100.3' },
  { forwarded: 'for=198.51.100.4;proto=https' },
  { 'cf-connecting-ip': '198.51.100.5' },
  { 'x-forwarded-for': `${'9.9.9.9, '.repeat(2_000)}1.2.3.4` },
  { 'x-forwarded-for': '%31%39%38.51.100.6' },
  { 'x-forwarded-for': '::ffff:198.51.100.7' },
  { 'x-forwarded-for': 'not an address' },
]

describe('concurrencyLimit against hostile input', () => {
  it('spoofed forwarding headers do not buy a second key while the socket holds every slot', async () => {
    const { app, open, held } = makeApp(2)
    const env = fromSocket('203.0.113.5')
    const slow = [app.request('/slow', {}, env), app.request('/slow', {}, env)]
    await expect.poll(() => held('203.0.113.5')).toBe(2)
    for (const headers of SPOOFS) {
      const res = await app.request('/echo', { headers }, env)
      expect([res.status, res.headers.get('retry-after')], JSON.stringify(headers)).toEqual([
        429,
        '1',
      ])
    }
    open()
    expect((await Promise.all(slow)).map((r) => r.status)).toEqual([200, 200])
    await Promise.all((await Promise.all(slow)).map((r) => r.text()))
    await expect.poll(() => held('203.0.113.5')).toBe(0)
  })

  it('an IPv4-mapped IPv6 socket address is the same client as its IPv4 form', async () => {
    const { app, open, held } = makeApp(1)
    const slow = app.request('/slow', {}, fromSocket('::ffff:203.0.113.9'))
    await expect.poll(() => held('203.0.113.9')).toBe(1)
    expect((await app.request('/echo', {}, fromSocket('203.0.113.9'))).status).toBe(429)
    open()
    await (await slow).text()
    await expect.poll(() => held('203.0.113.9')).toBe(0)
  })

  it('without a socket address: one shared key, or the right-most X-Forwarded-For entry (what the nearest proxy appended); never a 5xx', async () => {
    const { app, open, held } = makeApp(1)
    const bare = app.request('/slow')
    const proxied = app.request('/slow', {
      headers: { 'x-forwarded-for': '1.1.1.1, 198.51.100.1' },
    })
    await expect.poll(() => held('unknown')).toBe(1)
    await expect.poll(() => held('198.51.100.1')).toBe(1)
    expect((await app.request('/echo')).status).toBe(429)
    // A client-written left part does not change the key.
    const spoofed = { 'x-forwarded-for': '6.6.6.6, 7.7.7.7, 198.51.100.1' }
    expect((await app.request('/echo', { headers: spoofed })).status).toBe(429)
    open()
    for (const res of await Promise.all([bare, proxied])) await res.text()
    await expect.poll(() => held('unknown')).toBe(0)
    await expect.poll(() => held('198.51.100.1')).toBe(0)
  })

  it('garbage bodies, lying headers, duplicated cookies and odd methods never 5xx and free their slot', async () => {
    const { app, held } = makeApp(1)
    const env = fromSocket('203.0.113.20')
    const cases: [string, RequestInit][] = [
      [
        'malformed JSON',
        { method: 'POST', body: '{"a":', headers: { 'content-type': 'application/json' } },
      ],
      [
        'wrong types',
        {
          method: 'POST',
          body: '[1,"x",null,{}]',
          headers: { 'content-type': 'application/json' },
        },
      ],
      ['1 MB body', { method: 'POST', body: 'x'.repeat(1 << 20) }],
      [
        'lying Content-Length',
        { method: 'POST', body: 'abc', headers: { 'content-length': '999999' } },
      ],
      ['binary junk', { method: 'PUT', body: new Uint8Array([0, 255, 254, 0, 10, 13]) }],
      ['duplicated cookies', { headers: { cookie: 'sid=a; sid=b; sid=c; sid=%00; sid=' } }],
      ['HEAD', { method: 'HEAD' }],
      ['OPTIONS', { method: 'OPTIONS' }],
      ['odd method', { method: 'PROPFIND' }],
    ]
    for (const [name, init] of cases) {
      const res = await app.request('/echo', init, env)
      expect(res.status, name).toBeLessThan(500)
      await res.arrayBuffer()
      await expect.poll(() => held('203.0.113.20'), { message: name }).toBe(0)
    }
  })
})
