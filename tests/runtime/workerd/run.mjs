#!/usr/bin/env node
// The runtime matrix's workerd column: bundles worker.mjs (smoke.mjs and its cases, importing the
// BUILT packages by name, resolved through tests/runtime/node_modules) into one module with
// esbuild, runs it in workerd through miniflare (binary from @cloudflare/workerd-linux-64, nothing
// downloaded), and prints the same lines and `SMOKE_SUMMARY` as smoke.mjs, so run-matrix.mjs
// treats workerd as one more runtime.
//
// Cases that need what a Worker does not have are left out: `server` and `stack` listen on a port
// (a Worker is handed requests; the `workerd` checks below go through workerd's own request path
// instead) and `cjs` calls require() (Workers load ES modules only).
//
// Usage: node tests/runtime/workerd/run.mjs [case names…]

import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { Miniflare } from 'miniflare'
import { cases } from '../cases/index.mjs'

const HERE = dirname(fileURLToPath(import.meta.url))
const NOT_IN_WORKERS = new Set(['server', 'stack', 'cjs'])

const filter = process.argv.slice(2).filter((a) => !a.startsWith('--'))
const selected = cases.filter(
  (c) => !NOT_IN_WORKERS.has(c.name) && (filter.length === 0 || filter.includes(c.name)),
)
const specifiers = [
  ...new Set([
    'hono',
    '@palisade/middleware',
    ...selected.flatMap((c) => [c.from, ...(c.needs ?? [])]),
  ]),
]

const require = (await import('node:module')).createRequire(import.meta.url)
const workerdVersion = JSON.parse(
  readFileSync(join(dirname(require.resolve('miniflare')), '..', '..', 'package.json'), 'utf8'),
).dependencies.workerd

/** `smoke:modules`: one static import() per specifier, so esbuild bundles each of them. */
const smokeModules = {
  name: 'smoke-modules',
  setup(b) {
    b.onResolve({ filter: /^smoke:modules$/ }, () => ({
      path: 'smoke:modules',
      namespace: 'smoke',
    }))
    b.onLoad({ filter: /.*/, namespace: 'smoke' }, () => {
      const entries = specifiers.map(
        (s) => `  ${JSON.stringify(s)}: () => import(${JSON.stringify(s)}),`,
      )
      const where = Object.fromEntries(specifiers.map((s) => [s, import.meta.resolve(s)]))
      return {
        contents: `export const modules = {\n${entries.join('\n')}\n}\nexport const resolved = ${JSON.stringify(where)}\n`,
        resolveDir: HERE,
      }
    })
    // Imported by the skipped cases only (server, cjs): never called inside the Worker.
    b.onResolve({ filter: /^(node:module|@hono\/node-server)$/ }, ({ path }) => ({
      path,
      namespace: 'unavailable',
    }))
    b.onLoad({ filter: /.*/, namespace: 'unavailable' }, ({ path }) => ({
      contents: `const no = () => { throw new Error(${JSON.stringify(`${path} is not available in workerd`)}) }\nexport const createRequire = no\nexport const serve = no\n`,
    }))
  },
}

const started = performance.now()
const bundled = await build({
  entryPoints: [join(HERE, 'worker.mjs')],
  absWorkingDir: join(HERE, '..'),
  // Not the root tsconfig: its `paths` point package names at src/.
  tsconfig: join(HERE, '..', 'bun-tsconfig-override.json'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  conditions: ['workerd', 'worker', 'browser'],
  define: { 'globalThis.__SMOKE_EMBEDDED__': 'true' },
  write: false,
  metafile: true,
  plugins: [smokeModules],
  logLevel: 'silent',
})
const code = bundled.outputFiles[0].text
// The Worker must run the built packages, never their source.
const fromSource = Object.keys(bundled.metafile.inputs).filter((f) =>
  /packages\/(middleware|openapi)\/src\//.test(f),
)

const path = join(HERE, 'worker.bundle.mjs')
const mf = new Miniflare({
  modulesRoot: HERE,
  // Given as a module list: miniflare's dependency walk would refuse ssrfGuard's lazy
  // `import('node:dns/promises')` (a variable specifier), which workerd itself simply rejects.
  modules: [{ type: 'ESModule', path, contents: code }],
  compatibilityDate: '2025-09-01',
  bindings: { WORKERD_VERSION: workerdVersion },
})

const lines = []
const extra = []
const check = (label, pass, detail) => {
  extra.push(['workerd', label, Boolean(pass)])
  lines.push(
    `  ${pass ? 'ok  ' : 'FAIL'} workerd: ${label}${pass || !detail ? '' : ` — ${detail}`}`,
  )
}
let exitCode = 1
try {
  const query = selected.map((c) => `case=${encodeURIComponent(c.name)}`).join('&')
  const res = await mf.dispatchFetch(`http://matrix.test/smoke?${query}`)
  const text = await res.text()
  const out = text.split('\n')
  const summaryLine = out.find((l) => l.startsWith('SMOKE_SUMMARY '))
  lines.push(...out.filter((l) => !l.startsWith('SMOKE_SUMMARY ')))
  const summary = summaryLine ? JSON.parse(summaryLine.slice('SMOKE_SUMMARY '.length)) : null

  if (filter.length === 0 || filter.includes('workerd')) {
    check('bundle imports dist/ only', fromSource.length === 0, fromSource.join(', '))
    const get = (p, headers = {}) => mf.dispatchFetch(`http://matrix.test${p}`, { headers })
    const post = (p, body) =>
      mf.dispatchFetch(`http://matrix.test${p}`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      })
    const status = async (resP) => {
      const r = await resP
      await r.arrayBuffer()
      return r.status
    }
    // Client IP: cf-connecting-ip, written by Cloudflare's edge; X-Forwarded-For is ignored.
    check(
      'ipGuard denies by cf-connecting-ip',
      (await status(get('/edge/denied/x', { 'cf-connecting-ip': '203.0.113.7' }))) === 403,
    )
    check(
      'ipGuard ignores a forged X-Forwarded-For next to cf-connecting-ip',
      (await status(
        get('/edge/denied/x', {
          'cf-connecting-ip': '198.51.100.1',
          'x-forwarded-for': '203.0.113.7',
        }),
      )) === 200,
    )
    const a1 = await status(get('/edge/limited/x', { 'cf-connecting-ip': '198.51.100.20' }))
    const a2 = await status(
      get('/edge/limited/x', {
        'cf-connecting-ip': '198.51.100.20',
        'x-forwarded-for': '10.9.9.9',
      }),
    )
    const b1 = await status(get('/edge/limited/x', { 'cf-connecting-ip': '198.51.100.21' }))
    check(
      'rateLimit keys by cf-connecting-ip (XFF cannot reset it)',
      a1 === 200 && a2 === 429 && b1 === 200,
      `${a1} ${a2} ${b1}`,
    )
    // ssrfGuard's edge path: no DNS in a Worker, so names are not resolved; literals, localhost,
    // internal names and the scheme are still enforced.
    const ssrf = async (url) => {
      const r = await post('/edge/fetch', { url })
      return `${r.status} ${await r.text()}`
    }
    for (const url of [
      'http://127.0.0.1/',
      'http://[::1]/',
      'http://169.254.169.254/',
      'http://0x7f.1/',
      'http://localhost:8080/',
      'http://metadata.google.internal/',
    ]) {
      check(
        `ssrfGuard blocks ${url} without DNS`,
        (await ssrf(url)) === '403 Forbidden URL',
        await ssrf(url),
      )
    }
    check('ssrfGuard rejects file: → 400', (await ssrf('file:///etc/passwd')) === '400 Invalid URL')
    const named = await ssrf('http://intranet.example/')
    check(
      'ssrfGuard lets a hostname through unresolved (no DNS here)',
      named === '200 passed http://intranet.example/',
      named,
    )
    const checked = await (
      await get(`/edge/check?url=${encodeURIComponent('http://intranet.example/')}`)
    ).json()
    check(
      'checkUrl reports no addresses for a name on the edge',
      checked.ok === true && Array.isArray(checked.addresses) && checked.addresses.length === 0,
      JSON.stringify(checked),
    )
    // botGuard on the edge: the address is cf-connecting-ip, there is no DNS.
    const bots = async (ip, ua, xff) => {
      const headers = { 'cf-connecting-ip': ip, 'user-agent': ua }
      if (xff) headers['x-forwarded-for'] = xff
      const r = await get('/edge/bots/x', headers)
      return `${r.status} ${await r.text()}`
    }
    const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
    const unverified = await bots('66.249.66.1', googlebot)
    check(
      'botGuard: a Googlebot claim without DNS or ranges is unverified, not spoofed',
      unverified === '200 search-engine Googlebot false',
      unverified,
    )
    const inRange = await bots('20.171.206.9', 'GPTBot/1.2', '203.0.113.5')
    check(
      'botGuard: GPTBot by cf-connecting-ip inside its ranges is verified',
      inRange === '200 ai-crawler GPTBot true',
      inRange,
    )
    const forged = await bots('203.0.113.5', 'GPTBot/1.2', '20.171.206.9')
    check(
      'botGuard: GPTBot outside its ranges is spoofed; a forged X-Forwarded-For changes nothing',
      forged.startsWith('403'),
      forged,
    )
  }

  if (summary) {
    summary.checks.push(...extra)
    summary.passed += extra.filter((c) => c[2]).length
    summary.failed += extra.filter((c) => !c[2]).length
    lines.push(`smoke: workerd run in ${Math.round(performance.now() - started)} ms`)
    lines.push(`SMOKE_SUMMARY ${JSON.stringify(summary)}`)
    exitCode = summary.failed === 0 && summary.missing.length === 0 ? 0 : 1
  } else {
    lines.push(`FAIL workerd: the Worker answered ${res.status} without a summary`)
  }
} catch (err) {
  lines.push(`FAIL workerd run crashed — ${err?.stack ?? err}`)
} finally {
  await mf.dispose()
}
for (const l of lines) console.log(l)
process.exitCode = exitCode
