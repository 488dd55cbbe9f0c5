/**
 * Writes bench/RESULTS.md (machine, versions, targets, every table) and bench/http-chart.png (an
 * SVG bar chart of the HTTP comparison, screenshotted with playwright-core and the system
 * Chromium). The hand-written analysis is bench/FINDINGS.md, which RESULTS.md links to.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { fileURLToPath } from 'node:url'
import { writeMarkdown } from './markdown'
import { fmtNs, fmtRatio, settings } from './measure'
import { loadProblems } from './palisade'
import { type HttpResult, results } from './results'

const HERE = new URL('../', import.meta.url)
const path = (rel: string) => fileURLToPath(new URL(rel, HERE))

const PACKAGES = [
  'hono',
  '@hono/node-server',
  'express',
  'helmet',
  'cors',
  'express-rate-limit',
  'express-session',
  'csrf-csrf',
  'express-jwt',
  'fastify',
  '@fastify/helmet',
  '@fastify/cors',
  '@fastify/rate-limit',
  '@fastify/jwt',
  '@fastify/secure-session',
  '@fastify/csrf-protection',
  '@hono/zod-openapi',
  'hono-openapi',
  'zod',
  'zod3',
  'mitata',
  'autocannon',
  'jose',
]

function version(name: string): string {
  for (const dir of ['node_modules', '../node_modules']) {
    const file = path(`${dir}/${name}/package.json`)
    if (existsSync(file))
      return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version
  }
  return '?'
}

export interface RunInfo {
  startedAt: Date
  seconds: number
  loadBefore: number[]
  loadAfter: number[]
  args: string[]
}

const esc = (s: string) => s.replace(/\|/g, '\\|')

function machine(info: RunInfo): string {
  const cpus = os.cpus()
  return [
    `- Date: ${info.startedAt.toISOString()} (run took ${info.seconds.toFixed(0)} s, \`${['pnpm bench', ...info.args].join(' ')}\`)`,
    `- CPU: ${cpus.length} × ${cpus[0]?.model ?? 'unknown'}; ${Math.round(os.totalmem() / 2 ** 30)} GB RAM; ${os.type()} ${os.release()} ${os.arch()}`,
    `- Node ${process.version}`,
    `- Load average (1 min) before / after the run: ${info.loadBefore[0]?.toFixed(2)} / ${info.loadAfter[0]?.toFixed(2)}${(info.loadBefore[0] ?? 0) > cpus.length * 0.5 ? ' — the machine was shared with other work, so absolute figures are noisy; ratios come from interleaved measurements and are more stable' : ''}`,
    `- Measurement in process: the "within N µs" rows (botGuard, concurrencyLimit, the openapi wrapper, loadShed) in CPU time, ${settings.quick ? 60 : 200} paired batches of ${settings.quick ? 200 : 300} requests per side (order alternated per pair, warm-up pairs dropped, each batch paying for its own young-generation collection), figure = median of the per-pair differences with their IQR${settings.repeat > 1 ? `, each row measured ${settings.repeat} times in a row` : ''}; the other middleware comparisons and the openapi targets in CPU time, ${settings.rounds} rotated rounds of ${settings.quick ? 500 : 2000} requests per case, time = the median round; elsewhere mitata ${version('mitata')}, ${settings.rounds} interleaved slices of ≥${settings.minCpuMs} ms per case, time = lower quartile of the slice medians`,
  ].join('\n')
}

function targetsTable(): string {
  const lines = ['| Target | Measured | Met |', '|---|---|---|']
  for (const t of results.targets) {
    lines.push(
      `| ${esc(t.goal)} | ${esc(t.measured)}${t.note ? ` (${esc(t.note)})` : ''} | ${t.met === null ? 'not measured' : t.met ? 'yes' : '**no**'} |`,
    )
  }
  return lines.join('\n')
}

function rowsTable(table: string): string {
  const lines = ['| Case | Time per op | Other | Ratio | Note |', '|---|---:|---|---:|---|']
  for (const r of results.rows.filter((x) => x.table === table)) {
    lines.push(
      `| ${esc(r.name)} | ${r.ns !== undefined ? fmtNs(r.ns) : ''} | ${esc(r.value ?? '')} | ${r.ratio !== undefined ? `${fmtRatio(r.ratio)} vs ${esc(r.vs ?? '')}` : ''} | ${esc(r.note ?? '')} |`,
    )
  }
  return lines.join('\n')
}

function range(r: [number, number] | undefined, digits: number, unit: string): string {
  return r ? `${r[0].toFixed(digits)}–${r[1].toFixed(digits)}${unit}` : ''
}

function httpTable(): string {
  const lines = [
    '| Server | Stack | req/s | p50 | p99 | server CPU per request | req/s, all rounds | CPU per request, all rounds | of it in GC pauses, all rounds | req/s vs ours | p99 vs ours | CPU/request vs ours | non-2xx / errors |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ]
  for (const r of results.http) {
    lines.push(
      `| ${esc(r.name)} | ${esc(r.stack)} | ${r.rps.toFixed(0)} | ${r.p50} ms | ${r.p99} ms | ${r.cpuPerRequest.toFixed(1)} µs | ${range(r.rpsRange, 0, '')} | ${range(r.cpuRange, 1, ' µs')} | ${r.gcShareRange ? range([100 * r.gcShareRange[0], 100 * r.gcShareRange[1]], 1, '%') : ''} | ${r.ratioRps ? fmtRatio(r.ratioRps) : ''} | ${r.ratioP99 ? fmtRatio(r.ratioP99) : ''} | ${r.ratioCpu ? fmtRatio(r.ratioCpu) : ''} | ${r.non2xx} / ${r.errors} |`,
    )
  }
  return lines.join('\n')
}

/** A horizontal bar chart of req/s with p99 labels. */
export function chartSvg(http: HttpResult[]): string {
  const width = 1000
  const rowH = 46
  const left = 330
  const top = 88
  const height = top + http.length * rowH + 40
  const max = Math.max(...http.map((r) => r.rps), 1)
  const bars = http
    .map((r, i) => {
      const y = top + i * rowH
      const w = Math.max(2, ((width - left - 330) * r.rps) / max)
      const fill = r.name.startsWith('Palisade') ? '#2563eb' : '#9ca3af'
      return `<text x="${left - 12}" y="${y + 24}" text-anchor="end" font-size="15">${escXml(r.name)}</text>
<rect x="${left}" y="${y + 8}" width="${w.toFixed(1)}" height="26" rx="3" fill="${fill}"/>
<text x="${left + w + 8}" y="${y + 26}" font-size="14">${Math.round(r.rps).toLocaleString('en')} req/s · p99 ${r.p99} ms · ${r.cpuPerRequest.toFixed(0)} µs CPU/req</text>`
    })
    .join('\n')
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans, Arial, sans-serif">
<title>HTTP comparison: requests per second per server</title>
<rect width="100%" height="100%" fill="#fff"/>
<text x="24" y="34" font-size="20" font-weight="bold">GET /api/me over loopback: requests per second (higher is better)</text>
<text x="24" y="56" font-size="13" fill="#555">Each server in its own process; security headers, CORS, rate limit, session, CSRF (not in the example app), JWT</text>
<text x="24" y="74" font-size="13" fill="#555">blue: Palisade · grey: others · autocannon · ${escXml(`${os.cpus().length} × ${os.cpus()[0]?.model ?? ''}`)} · Node ${process.version}</text>
${bars}
</svg>`
}

function escXml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
}

export async function renderChart(svg: string): Promise<string> {
  mkdirSync(path('results'), { recursive: true })
  writeFileSync(path('results/http-chart.svg'), svg)
  const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p))
  if (!chromium) return 'no Chromium at /usr/bin/chromium; chart left as SVG only'
  const { chromium: pw } = await import('playwright-core')
  const browser = await pw.launch({
    executablePath: chromium,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
  try {
    const page = await browser.newPage({ deviceScaleFactor: 2 })
    await page.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`)
    await page.locator('svg').screenshot({ path: path('http-chart.png') })
    return 'http-chart.png written'
  } finally {
    await browser.close()
  }
}

export async function writeReport(info: RunInfo): Promise<void> {
  let chart = 'no HTTP results, no chart'
  if (results.http.length) {
    try {
      chart = await renderChart(chartSvg(results.http))
    } catch (error) {
      chart = `chart not rendered: ${(error as Error).message.split('\n')[0]}`
    }
  }
  console.log(`\n${chart}`)
  const sections = [
    '# Benchmark results',
    '',
    'Generated by `pnpm bench` (bench/run.ts); do not edit by hand. What the figures mean, what costs what and why: [FINDINGS.md](FINDINGS.md). Absolute times depend on the machine; the ratios are what the targets are about. Time ratios: lower is faster. HTTP ratios: req/s of the other server divided by ours.',
    '',
    '## Machine',
    '',
    machine(info),
    '',
    '## Versions',
    '',
    PACKAGES.map((p) => `\`${p}\` ${version(p)}`).join(' · '),
    '',
    '## Targets',
    '',
    targetsTable(),
    '',
  ]
  if (results.http.length) {
    sections.push(
      '## HTTP on loopback',
      '',
      `Each server in its own child process; autocannon in the HTTP suite's process, same connections and duration for all${results.httpPinned ? ` (pinned: ${results.httpPinned})` : ''}; GET /api/me with a JWT, a session cookie and (where the stack uses one) a CSRF cookie; each server's best window, with the lowest and highest of all its windows beside it; every compared pair ran back to back in each round (issue 42)${results.httpTurns ? `, ${results.httpTurns}` : ''}, and each target line ends with the spread of its per-round ratios. "Ours" = ${results.oursHttp ?? 'the Palisade stack'}. Server CPU per request = the child's user+system CPU time over the measured turns divided by the requests it served in them; it moves less than req/s when other processes compete for the CPU, but on a shared 2-core machine the same server's figure still moves by up to 2x from one minute to the next, which is why a pair takes turns. An HTTP target counts as met only when it holds in every round, on req/s and on CPU per request. Load average (1 min) at the start of each round: ${results.httpLoad.map((l) => l.toFixed(2)).join(', ') || 'not recorded'}.`,
      '',
      httpTable(),
      '',
      '![HTTP comparison](http-chart.png)',
      '',
    )
  }
  if (results.rows.some((r) => r.table === 'middleware')) {
    sections.push('## Per middleware, in process (`app.fetch`)', '', rowsTable('middleware'), '')
  }
  if (results.rows.some((r) => r.table === 'components')) {
    sections.push('## Components', '', rowsTable('components'), '')
  }
  if (results.rows.some((r) => r.table === 'openapi')) {
    sections.push(
      '## @palisade/openapi vs @hono/zod-openapi and hono-openapi (validation, response checks, types)',
      '',
      rowsTable('openapi'),
      '',
    )
  }
  if (results.rows.some((r) => r.table === 'shield')) {
    sections.push('## shield(), in process (CPU per request)', '', rowsTable('shield'), '')
  }
  for (const section of results.sections) sections.push(section, '')
  if (results.rows.some((r) => r.table === 'start')) {
    sections.push(
      '## Start: spawn to first answered request',
      '',
      "The example's start command on a warm install, beside plain Node and the same command serving a one-line server; medians and ranges of interleaved runs (method in the notes below).",
      '',
      rowsTable('start'),
      '',
    )
  }
  if (results.notes.length)
    sections.push('## Method notes', '', ...results.notes.map((n) => `- ${n}`), '')
  const skipped = [...results.skipped, ...[...loadProblems].map(([k, v]) => `${k}: ${v}`)]
  if (skipped.length)
    sections.push('## Not measured in this run', '', ...skipped.map((s) => `- ${esc(s)}`), '')
  // The stores section comes from its own run (`--only=stores`); keep it across full runs.
  const previous = existsSync(path('RESULTS.md')) ? readFileSync(path('RESULTS.md'), 'utf8') : ''
  const storesAt = previous.indexOf('<!-- stores:start -->')
  const storesEnd = previous.indexOf('<!-- stores:end -->')
  if (storesAt >= 0 && storesEnd > storesAt) {
    sections.push(previous.slice(storesAt, storesEnd + '<!-- stores:end -->'.length), '')
  }
  writeMarkdown(path('RESULTS.md'), sections.join('\n'))
  console.log('RESULTS.md written')
}
