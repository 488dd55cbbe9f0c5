import { Hono } from 'hono'
import { describe, expect, it, vi } from 'vitest'
import { gzippedPost } from '../../test/compressed'
import { sanitizedBody, sanitizedQuery, type XssSanitizeOptions, xssSanitize } from './index'

/** A standard, single-pass HTML character-reference decoder (the browser's view of the text). */
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
function decodeEntities(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (match, ref: string) => {
    if (ref[0] === '#') {
      const code =
        ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1))
      return String.fromCodePoint(code)
    }
    return NAMED[ref] ?? match
  })
}

const PAYLOADS = [
  '<script>alert(1)</script>',
  '<ScRiPt>alert(1)</sCrIpT>',
  '<script src=//evil.example/x.js></script>',
  '<script\x20type="text/javascript">alert(1);</script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<<script>alert(1)//<</script>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" onerror="&#97;&#108;&#101;&#114;&#116;(1)">',
  '<img src=`x`onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '"><svg/onload=alert(String.fromCharCode(88,83,83))>',
  '<svg><script>alert&#40;1&#41;</script>',
  '"><script>alert(1)</script>',
  "'><script>alert(1)</script>",
  '" onmouseover="alert(1)',
  "' onmouseover='alert(1)",
  '`><img src=x onerror=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<a href="javascript:alert(1)">x</a>',
  'javascript:alert(1)',
  '<body onload=alert(1)>',
  '<div style="background:url(javascript:alert(1))">',
  '<input autofocus onfocus=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '</textarea><script>alert(1)</script>',
  '</title><script>alert(1)</script>',
  '<!--<script>alert(1)</script>-->',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<object data="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel=stylesheet href="javascript:alert(1)">',
  '<style>@import "javascript:alert(1)";</style>',
  '<video><source onerror="alert(1)">',
  '<audio src=x onerror=alert(1)>',
  '<marquee onstart=alert(1)>',
  '<\u0000script>alert(1)</script>',
  '＜script＞alert(1)＜/script＞',
  '<😀 onclick=alert(1)>',
  '𝒳<b>bold</b>\u2028<i>\u2029',
  '{{constructor.constructor("alert(1)")()}}',
  '$' + '{alert(1)}',
  // Text that already looks encoded must survive as the same text, not be decoded by us.
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '&#60;script&#62;alert(1)&#60;/script&#62;',
  '&#x3C;script&#x3E;',
  '&amp;&amp;&amp;',
  'a &quot;quoted&quot; word',
  '&#0;&#x0;&',
  '&&<<>>""\'\'',
  '<x onclick="a&amp;b">',
  '',
  'plain text, nothing to encode',
]

describe('xssSanitize payload table', () => {
  it('has at least 40 payloads', () => {
    expect(PAYLOADS.length).toBeGreaterThanOrEqual(40)
  })

  const app = new Hono()
  app.post('/', xssSanitize(), (c) => c.json(sanitizedBody(c)))

  it.each(PAYLOADS)('encodes %j so that decoding gives it back exactly', async (payload) => {
    const res = await app.request('/', {
      method: 'POST',
      body: JSON.stringify({ top: payload, nested: { list: [{ deep: payload }] } }),
      headers: { 'content-type': 'application/json' },
    })
    const body = (await res.json()) as { top: string; nested: { list: [{ deep: string }] } }
    for (const encoded of [body.top, body.nested.list[0].deep]) {
      expect(encoded).not.toMatch(/[<>"']/)
      // Every & left in the output starts one of the five entities the encoder writes.
      expect(encoded.replace(/&(amp|lt|gt|quot|#39);/g, '')).not.toContain('&')
      expect(decodeEntities(encoded)).toBe(payload)
    }
  })
})

function appWith(options?: XssSanitizeOptions) {
  const app = new Hono()
  app.post('/', xssSanitize(options), async (c) =>
    c.json({ sanitized: sanitizedBody(c) ?? null, raw: await c.req.text() }),
  )
  return app
}

const postJson = (app: Hono, body: string, type = 'application/json') =>
  app.request('/', { method: 'POST', body, headers: { 'content-type': type } })

describe('xssSanitize body', () => {
  it('encodes every string at any depth and leaves other values alone', async () => {
    const input = {
      a: '<b>',
      n: 1,
      t: true,
      z: null,
      list: ['<i>', 2, [['"deep"']], { x: "it's" }],
      obj: { inner: { s: '&', arr: [{ k: '<>' }] } },
    }
    const res = await postJson(appWith(), JSON.stringify(input))
    expect((await res.json()).sanitized).toEqual({
      a: '&lt;b&gt;',
      n: 1,
      t: true,
      z: null,
      list: ['&lt;i&gt;', 2, [['&quot;deep&quot;']], { x: 'it&#39;s' }],
      obj: { inner: { s: '&amp;', arr: [{ k: '&lt;&gt;' }] } },
    })
  })

  it('encodes a top-level string, array or number body', async () => {
    expect((await (await postJson(appWith(), '"<x>"')).json()).sanitized).toBe('&lt;x&gt;')
    expect((await (await postJson(appWith(), '["<x>",1]')).json()).sanitized).toEqual([
      '&lt;x&gt;',
      1,
    ])
    expect((await (await postJson(appWith(), '42')).json()).sanitized).toBe(42)
  })

  it('encodes object keys that carry markup, at any depth (handlers render label maps)', async () => {
    const res = await postJson(
      appWith(),
      '{"<k>":"<v>","labels":[{"<img src=x onerror=alert(1)>":1}]}',
    )
    expect((await res.json()).sanitized).toEqual({
      '&lt;k&gt;': '&lt;v&gt;',
      labels: [{ '&lt;img src=x onerror=alert(1)&gt;': 1 }],
    })
  })

  it('encodes keys only inside the selected fields when fields are given', async () => {
    const res = await postJson(
      appWith({ fields: ['labels'] }),
      '{"<raw>":"<v>","labels":{"<b>":"<i>"}}',
    )
    expect((await res.json()).sanitized).toEqual({
      '<raw>': '<v>',
      labels: { '&lt;b&gt;': '&lt;i&gt;' },
    })
  })

  it('keeps the raw body readable and unchanged for the handler, in every form', async () => {
    const raw = '{"comment":"<script>alert(1)</script>","n":1}'
    const app = new Hono()
    app.post('/', xssSanitize(), async (c) => {
      const viaRaw = await c.req.raw.clone().text()
      const viaJson = await c.req.json()
      const viaText = await c.req.text()
      return c.json({ viaRaw, viaJson, viaText, sanitized: sanitizedBody(c) })
    })
    const res = await postJson(app, raw)
    expect(await res.json()).toEqual({
      viaRaw: raw,
      viaJson: { comment: '<script>alert(1)</script>', n: 1 },
      viaText: raw,
      sanitized: { comment: '&lt;script&gt;alert(1)&lt;/script&gt;', n: 1 },
    })
  })

  it('works when an earlier middleware already read the body through Hono', async () => {
    const app = new Hono()
    app.use('*', async (c, next) => {
      await c.req.json()
      await next()
    })
    app.post('/', xssSanitize(), (c) => c.json(sanitizedBody(c)))
    expect(await (await postJson(app, '{"a":"<"}')).json()).toEqual({ a: '&lt;' })
  })

  it.each([
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'application/vnd.api+json',
    'application/merge-patch+json',
  ])('treats %s as JSON', async (type) => {
    expect((await (await postJson(appWith(), '{"a":"<"}', type)).json()).sanitized).toEqual({
      a: '&lt;',
    })
  })

  it.each([
    ['text/plain', '{"a":"<"}'],
    ['application/x-www-form-urlencoded', 'a=%3C'],
    ['text/html', '<b>'],
    ['application/jsonp', '{"a":"<"}'],
  ])('returns undefined for a %s request', async (type, body) => {
    const res = await postJson(appWith(), body, type)
    expect(res.status).toBe(200)
    expect((await res.json()).sanitized).toBeNull()
  })

  it('returns undefined for a request without a body', async () => {
    const app = new Hono()
    app.get('/', xssSanitize(), (c) => c.json({ body: sanitizedBody(c) ?? 'none' }))
    expect(await (await app.request('/')).json()).toEqual({ body: 'none' })
    const typed = await app.request('/', { headers: { 'content-type': 'application/json' } })
    expect(await typed.json()).toEqual({ body: 'none' })
  })

  it.each([
    ['truncated', '{"a":"<'],
    ['trailing garbage', '{"a":1} x'],
    ['single quotes', "{'a':1}"],
    ['a bare word', 'undefined'],
    ['whitespace only', '   '],
    ['a raw control character', '{"a":"\u0001"}'],
  ])('rejects malformed JSON (%s) with 400 "Malformed JSON"', async (_label, body) => {
    const handler = vi.fn((c) => c.text('ok'))
    const app = new Hono()
    app.post('/', xssSanitize(), handler)
    const res = await postJson(app, body)
    expect(res.status).toBe(400)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await res.text()).toBe('Malformed JSON')
    expect(handler).not.toHaveBeenCalled()
  })

  it('refuses a JSON body sent compressed with 415 and Accept-Encoding: identity, which it cannot sanitize', async () => {
    const handler = vi.fn((c) => c.text('ok'))
    const app = new Hono()
    app.post('/', xssSanitize(), handler)
    const res = await app.request('/', await gzippedPost('{"c":"<script>alert(1)</script>"}'))
    expect(res.status).toBe(415)
    expect(res.headers.get('accept-encoding')).toBe('identity')
    expect(handler).not.toHaveBeenCalled()
    // `identity` is no coding: sanitized as before.
    const plain = await app.request('/', {
      method: 'POST',
      body: '{"c":"<b>"}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
    })
    expect(plain.status).toBe(200)
  })

  it('rejects 100,000 levels of nesting with 400 instead of crashing', async () => {
    const deep = `${'['.repeat(100_000)}"<x>"${']'.repeat(100_000)}`
    expect((await postJson(appWith(), deep)).status).toBe(400)
    const deepObjects = `${'{"a":'.repeat(50_000)}"<x>"${'}'.repeat(50_000)}`
    expect((await postJson(appWith(), deepObjects)).status).toBe(400)
  })

  it('accepts nesting up to 1,000 levels', async () => {
    const app = new Hono()
    app.post('/', xssSanitize(), (c) => {
      let node = sanitizedBody<unknown>(c)
      while (Array.isArray(node)) node = node[0]
      return c.text(String(node))
    })
    const ok = `${'['.repeat(999)}"<x>"${']'.repeat(999)}`
    expect(await (await postJson(app, ok)).text()).toBe('&lt;x&gt;')
    const tooDeep = `${'['.repeat(1001)}"<x>"${']'.repeat(1001)}`
    expect((await postJson(app, tooDeep)).status).toBe(400)
  })

  it('handles a 1 MB body with 100,000 strings completely', async () => {
    const items = Array.from({ length: 100_000 }, (_, i) => `<${i}>`)
    const text = JSON.stringify({ items })
    expect(text.length).toBeGreaterThan(900_000)
    const app = new Hono()
    app.post('/', xssSanitize(), (c) => {
      const { items: out } = sanitizedBody<{ items: string[] }>(c) ?? { items: [] }
      const wrong = out.filter((s, i) => s !== `&lt;${i}&gt;`).length
      return c.json({ count: out.length, wrong })
    })
    expect(await (await postJson(app, text)).json()).toEqual({ count: 100_000, wrong: 0 })
  })
})

describe('xssSanitize prototype safety (raw JSON text, not object literals)', () => {
  const raw =
    '{"__proto__":{"polluted":"<x>","isAdmin":true},' +
    '"constructor":{"prototype":{"polluted":"<y>"}},' +
    '"prototype":"<z>",' +
    '"nested":[{"__proto__":{"polluted":"<w>"}}]}'

  it.each([
    ['all strings', undefined],
    ['fields', { fields: ['polluted', 'prototype'] }],
  ] as const)(
    'keeps __proto__, constructor and prototype as plain own data (%s)',
    async (_label, options) => {
      const app = new Hono()
      app.post('/', xssSanitize(options), (c) => {
        const body = sanitizedBody<Record<string, unknown>>(c) as Record<string, unknown>
        const proto = Object.getOwnPropertyDescriptor(body, '__proto__')?.value as Record<
          string,
          unknown
        >
        const nested = (body.nested as Record<string, unknown>[])[0] as Record<string, unknown>
        return c.json({
          bodyProtoIsObjectPrototype: Object.getPrototypeOf(body) === Object.prototype,
          ownKeys: Object.keys(body),
          protoPolluted: proto.polluted,
          protoIsAdmin: proto.isAdmin,
          constructorPolluted: (
            (body['constructor'] as unknown as Record<string, unknown>).prototype as Record<
              string,
              unknown
            >
          ).polluted,
          prototype: body.prototype,
          nestedHasOwnProto: Object.hasOwn(nested, '__proto__'),
          nestedProtoIsObjectPrototype: Object.getPrototypeOf(nested) === Object.prototype,
          globalPolluted: ({} as Record<string, unknown>).polluted ?? null,
          globalIsAdmin: ({} as Record<string, unknown>).isAdmin ?? null,
        })
      })
      const res = await postJson(app, raw)
      expect(await res.json()).toEqual({
        bodyProtoIsObjectPrototype: true,
        ownKeys: ['__proto__', 'constructor', 'prototype', 'nested'],
        protoPolluted: '&lt;x&gt;',
        protoIsAdmin: true,
        constructorPolluted: '&lt;y&gt;',
        prototype: '&lt;z&gt;',
        nestedHasOwnProto: true,
        nestedProtoIsObjectPrototype: true,
        globalPolluted: null,
        globalIsAdmin: null,
      })
      expect(Object.prototype).not.toHaveProperty('polluted')
    },
  )

  it('keeps a __proto__ query parameter as plain data', async () => {
    const app = new Hono()
    app.get('/', xssSanitize({ sanitizeQuery: true }), (c) => {
      const query = sanitizedQuery(c) as Record<string, string>
      return c.json({ own: Object.getOwnPropertyDescriptor(query, '__proto__')?.value ?? null })
    })
    const res = await app.request('/?__proto__=%3Cx%3E')
    expect(await res.json()).toEqual({ own: '&lt;x&gt;' })
    expect(Object.prototype).not.toHaveProperty('<x>')
  })
})

describe('xssSanitize fields', () => {
  it('sanitizes only the named keys, at any depth, including everything below them', async () => {
    const input = {
      title: '<t>',
      body: '<b>',
      meta: { title: '<nested>', other: '<o>' },
      posts: [{ title: '<p>', raw: '<r>' }],
      comment: { text: '<c>', tags: ['<tag>'] },
    }
    const res = await postJson(appWith({ fields: ['title', 'comment'] }), JSON.stringify(input))
    expect((await res.json()).sanitized).toEqual({
      title: '&lt;t&gt;',
      body: '<b>',
      meta: { title: '&lt;nested&gt;', other: '<o>' },
      posts: [{ title: '&lt;p&gt;', raw: '<r>' }],
      comment: { text: '&lt;c&gt;', tags: ['&lt;tag&gt;'] },
    })
  })

  it('leaves a top-level string alone (it has no key)', async () => {
    expect((await (await postJson(appWith({ fields: ['a'] }), '"<x>"')).json()).sanitized).toBe(
      '<x>',
    )
  })
})

describe('xssSanitize query', () => {
  it('sanitizes query parameters when asked, leaving c.req.query() raw', async () => {
    const app = new Hono()
    app.get('/', xssSanitize({ sanitizeQuery: true }), (c) =>
      c.json({ sanitized: sanitizedQuery(c), raw: c.req.query('q') }),
    )
    const res = await app.request('/?q=%3Cscript%3E&n=1&q=second')
    expect(await res.json()).toEqual({
      sanitized: { q: '&lt;script&gt;', n: '1' },
      raw: '<script>',
    })
  })

  it('encodes query parameter names that carry markup', async () => {
    const app = new Hono()
    app.get('/', xssSanitize({ sanitizeQuery: true }), (c) => c.json(sanitizedQuery(c)))
    const res = await app.request('/?%3Cb%3E=%3Ci%3E')
    expect(await res.json()).toEqual({ '&lt;b&gt;': '&lt;i&gt;' })
  })

  it('applies fields to query parameter names', async () => {
    const app = new Hono()
    app.get('/', xssSanitize({ sanitizeQuery: true, fields: ['q'] }), (c) =>
      c.json(sanitizedQuery(c)),
    )
    expect(await (await app.request('/?q=%3C&r=%3C')).json()).toEqual({ q: '&lt;', r: '<' })
  })

  it('leaves the query alone by default', async () => {
    const app = new Hono()
    app.get('/', xssSanitize(), (c) => c.json({ q: sanitizedQuery(c) ?? 'unset' }))
    expect(await (await app.request('/?q=%3C')).json()).toEqual({ q: 'unset' })
  })
})

describe('xssSanitize options and wiring', () => {
  it('uses a custom sanitizer for body and query', async () => {
    const stripTags = (v: string) => v.replace(/<[^>]*>/g, '')
    const app = new Hono()
    app.post('/', xssSanitize({ sanitizer: stripTags, sanitizeQuery: true }), (c) =>
      c.json({ body: sanitizedBody(c), query: sanitizedQuery(c) }),
    )
    const res = await app.request('/?q=%3Cb%3Ehi%3C%2Fb%3E', {
      method: 'POST',
      body: '{"a":"<i>x</i> & y"}',
      headers: { 'content-type': 'application/json' },
    })
    expect(await res.json()).toEqual({ body: { a: 'x & y' }, query: { q: 'hi' } })
  })

  it('throws a clear error when sanitizedBody is used without the middleware', async () => {
    const app = new Hono()
    app.get('/', (c) => c.json(sanitizedBody(c) ?? null))
    app.onError((err, c) => c.text(err.message, 500))
    const res = await app.request('/')
    expect(await res.text()).toBe('sanitizedBody: xssSanitize() did not run for this request')
  })

  it('validates options at construction', () => {
    expect(() => xssSanitize({ fields: 'title' as never })).toThrow(/^xssSanitize: "fields"/)
    expect(() => xssSanitize({ fields: [] })).toThrow(/^xssSanitize: "fields" must not be empty/)
    expect(() => xssSanitize({ sanitizeQuery: 1 as never })).toThrow(
      /^xssSanitize: "sanitizeQuery"/,
    )
    expect(() => xssSanitize({ sanitizer: 'html' as never })).toThrow(/^xssSanitize: "sanitizer"/)
    expect(() => xssSanitize({ field: ['a'] } as never)).toThrow(
      /^xssSanitize: unknown option "field"/,
    )
  })
})
