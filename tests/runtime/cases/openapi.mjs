export default {
  name: 'openapi',
  from: '@palisade/openapi',
  exports: ['openapi'],
  barrel: false,
  async run({ mod: { openapi }, Hono, t }) {
    const app = new Hono()
    const api = openapi(app, { info: { title: 'Matrix <API>', version: '1.0.0' } })
    api.get('/users/:id', (c) => c.json({ id: c.req.param('id') }), {
      openapi: {
        summary: 'Get a user',
        request: {
          params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        },
        responses: { 200: { description: 'The user' } },
      },
    })
    api.post('/users', (c) => c.json({ ok: true }, 201), {
      openapi: {
        request: {
          body: {
            type: 'object',
            properties: { name: { type: 'string' }, email: { type: 'string' } },
          },
        },
      },
    })

    let res = await app.request('/users/42')
    t.equal('documented route still serves', (await res.json()).id, '42')

    res = await app.request('/openapi.json')
    t.equal('spec endpoint → 200', res.status, 200)
    const doc = await res.json()
    t.equal('openapi is 3.1.0', doc.openapi, '3.1.0')
    t.equal('info.title', doc.info?.title, 'Matrix <API>')
    t.ok(
      ':id becomes {id}',
      Boolean(doc.paths?.['/users/{id}']?.get),
      Object.keys(doc.paths ?? {}).join(', '),
    )
    t.equal('summary kept', doc.paths?.['/users/{id}']?.get?.summary, 'Get a user')
    t.ok(
      'request body schema registered in components',
      Boolean(doc.components?.schemas?.NameAndEmail),
      Object.keys(doc.components?.schemas ?? {}).join(', '),
    )

    for (const path of ['/explorer', '/reference']) {
      res = await app.request(path)
      const html = await res.text()
      t.ok(
        `${path} serves HTML`,
        res.status === 200 && /text\/html/.test(res.headers.get('content-type') ?? ''),
        `${res.status}`,
      )
      t.ok(`${path} escapes the title`, !html.includes('Matrix <API>'))
      // Offline viewers: every script, style and icon comes from this app and is served.
      const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1])
      const external = refs.filter((r) => !r.startsWith('/'))
      t.ok(
        `${path} loads nothing from another origin`,
        refs.length > 0 && external.length === 0,
        external.join(', '),
      )
      const broken = []
      for (const ref of refs) {
        const asset = await app.request(ref)
        const bytes = (await asset.arrayBuffer()).byteLength
        if (asset.status !== 200 || bytes === 0) broken.push(`${ref} → ${asset.status}, ${bytes} B`)
      }
      t.ok(`${path} serves its ${refs.length} assets`, broken.length === 0, broken.join('; '))
      // The viewer bundle is served pre-compressed; its plain form (gzip, decompressed with
      // DecompressionStream on this runtime) has the SHA-256 its file name carries.
      const bundle = refs.find((r) =>
        /\/(swagger-ui-bundle|redoc\.standalone)\.[0-9a-f]{16}\.js$/.test(r),
      )
      const hash = bundle?.split('.').at(-2)
      const codings = []
      for (const ae of ['br', 'gzip', 'identity']) {
        const res = await app.request(bundle ?? '', { headers: { 'Accept-Encoding': ae } })
        codings.push(res.headers.get('content-encoding') ?? 'identity')
        if (ae === 'identity') {
          const digest = new Uint8Array(
            await crypto.subtle.digest('SHA-256', await res.arrayBuffer()),
          )
          const hex = [...digest].map((b) => b.toString(16).padStart(2, '0')).join('')
          codings.push(hex.slice(0, 16) === hash ? 'hash ok' : `hash ${hex.slice(0, 16)} ≠ ${hash}`)
        }
      }
      t.equal(
        `${path}: viewer bundle as br, gzip and plain`,
        codings.join(', '),
        'br, gzip, identity, hash ok',
      )
    }

    // Zod 4 schemas (optional peer, resolved from the workspace root) convert on every runtime.
    const { z } = await import('zod')
    const todos = new Hono()
    openapi(todos, { info: { title: 'Todos', version: '1' } }).post('/todos', (c) => c.text('ok'), {
      openapi: {
        request: { body: z.object({ title: z.string().min(1), done: z.boolean() }) },
        responses: { 201: { description: 'Created' } },
      },
    })
    const spec = await (await todos.request('/openapi.json')).json()
    const schema = spec.components?.schemas?.TitleAndDone
    t.ok(
      'zod object → components.schemas.TitleAndDone with minLength',
      schema?.type === 'object' && schema.properties?.title?.minLength === 1,
      JSON.stringify(spec.components),
    )
  },
}
