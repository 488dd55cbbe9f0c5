#!/usr/bin/env node
// Size budgets (run after `pnpm build`), read from size-budgets.json at the repository root.
//
// - Every entry point (each `exports` subpath, as ESM and as CJS) is bundled with esbuild the way
//   an app's bundler would take it in: minified, the package's dependencies included (jose), peer
//   dependencies left out (hono, zod: the app has them anyway). The gzip size (level 9) of that
//   bundle is compared with the entry's budget. Files the package loads lazily with `import()`
//   (`lazy` in the budgets: the openapi viewer bodies) are kept out of the entry and budgeted as
//   files of their own.
// - Each package's tarball (`npm pack`) must stay within its packed and unpacked budgets.
//
// Exit 1 when any figure is over its budget, or an entry point or lazy file has no budget, so a
// new subpath cannot ship without one.
//
// Usage: node tools/check-size.mjs [--budgets path/to/size-budgets.json] [--update]
//   --update prints a budgets file with the current figures plus 4 % headroom, rounded up to 10 B
//   (budgets keep 3–5 % headroom: enough for a small fix, too little to hide a growth; review it).

import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { npmPack } from './pack.mjs'
import { bold, green, red } from './term.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Leaf targets of an exports entry: { 'import.default': './dist/…', … } */
function leaves(value, prefix = []) {
  if (typeof value === 'string') return { [prefix.join('.')]: value }
  if (!value || typeof value !== 'object') return {}
  return Object.assign({}, ...Object.entries(value).map(([k, v]) => leaves(v, [...prefix, k])))
}

const gzipSize = (bytes) => gzipSync(bytes, { level: 9 }).length

/** Minified, gzipped size of one entry as an app's bundle would include it. */
async function entrySize(pkgDir, pkg, file, format, lazy) {
  const peers = Object.keys(pkg.peerDependencies ?? {})
  const result = await build({
    entryPoints: [join(pkgDir, file)],
    bundle: true,
    minify: true,
    write: false,
    format,
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: [format === 'esm' ? 'import' : 'require'],
    target: 'es2022',
    logLevel: 'silent',
    external: [...peers, ...peers.map((p) => `${p}/*`), 'node:*'],
    plugins: [
      {
        name: 'lazy-files-external',
        setup(b) {
          const names = lazy.map((l) => l.replace(/^\.\/dist\//, './'))
          b.onResolve({ filter: /^\.\.?\// }, (args) =>
            names.includes(args.path) && args.kind === 'dynamic-import'
              ? { path: args.path, external: true }
              : undefined,
          )
        },
      },
    ],
  })
  const out = result.outputFiles[0].contents
  return { min: out.length, gzip: gzipSize(out) }
}

export async function checkSizes(budgetsFile, { update = false, log = console.log } = {}) {
  const budgets = JSON.parse(readFileSync(budgetsFile, 'utf8'))
  const base = dirname(resolve(budgetsFile))
  const rows = []
  const problems = []
  const proposal = { $comment: budgets.$comment, packages: {} }
  for (const [dir, spec] of Object.entries(budgets.packages)) {
    const pkgDir = resolve(base, dir)
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'))
    const lazy = Object.keys(spec.lazy ?? {})
    const next = { tarball: {}, entries: {}, lazy: {} }
    proposal.packages[dir] = next
    const over = (what, actual, limit) => {
      const ok = limit !== undefined && actual <= limit
      rows.push([
        pkg.name,
        what,
        actual,
        limit ?? '—',
        ok ? 'ok' : limit === undefined ? 'NO BUDGET' : 'OVER',
      ])
      if (!ok) {
        problems.push(
          limit === undefined
            ? `${pkg.name} ${what}: no budget in ${budgetsFile}`
            : `${pkg.name} ${what}: ${actual} B is over its budget of ${limit} B`,
        )
      }
    }
    const headroom = (n) => Math.ceil((n * 1.04) / 10) * 10

    for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
      if (subpath === './package.json') continue
      const files = leaves(target)
      const name = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`
      for (const [format, key] of [
        ['esm', 'import.default'],
        ['cjs', 'require.default'],
      ]) {
        const file = files[key] ?? files[format === 'esm' ? 'import' : 'require']
        if (!file) continue
        const { gzip } = await entrySize(pkgDir, pkg, file, format, lazy)
        over(`${name} (${format}, min+gzip)`, gzip, spec.entries?.[name]?.[format])
        next.entries[name] ??= {}
        next.entries[name][format] = headroom(gzip)
      }
    }
    for (const file of lazy) {
      const size = gzipSize(readFileSync(join(pkgDir, file)))
      over(`${file} (lazy, gzip)`, size, spec.lazy[file])
      next.lazy[file] = headroom(size)
    }
    const tmp = mkdtempSync(join(tmpdir(), 'palisade-size-'))
    try {
      const packed = npmPack(pkgDir, tmp)
      const size = statSync(packed.tarball).size
      over('tarball (packed)', size, spec.tarball?.packed)
      over('tarball (unpacked)', packed.unpackedSize, spec.tarball?.unpacked)
      next.tarball = {
        packed: headroom(size),
        unpacked: Math.min(headroom(packed.unpackedSize), spec.tarball?.unpacked ?? Infinity),
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true })
    }
  }

  if (update) {
    log(JSON.stringify(proposal, null, 2))
    return { rows, problems }
  }
  const widths = [0, 1, 2, 3, 4].map((i) => Math.max(...rows.map((r) => String(r[i]).length)))
  for (const row of rows) {
    const [name, what, actual, limit, verdict] = row.map((c, i) => String(c).padEnd(widths[i]))
    const paint = verdict.trim() === 'ok' ? green : red
    log(`  ${paint(verdict)}  ${name}  ${what}  ${actual.trim().padStart(widths[2])} / ${limit}`)
  }
  return { rows, problems }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  const at = args.indexOf('--budgets')
  const budgetsFile = at >= 0 ? resolve(args[at + 1]) : join(ROOT, 'size-budgets.json')
  console.log(bold(`Size budgets (${budgetsFile})`))
  const { problems } = await checkSizes(budgetsFile, { update: args.includes('--update') })
  if (args.includes('--update')) process.exit(0)
  if (problems.length > 0) {
    console.log(red(`\n✗ size check failed: ${problems.length} problem(s)`))
    for (const p of problems) console.log(`  - ${p}`)
    process.exit(1)
  }
  console.log(green('\n✓ every entry point and tarball is within its budget'))
}
