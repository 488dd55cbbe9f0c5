/**
 * Issue 38, in-process: shield() on a JSON POST against the same route with the body parsed and
 * no shield (CPU per request, rotated batches: the target is 1.5x), and shield's cost as the body
 * grows from 1 KiB to 1 MiB (`maxInspectBytes` raised so the whole body is inspected): linear
 * means the CPU per KiB stays flat; then the detection engine against the OWASP CRS regression
 * corpus and the benign corpus (crs/table.ts), with issue 38's detection targets and the table
 * for RESULTS.md. `pnpm bench --only=shield`.
 *
 * The timed bodies carry prose that is new in every request (`jsonBody`'s `variant`), as a
 * comments or orders API receives: shield remembers the verdicts on body values it has seen
 * (shield/scan.ts), and one body sent again and again would measure that memory, not the
 * inspection. The same body every request is shown beside the target, as what the memory buys.
 * The prose is written as people write (`Prose`): until 2026-12-07 it held no apostrophe and no
 * parenthesis, which open no detector, and the row read 1.3–1.5x where everyday prose read 6.8x.
 */
import { Hono, type MiddlewareHandler } from 'hono'
import { corpusReport, corpusSection, corpusTargets } from '../crs/table'
import { cpuBatches, fmtNs, fmtRatio, fmtSpread, pairedBatches, settings } from '../lib/measure'
import { memoryServer } from '../lib/memory-http'
import { importPackage } from '../lib/palisade'
import { addRow, addTarget, heading, results, skip } from '../lib/results'

const BASE = 'http://localhost'
type Shield = (options?: Record<string, unknown>) => MiddlewareHandler

/**
 * How the bodies' prose is written. `everyday`: as people write, with an apostrophe (`don't`,
 * `Siobhan's`) and a parenthesis in each comment, the characters that open the SQL, PHP, command
 * and Java detectors' pre-filter tests. `plain`: the same sentences without either, which opens
 * none of them (the prose the 1 KiB row sent until 2026-12-07, shown beside it: it measured the
 * pre-filter, not what a comment costs).
 */
export type Prose = 'everyday' | 'plain'

/**
 * A JSON body of about `bytes` bytes: an array of comment objects with prose, a name, numbers.
 * With a `variant`, each object's title and prose carry the variant and the object's index, so
 * no two objects of any two variants share a free-text value (names and tags still repeat, as
 * they do in real traffic); without one, every object is the same but for its id.
 */
export function jsonBody(bytes: number, variant?: number, prose: Prose = 'everyday'): string {
  const item = (i: number) => {
    const n = variant === undefined ? '' : ` ${variant}.${i}`
    const body =
      prose === 'everyday'
        ? `We met at Siobhan's cafe${n} (the one near the station) and talked about the union of two teams; don't drop by before nine. See https://example.com/a?b=1.`
        : `We met at the cafe${n} and talked about the union of two teams; drop by any time. See https://example.com/a?b=1.`
    return {
      id: i,
      author: "Siobhan O'Brien",
      title: `Notes${n} on select, from and where in everyday English`,
      body,
      tags: ['prose', 'markdown', 'url'],
      published: true,
    }
  }
  const one = JSON.stringify(item(0)).length + 1
  const n = Math.max(1, Math.round(bytes / one))
  return JSON.stringify(Array.from({ length: n }, (_, i) => item(i)))
}

/**
 * Requests rotating through distinct bodies of about `bytes` bytes: 8 MiB of them (8,192 at
 * 1 KiB, 8 at 1 MiB), many times more values than shield remembers (1,024 slots), built before
 * the timing so both sides pay the same to send them.
 */
function freshPosts(bytes: number, prose?: Prose): { req: () => Request; size: number } {
  const bodies = Array.from({ length: Math.max(4, Math.round((8 * 2 ** 20) / bytes)) }, (_, v) =>
    jsonBody(bytes, v, prose),
  )
  let next = 0
  const posts = bodies.map(post)
  return {
    req: () => (posts[next++ % posts.length] as () => Request)(),
    size: (bodies[0] as string).length,
  }
}

function app(mw: MiddlewareHandler | undefined): Hono {
  const a = new Hono()
  if (mw) a.use('*', mw)
  a.post('/comments', async (c) => {
    const body = (await c.req.json()) as unknown[]
    return c.text(`read ${body.length}`)
  })
  return a
}

function post(body: string): () => Request {
  const headers = { 'content-type': 'application/json', 'content-length': String(body.length) }
  return () => new Request(`${BASE}/comments`, { method: 'POST', body, headers })
}

/**
 * The route parsing the body without shield (case 0) and the same route behind `mw` (case 1),
 * as calls that send `req()`; `undefined` (and the reason in the report) unless both answer 200.
 */
async function withAndWithout(
  mw: MiddlewareHandler,
  req: () => Request,
): Promise<Array<() => Promise<Response>> | undefined> {
  const cases: Array<[string, Hono]> = [
    ['body parsed, no shield', app(undefined)],
    ['shield()', app(mw)],
  ]
  for (const [name, a] of cases) {
    const res = await a.fetch(req())
    if (res.status !== 200) {
      skip(`${name}: answered ${res.status}`)
      return undefined
    }
  }
  return cases.map(
    ([, a]) =>
      async () =>
        a.fetch(req()),
  )
}

export async function runShield(): Promise<void> {
  const mod = (await importPackage('@palisade/middleware/shield')) as { shield?: Shield } | null
  const shield = mod?.shield
  if (!shield) {
    skip('shield: @palisade/middleware/shield is not built')
    return
  }
  const title1 = 'shield: 1 KiB JSON POST against the body parsed without shield'
  if (!settings.filter || settings.filter.test(title1)) {
    heading(title1)
    // Another Node than the bench's own (run.ts's `--node-label`): its rows and target say which.
    const on = settings.nodeLabel ? ` on ${settings.nodeLabel}` : ''
    // Paired batches (`pairedBatches`: the two sides back to back in each pair, alternating which
    // goes first): rotated rounds of 1,000 requests read this row between 1.32x and 1.52x across
    // three full runs of the same code (2026-12-07). The prose is everyday prose (`Prose`).
    const fresh = await withAndWithout(shield(), freshPosts(1024).req)
    const m = fresh && (await pairedBatches(fresh))
    if (m) {
      addRow({
        table: 'shield',
        name: `body parsed, no shield (1 KiB JSON POST, prose new in every request)${on}`,
        ns: m.cpu(0),
      })
      addRow({
        table: 'shield',
        name: `shield() (1 KiB JSON POST, everyday prose new in every request)${on}`,
        ns: m.cpu(1),
        ratio: m.ratio(1, 0),
        vs: `body parsed, no shield${on}`,
        note: `${fmtSpread(m.diff(1, 0))} over it, paired`,
      })
      addTarget({
        goal: `shield() on a 1 KiB JSON POST (everyday prose, new in every request) within 1.5x the CPU of the route parsing the body without it${on}`,
        measured: `${fmtRatio(m.ratio(1, 0))} (median of ${m.pairs} paired batches of ${m.batch} requests; quartiles of the ratio ${fmtRatio(m.ratioSpread(1, 0).q1)}–${fmtRatio(m.ratioSpread(1, 0).q3)})`,
        met: m.ratio(1, 0) <= 1.5,
      })
    }
    // Shown: prose without an apostrophe or a parenthesis (the row's body until 2026-12-07).
    const plain = await withAndWithout(shield(), freshPosts(1024, 'plain').req)
    const p = plain && (await pairedBatches(plain))
    if (p) {
      addRow({
        table: 'shield',
        name: `shield() (1 KiB JSON POST, prose without apostrophes or parentheses, new in every request)${on}`,
        ns: p.cpu(1),
        ratio: p.ratio(1, 0),
        vs: `body parsed, no shield (that prose)${on}`,
        note: `${fmtSpread(p.diff(1, 0))} over it, paired`,
      })
    }
    // Shown: the same body every request, whose values shield remembers after the first few.
    const same = await withAndWithout(shield(), post(jsonBody(1024)))
    const r = same && (await pairedBatches(same))
    if (r) {
      addRow({
        table: 'shield',
        name: `shield() (1 KiB JSON POST, the same body every request)${on}`,
        ns: r.cpu(1),
        ratio: r.ratio(1, 0),
        vs: `body parsed, no shield (same body)${on}`,
      })
    }
  }
  const title2 = 'shield: linear in the body, 1 KiB to 1 MiB'
  if (!settings.filter || settings.filter.test(title2)) {
    heading(title2)
    const sizes = [1024, 16 * 1024, 256 * 1024, 1024 * 1024]
    const perKiB: number[] = []
    for (const size of sizes) {
      const { req, size: length } = freshPosts(size)
      const inspect = shield({ maxInspectBytes: 2 * 1024 * 1024 })
      const batch = Math.max(2, Math.round((settings.quick ? 100 : 300) / (size / 1024) ** 0.5))
      const cases = await withAndWithout(inspect, req)
      const m = cases && (await cpuBatches(cases, { batch }))
      if (!m) continue
      // shield's own cost: the difference from the route that parses the same body.
      const own = Math.max(0, m.cpu(1) - m.cpu(0))
      const kib = length / 1024
      perKiB.push(own / kib)
      addRow({
        table: 'shield',
        name: `shield() over the parsed route, ${Math.round(kib)} KiB JSON`,
        ns: own,
        value: `${fmtNs(own / kib)} per KiB`,
        ratio: m.ratio(1, 0),
        vs: 'body parsed, no shield',
      })
    }
    const first = perKiB[0]
    const last = perKiB.at(-1)
    if (first && last) {
      addTarget({
        goal: 'shield() linear to 1 MiB: CPU per KiB at 1 MiB within 2x of 1 KiB',
        measured: `${fmtNs(first)} → ${fmtNs(last)} per KiB (${fmtRatio(last / first)})`,
        met: last / first <= 2,
      })
    }
  }
  const title4 = 'shield: 1 KiB JSON POST over @hono/node-server'
  if (!settings.filter || settings.filter.test(title4)) {
    heading(title4)
    await overNodeServer(shield)
  }
  // After the timed rows: the corpus loads the engine from the sources, a second copy of it.
  const title3 = 'shield: the OWASP CRS regression corpus and the benign corpus'
  if (!settings.filter || settings.filter.test(title3)) {
    heading(title3)
    const report = corpusReport()
    console.log(report.table)
    for (const target of corpusTargets(report)) addTarget(target)
    results.sections.push(
      corpusSection(report, 'the shield suite of `pnpm bench` (`crs/table.ts`)'),
    )
  }
}

/**
 * The 1 KiB row served as Node apps are served: through Node's HTTP parser and @hono/node-server
 * over in-memory connections (lib/memory-http.ts), with everyday prose new in every request. Under
 * `app.fetch` the route's cost includes building undici's Request and reading its body stream,
 * which node-server's lightweight request does not pay, so the route is cheaper here and shield's
 * share larger. Last of the timed rows: node-server installs its own `Request` and `Response` as
 * the globals when its listener is made.
 */
async function overNodeServer(shield: Shield): Promise<void> {
  const on = settings.nodeLabel ? ` on ${settings.nodeLabel}` : ''
  const encoder = new TextEncoder()
  const requests = Array.from({ length: 8192 }, (_, v) => {
    const body = jsonBody(1024, v)
    return encoder.encode(
      `POST /comments HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
    )
  })
  let next = 0
  const request = () => requests[next++ % requests.length] as Uint8Array
  // Each call serves one request per connection: 20 requests, so a batch of 15 calls is 300.
  const connections = 20
  const servers = [app(undefined), app(shield())].map((a) =>
    memoryServer(a.fetch, request, connections),
  )
  try {
    for (const server of servers) await server.serve(connections)
  } catch (err) {
    skip(`shield over @hono/node-server: ${(err as Error).message}`)
    return
  }
  const m = await pairedBatches(
    servers.map((server) => () => server.serve(connections)),
    { batch: 15 },
  )
  const perRequest = (ns: number) => ns / connections
  addRow({
    table: 'shield',
    name: `body parsed, no shield (1 KiB JSON POST over @hono/node-server, prose new in every request)${on}`,
    ns: perRequest(m.cpu(0)),
  })
  const diff = m.diff(1, 0)
  addRow({
    table: 'shield',
    name: `shield() (1 KiB JSON POST over @hono/node-server, everyday prose new in every request)${on}`,
    ns: perRequest(m.cpu(1)),
    ratio: m.ratio(1, 0),
    vs: `body parsed, no shield (over @hono/node-server)${on}`,
    note: `${fmtSpread({ ...diff, median: perRequest(diff.median), q1: perRequest(diff.q1), q3: perRequest(diff.q3) })} over it, paired`,
  })
  addTarget({
    goal: `shield() on a 1 KiB JSON POST (everyday prose, new in every request) over @hono/node-server within 1.5x the CPU of the route parsing the body without it${on}`,
    measured: `${fmtRatio(m.ratio(1, 0))} (median of ${m.pairs} paired batches of ${15 * connections} requests; quartiles of the ratio ${fmtRatio(m.ratioSpread(1, 0).q1)}–${fmtRatio(m.ratioSpread(1, 0).q3)})`,
    met: m.ratio(1, 0) <= 1.5,
  })
}
