/**
 * Components on their own: MemoryRateLimitStore throughput and memory, xssSanitize on a 1 MB JSON
 * body, OpenAPI spec generation for 10 … 10,000 routes and a cached spec request.
 */
import { Hono } from 'hono'
import { fmtNs, fmtRatio, measureAll, settings } from '../lib/measure'
import { loadOpenAPI, loadPalisade } from '../lib/palisade'
import { addRow, addTarget, heading, results, skip } from '../lib/results'

const gc = (globalThis as { gc?: () => void }).gc

function heapAfterGc(): number {
  gc?.()
  gc?.()
  return process.memoryUsage().heapUsed
}

export async function runComponents(): Promise<void> {
  await rateLimitStore()
  await xss()
  await spec()
}

async function rateLimitStore(): Promise<void> {
  const T = 'components'
  heading('MemoryRateLimitStore')
  const p = await loadPalisade()
  if (!p.MemoryRateLimitStore) return skip('MemoryRateLimitStore: module not available')
  const store = new p.MemoryRateLimitStore()
  const keys = Array.from({ length: 10_000 }, (_, i) => `198.51.${i >> 8}.${i & 255}`)
  let i = 0
  const [hot, spread] = await measureAll([
    ['increment, one hot key', () => store.increment('203.0.113.9', 60_000)],
    [
      'increment, 10,000 rotating keys',
      () => store.increment(keys[i++ % keys.length] as string, 60_000),
    ],
  ])
  for (const t of [hot, spread]) {
    if (!t) continue
    addRow({
      table: T,
      name: `MemoryRateLimitStore ${t.name}`,
      ns: t.avg,
      value: `${(1e9 / t.avg / 1e6).toFixed(2)} M increments/s`,
    })
  }
  store.destroy?.()

  // Memory: one million distinct keys in one window, measured after forced GC. The store holds at
  // most maxKeys (default 100,000) keys; the rest share its overflow counter.
  const n = 1_000_000
  const big = new p.MemoryRateLimitStore()
  const before = heapAfterGc()
  const start = performance.now()
  for (let k = 0; k < n; k++)
    await big.increment(`10.${(k >> 16) & 255}.${(k >> 8) & 255}.${k & 255}`, 60_000)
  const took = performance.now() - start
  const after = heapAfterGc()
  const bytes = after - before
  const held = (big as { size?: number }).size ?? n
  addRow({
    table: T,
    name: 'MemoryRateLimitStore, 1,000,000 distinct keys',
    value: `${(bytes / 1024 / 1024).toFixed(1)} MB heap, ${held.toLocaleString('en')} keys held (${(bytes / held).toFixed(0)} B/key), filled in ${(took / 1000).toFixed(2)} s`,
    note: gc ? undefined : 'run with --expose-gc for exact figures',
  })
  big.destroy?.()
}

/** A ~1 MB JSON document of nested records with markup in most strings. */
export function megabyteJson(): string {
  const items: unknown[] = []
  let size = 0
  for (let i = 0; size < 1_000_000; i++) {
    const item = {
      id: i,
      title: `<b>Item ${i}</b> & "friends"`,
      body: `<script>alert(${i})</script> plain words follow here, ${'lorem ipsum '.repeat(4)}`,
      tags: ['<i>x</i>', 'safe', `t${i}`],
      owner: { name: `O'Brien ${i}`, email: `user${i}@example.com` },
    }
    items.push(item)
    size += JSON.stringify(item).length + 1
  }
  return JSON.stringify({ items })
}

async function xss(): Promise<void> {
  const T = 'components'
  heading('xssSanitize on a 1 MB JSON body')
  const p = await loadPalisade()
  const sanitizedBody = (p as { sanitizedBody?: (c: unknown) => unknown }).sanitizedBody
  if (!p.xssSanitize || !sanitizedBody) return skip('xssSanitize: module not available')
  const body = megabyteJson()
  const bytes = new TextEncoder().encode(body).length
  const headers = { 'content-type': 'application/json', 'content-length': String(bytes) }
  const req = () => new Request('http://localhost/', { method: 'POST', body, headers })
  const bare = new Hono()
  bare.post('/', async (c) => c.text(String(Object.keys(await c.req.json()).length)))
  const ours = new Hono()
  ours.use('*', p.xssSanitize())
  ours.post('/', (c) => c.text(String(Object.keys(sanitizedBody(c) as object).length)))
  const check = await ours.fetch(req())
  if (check.status !== 200) return skip(`xssSanitize: answered ${check.status} on the 1 MB body`)
  const [b, x] = await measureAll([
    ['JSON.parse only (bare route)', () => bare.fetch(req())],
    ['xssSanitize + sanitizedBody', () => ours.fetch(req())],
  ])
  if (!b || !x) return
  addRow({
    table: T,
    name: 'bare route parsing 1 MB JSON',
    ns: b.avg,
    value: `${(bytes / 1e6 / (b.avg / 1e9)).toFixed(0)} MB/s`,
  })
  addRow({
    table: T,
    name: 'xssSanitize on 1 MB JSON',
    ns: x.avg,
    value: `${(bytes / 1e6 / (x.avg / 1e9)).toFixed(0)} MB/s`,
    ratio: x.avg / b.avg,
    vs: 'JSON.parse only',
  })
}

async function spec(): Promise<void> {
  const T = 'components'
  heading('OpenAPI spec generation')
  const mod = await loadOpenAPI()
  if (!mod.openapi) return skip('openapi(): not available yet')
  const openapi = mod.openapi
  const sizes = [10, 100, 1_000, 10_000]
  const perRoute = new Map<number, number>()
  for (const n of sizes) {
    // A fresh app per sample; `spec()` builds the document and its JSON text once, then caches
    // them, so its first call is exactly one generation. Building the app is not timed, and a
    // forced GC before each sample keeps the previous sample's garbage out of the timing.
    const budgetMs = settings.quick ? 400 : 1_500
    const samples: number[] = []
    let pathCount = 0
    const started = performance.now()
    while (
      samples.length < (settings.quick ? 5 : 7) ||
      (performance.now() - started < budgetMs && samples.length < 200)
    ) {
      const api = buildApi(openapi, n)
      gc?.()
      let doc: { paths?: object }
      const t0 = performance.now()
      if (typeof api.wrapper.spec === 'function') {
        doc = api.wrapper.spec()
      } else {
        const res = await api.app.fetch(new Request('http://localhost/openapi.json'))
        doc = JSON.parse(await res.text())
      }
      samples.push((performance.now() - t0) * 1e6)
      if (!pathCount) pathCount = Object.keys(doc.paths ?? {}).length
    }
    samples.sort((x, y) => x - y)
    const median = samples[samples.length >> 1] as number
    perRoute.set(n, median / n)
    addRow({
      table: T,
      name: `spec generation, ${n.toLocaleString('en')} routes (${pathCount} paths)`,
      ns: median,
      value: `${fmtNs(median / n)} per route, median of ${samples.length}`,
    })
  }
  const a = perRoute.get(100)
  const b = perRoute.get(10_000)
  addTarget({
    goal: 'spec generation cost per route flat from 100 to 10,000 routes (≤1.5x)',
    measured: a && b ? `${fmtRatio(b / a)} (per route ${fmtNs(a)} → ${fmtNs(b)})` : 'not measured',
    met: a && b ? b / a <= 1.5 : null,
  })

  const cached = buildApi(openapi, 1_000)
  const cachedBytes = (
    await (await cached.app.fetch(new Request('http://localhost/openapi.json'))).arrayBuffer()
  ).byteLength
  const bare = new Hono()
  bare.get('/ping', (c) => c.json({ ok: true }))
  const [c1, c2] = await measureAll([
    [
      'bare JSON route',
      async () => (await bare.fetch(new Request('http://localhost/ping'))).arrayBuffer(),
    ],
    [
      'cached spec request (1,000 routes)',
      async () =>
        (await cached.app.fetch(new Request('http://localhost/openapi.json'))).arrayBuffer(),
    ],
  ])
  if (c1 && c2) {
    addRow({ table: T, name: 'bare JSON route, body read', ns: c1.avg })
    addRow({
      table: T,
      name: 'cached /openapi.json, 1,000 routes, body read',
      value: `${cachedBytes.toLocaleString('en')} bytes`,
      ns: c2.avg,
      ratio: c2.avg / c1.avg,
      vs: 'bare JSON route',
    })
  }
  results.notes.push(
    'Spec generation is timed as the first `api.spec()` of a freshly built wrapper: one generateSpec() over the route records plus the JSON.stringify the wrapper caches with it. Building the app is not timed; a forced GC runs before each sample. Median over fresh apps. The cached request row is GET /openapi.json on a warm 1,000-route app with the body read, as a client would; the bare row reads its body too.',
  )
}

// biome-ignore lint/suspicious/noExplicitAny: the wrapper is loaded from source at run time
export function buildApi(openapi: (app: any, options: any) => any, n: number) {
  const app = new Hono()
  const wrapper = openapi(app, { info: { title: 'Bench API', version: '1.0.0' } })
  const body = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      email: { type: 'string', format: 'email' },
      age: { type: 'integer' },
    },
    required: ['name', 'email'],
  }
  const ok = {
    description: 'OK',
    schema: { type: 'object', properties: { id: { type: 'string' } } },
  }
  for (let i = 0; i < n; i++) {
    const res = `/r${i}`
    if (i % 2 === 0) {
      wrapper.get(`${res}/:id`, (c: { text(s: string): Response }) => c.text('x'), {
        openapi: {
          summary: `Get ${i}`,
          tags: [`t${i % 20}`],
          request: {
            params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
            query: {
              type: 'object',
              properties: { q: { type: 'string' }, limit: { type: 'integer' } },
            },
          },
          responses: { 200: ok, 404: { description: 'Not found' } },
        },
      })
    } else {
      wrapper.post(res, (c: { text(s: string): Response }) => c.text('x'), {
        openapi: { summary: `Create ${i}`, request: { body }, responses: { 201: ok } },
      })
    }
  }
  return { app, wrapper }
}
