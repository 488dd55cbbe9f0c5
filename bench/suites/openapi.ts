/**
 * @palisade/openapi against @hono/zod-openapi (issue 12): a validated JSON POST per request (and a
 * bare route calling `safeParse` by hand), and the type-check cost of a generated 100-route app
 * (`tsc --extendedDiagnostics`: instantiations and check time) written with each. Issue 21: a JSON
 * GET whose 200 declares a schema, with response validation in its default mode and `'off'`.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { createRoute, OpenAPIHono } from '@hono/zod-openapi'
import { Hono } from 'hono'
import { z } from 'zod'
import { fmtNs, fmtRatio, measureAll, pairedRatio, settings } from '../lib/measure'
import { loadOpenAPI } from '../lib/palisade'
import { addRow, addTarget, heading, skip } from '../lib/results'

const run = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')

export async function runOpenAPI(): Promise<void> {
  await validatedPost()
  await checkedResponse()
  await typeCost()
}

const NewBook = z.object({
  title: z.string().min(1).max(200),
  author: z.string().min(1),
  pages: z.number().int().min(1),
  tags: z.array(z.string()).max(10).default([]),
})

async function validatedPost(): Promise<void> {
  const T = 'openapi'
  heading('Validated JSON POST (same zod 4 schema)')
  const mod = (await loadOpenAPI()) as { openapi?: (app: Hono, o: unknown) => never }
  if (!mod.openapi) return skip('openapi(): not available')
  const ours = mod.openapi(new Hono(), { info: { title: 'b', version: '1' } }) as {
    post: (...a: unknown[]) => unknown
    fetch: (r: Request) => Promise<Response>
  }
  ours.post(
    '/books',
    (c: { req: { valid: (t: string) => unknown }; json: (v: unknown, s: number) => Response }) =>
      c.json(c.req.valid('json'), 201),
    {
      openapi: { request: { body: NewBook } },
    },
  )
  const theirs = new OpenAPIHono().openapi(
    createRoute({
      method: 'post',
      path: '/books',
      request: { body: { content: { 'application/json': { schema: NewBook } } } },
      responses: { 201: { description: 'Created' } },
    }),
    (c) => c.json(c.req.valid('json'), 201),
  )
  const bare = new Hono().post('/books', async (c) => {
    let body: unknown
    try {
      body = await c.req.json()
    } catch {
      return c.json({ error: 'malformed' }, 400)
    }
    const r = NewBook.safeParse(body)
    if (!r.success) return c.json({ error: r.error.issues }, 400)
    return c.json(r.data, 201)
  })
  const body = JSON.stringify({ title: 'Dune', author: 'Frank Herbert', pages: 412, tags: ['sf'] })
  const req = () =>
    new Request('http://localhost/books', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    })
  for (const [name, app] of [
    ['ours', ours],
    ['zod-openapi', theirs],
    ['bare', bare],
  ] as const) {
    const res = await app.fetch(req())
    if (res.status !== 201) return skip(`validated POST: ${name} answered ${res.status}`)
  }
  const [o, z1, b] = await measureAll([
    ['@palisade/openapi validated POST', () => ours.fetch(req())],
    ['@hono/zod-openapi validated POST', () => theirs.fetch(req())],
    ['bare route, safeParse by hand', () => bare.fetch(req())],
  ])
  if (!o || !z1 || !b) return
  const vsZod = pairedRatio(o, z1)
  const vsBare = pairedRatio(o, b)
  addRow({ table: T, name: 'bare Hono route + safeParse by hand', ns: b.avg })
  addRow({
    table: T,
    name: '@hono/zod-openapi validated JSON POST',
    ns: z1.avg,
    ratio: pairedRatio(z1, b),
    vs: 'bare',
  })
  addRow({
    table: T,
    name: '@palisade/openapi validated JSON POST',
    ns: o.avg,
    ratio: vsZod,
    vs: '@hono/zod-openapi',
  })
  addTarget({
    goal: 'validated JSON POST ≤1.0x @hono/zod-openapi',
    measured: `${fmtRatio(vsZod)} (${fmtNs(o.avg)} vs ${fmtNs(z1.avg)})`,
    met: vsZod <= 1.0,
  })
  addTarget({
    goal: 'validated JSON POST ≤1.2x a bare route calling safeParse',
    measured: `${fmtRatio(vsBare)} (${fmtNs(o.avg)} vs ${fmtNs(b.avg)})`,
    met: vsBare <= 1.2,
  })
}

const Book = z.object({
  id: z.number().int(),
  title: z.string(),
  author: z.string(),
  pages: z.number().int(),
  tags: z.array(z.string()),
})
const book = { id: 1, title: 'Dune', author: 'Frank Herbert', pages: 412, tags: ['sf'] }

/** A JSON GET with a declared 200 schema: response validation in the default mode vs `'off'`. */
export async function checkedResponse(): Promise<void> {
  const T = 'openapi'
  heading('JSON GET with a declared 200 schema: response validation (same zod 4 schema)')
  const mod = (await loadOpenAPI()) as { openapi?: (app: Hono, o: unknown) => never }
  if (!mod.openapi) return skip('openapi(): not available')
  type App = { get: (...a: unknown[]) => unknown; fetch: (r: Request) => Promise<Response> }
  const make = (mode: string | undefined, body: object) => {
    const api = mod.openapi?.(new Hono(), {
      info: { title: 'b', version: '1' },
      ...(mode ? { responseValidation: mode } : {}),
    }) as unknown as App
    api.get('/books/1', (c: { json: (v: unknown, s: number) => Response }) => c.json(body, 200), {
      openapi: { responses: { 200: { description: 'The book', schema: Book } } },
    })
    return api
  }
  const strip = make(undefined, book)
  const off = make('off', book)
  const leaky = make(undefined, { ...book, internal: 'x' })
  const req = () => new Request('http://localhost/books/1')
  for (const [name, app, keys] of [
    ['default', strip, 5],
    ['off', off, 5],
    ['stripping', leaky, 5],
  ] as const) {
    const res = await app.fetch(req())
    const got = res.status === 200 ? Object.keys((await res.json()) as object).length : -1
    if (got !== keys) return skip(`checked response: ${name} answered ${res.status} (${got} keys)`)
  }
  const read = async (app: App) => (await app.fetch(req())).text()
  const [o, d, l] = await measureAll([
    ["@palisade/openapi JSON GET, responseValidation 'off'", () => read(off)],
    ['@palisade/openapi JSON GET, default (strip), nothing to strip', () => read(strip)],
    ['@palisade/openapi JSON GET, default (strip), one property stripped', () => read(leaky)],
  ])
  if (!d || !o || !l) return
  // CPU time per request, in rotated batches: unlike wall time it does not grow while the
  // process waits for a core on a loaded machine (the figure the 1.3x target uses, as for the
  // rate-limit algorithms). The ratio is the median of the per-round ratios.
  const apps = [off, strip, leaky]
  const rounds: number[][] = []
  const batch = settings.quick ? 500 : 2000
  for (let round = 0; round < settings.rounds; round++) {
    const row: number[] = [0, 0, 0]
    for (let k = 0; k < apps.length; k++) {
      const i = (k + round) % apps.length
      const app = apps[i] as App
      const cpu = process.cpuUsage()
      for (let n = 0; n < batch; n++) await read(app)
      const used = process.cpuUsage(cpu)
      row[i] = ((used.user + used.system) * 1000) / batch
    }
    rounds.push(row)
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b)
    const n = s.length
    return n % 2 ? (s[n >> 1] as number) : ((s[n / 2 - 1] as number) + (s[n / 2] as number)) / 2
  }
  const cpu = (i: number) => median(rounds.map((r) => r[i] as number))
  const cpuRatio = (i: number) => median(rounds.map((r) => (r[i] as number) / (r[0] as number)))
  const ratio = cpuRatio(1)
  addRow({
    table: T,
    name: "JSON GET, declared 200 schema, responseValidation 'off'",
    ns: o.avg,
    value: `CPU ${fmtNs(cpu(0))}`,
  })
  addRow({
    table: T,
    name: 'JSON GET, declared 200 schema, default mode (strip)',
    ns: d.avg,
    value: `CPU ${fmtNs(cpu(1))} (${fmtRatio(ratio)}); wall ${fmtRatio(pairedRatio(d, o))}`,
    ratio,
    vs: "'off' (CPU)",
  })
  addRow({
    table: T,
    name: 'JSON GET, default mode, one undeclared property stripped',
    ns: l.avg,
    value: `CPU ${fmtNs(cpu(2))} (${fmtRatio(cpuRatio(2))}); wall ${fmtRatio(pairedRatio(l, o))}`,
    ratio: cpuRatio(2),
    vs: "'off' (CPU)",
  })
  addTarget({
    goal: "JSON GET with a declared 200 schema: default mode ≤1.3x 'off'",
    measured: `${fmtRatio(ratio)} CPU per request (${fmtNs(cpu(1))} vs ${fmtNs(cpu(0))}); wall ${fmtRatio(pairedRatio(d, o))}`,
    met: ratio <= 1.3,
  })
  skip("vs hono-openapi's validateResponse: hono-openapi is not a bench dependency (not measured)")
}

/** A 100-route app: half GET with path and query schemas, half POST with a body schema. */
function ourApp(n: number): string {
  const lines = [
    "import { openapi } from '@palisade/openapi'",
    "import { Hono } from 'hono'",
    "import { z } from 'zod'",
    'const Out = z.object({ id: z.number(), name: z.string() })',
    "export const app = openapi(new Hono(), { info: { title: 't', version: '1' } })",
  ]
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) {
      lines.push(
        `  .get('/r${i}/:id', (c) => { const { id } = c.req.valid('param'); const { q } = c.req.valid('query'); return c.json({ id, name: q }, 200) }, { openapi: { request: { params: z.object({ id: z.coerce.number() }), query: z.object({ q: z.string() }) }, responses: { 200: { description: 'ok', schema: Out } } } })`,
      )
    } else {
      lines.push(
        `  .post('/r${i}', (c) => { const b = c.req.valid('json'); return c.json({ id: b.n${i}, name: b.s }, 200) }, { openapi: { request: { body: z.object({ s: z.string(), n${i}: z.number() }) }, responses: { 200: { description: 'ok', schema: Out } } } })`,
      )
    }
  }
  lines.push('export type AppType = typeof app.app')
  return `${lines.join('\n')}\n`
}

/** The same app's client: `hc<AppType>` and one typed call, as a front end would use it. */
const CLIENT = [
  "import { hc } from 'hono/client'",
  "export const client = hc<AppType>('http://localhost')",
  "client.r1.$post({ json: { s: 'x', n1: 1 } })",
  '',
].join('\n')

function theirApp(n: number): string {
  const lines = [
    "import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi'",
    'const Out = z.object({ id: z.number(), name: z.string() })',
    'export const app = new OpenAPIHono()',
  ]
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) {
      lines.push(
        `  .openapi(createRoute({ method: 'get', path: '/r${i}/{id}', request: { params: z.object({ id: z.coerce.number() }), query: z.object({ q: z.string() }) }, responses: { 200: { description: 'ok', content: { 'application/json': { schema: Out } } } } }), (c) => { const { id } = c.req.valid('param'); const { q } = c.req.valid('query'); return c.json({ id, name: q }, 200) })`,
      )
    } else {
      lines.push(
        `  .openapi(createRoute({ method: 'post', path: '/r${i}', request: { body: { content: { 'application/json': { schema: z.object({ s: z.string(), n${i}: z.number() }) } } } }, responses: { 200: { description: 'ok', content: { 'application/json': { schema: Out } } } } }), (c) => { const b = c.req.valid('json'); return c.json({ id: b.n${i}, name: b.s }, 200) })`,
      )
    }
  }
  lines.push('export type AppType = typeof app')
  return `${lines.join('\n')}\n`
}

interface Diagnostics {
  instantiations: number
  checkSeconds: number
}

async function diagnose(dir: string): Promise<Diagnostics> {
  const tsc = join(root, 'node_modules/typescript/bin/tsc')
  const { stdout } = await run(process.execPath, [tsc, '-p', dir, '--extendedDiagnostics'], {
    maxBuffer: 16 * 1024 * 1024,
  }).catch((e: { stdout?: string; stderr?: string }) => {
    throw new Error(`tsc failed in ${dir}:\n${e.stdout ?? ''}${e.stderr ?? ''}`)
  })
  const num = (label: string) => {
    const m = new RegExp(`^${label}:\\s+([\\d.]+)`, 'm').exec(stdout)
    return m ? Number(m[1]) : Number.NaN
  }
  return { instantiations: num('Instantiations'), checkSeconds: num('Check time') }
}

export async function typeCost(): Promise<void> {
  const T = 'openapi'
  heading('Type-check cost of a generated 100-route app (tsc --extendedDiagnostics)')
  const n = 100
  // Our package as a user gets it: its built declarations (`pnpm build`), like zod-openapi's.
  const dts = join(root, 'packages/openapi/dist/index.d.ts')
  if (!existsSync(dts)) return skip('type cost: build @palisade/openapi first (pnpm build)')
  const base = join(import.meta.dirname, '..', '.tmp-typecost')
  await rm(base, { recursive: true, force: true })
  const compilerOptions = {
    strict: true,
    target: 'es2022',
    module: 'esnext',
    moduleResolution: 'bundler',
    skipLibCheck: true,
    noEmit: true,
    types: [],
    baseUrl: join(import.meta.dirname, '..'),
    paths: { '@palisade/openapi': [dts] },
  }
  const results: Diagnostics[] = []
  for (const [name, source] of [
    ['ours', ourApp(n)],
    ['zod-openapi', theirApp(n)],
    ['ours-client', ourApp(n) + CLIENT],
    ['zod-openapi-client', theirApp(n) + CLIENT],
  ] as const) {
    const dir = join(base, name)
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'app.ts'), source)
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions, files: ['app.ts'] }),
    )
    // Best of three: check time is wall-clock on a shared machine.
    let best: Diagnostics | undefined
    for (let k = 0; k < 3; k++) {
      const d = await diagnose(dir)
      if (!best || d.checkSeconds < best.checkSeconds) best = d
    }
    results.push(best as Diagnostics)
  }
  await rm(base, { recursive: true, force: true })
  const [o, t, oc, tc] = results as [Diagnostics, Diagnostics, Diagnostics, Diagnostics]
  const inst = o.instantiations / t.instantiations
  const check = o.checkSeconds / t.checkSeconds
  const instClient = oc.instantiations / tc.instantiations
  const checkClient = oc.checkSeconds / tc.checkSeconds
  addRow({
    table: T,
    name: `@hono/zod-openapi, ${n} routes: tsc`,
    value: `${t.instantiations.toLocaleString('en')} instantiations, check ${t.checkSeconds.toFixed(2)} s`,
  })
  addRow({
    table: T,
    name: `@palisade/openapi, ${n} routes: tsc`,
    value: `${o.instantiations.toLocaleString('en')} instantiations, check ${o.checkSeconds.toFixed(2)} s`,
    ratio: inst,
    vs: 'zod-openapi instantiations',
  })
  addRow({
    table: T,
    name: `@hono/zod-openapi, ${n} routes + hc<AppType> client: tsc`,
    value: `${tc.instantiations.toLocaleString('en')} instantiations, check ${tc.checkSeconds.toFixed(2)} s`,
  })
  addRow({
    table: T,
    name: `@palisade/openapi, ${n} routes + hc<AppType> client: tsc`,
    value: `${oc.instantiations.toLocaleString('en')} instantiations, check ${oc.checkSeconds.toFixed(2)} s`,
    ratio: instClient,
    vs: 'zod-openapi instantiations',
  })
  addTarget({
    goal: `type-check of a ${n}-route app ≤0.5x @hono/zod-openapi (instantiations and check time)`,
    measured: `instantiations ${fmtRatio(inst)}, check time ${fmtRatio(check)}; with an hc<AppType> client in both: ${fmtRatio(instClient)}, ${fmtRatio(checkClient)}`,
    met: inst <= 0.5 && check <= 0.5,
    note: 'the wrapper reads the base path from the path type of Hono’s use() handlers, not from Hono<E, S, infer B>, which would make tsc compute the variance of Hono’s type parameters (about 139,000 instantiations); hc<AppType> and app.route() need that computation, so the client rows include it',
  })
}
