#!/usr/bin/env node
// Packaging check for the built packages (run after `pnpm build`).
//
// For each package: every `exports` subpath has its source folder and its built files, the
// published tarball passes publint (strict, suggestions count too) and "Are the Types Wrong?"
// (profile `strict`: node10, node16-cjs, node16-esm, bundler), ESM and CJS builds expose the same
// names, the root barrel re-exports every middleware, and no backend (a folder holding stores)
// nor the OpenTelemetry bridge (`otel`, for the apps that trace),
// and the built code has no static `node:` import and no `Buffer` (web-standard APIs only;
// ssrfGuard's lazy `import('node:dns/promises')` is the one allowed exception), and the
// project's public home: `homepage`, `repository` and `bugs` are the ones derived from the root
// setting, and the README (shown on npm, outside the repository) has no relative link
// (./project.mjs). Exit 1 on any problem.
//
// A subpath whose source folder does not exist yet is reported as MISSING SOURCE, separately from
// real packaging problems, and still fails the check.

import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { npmPack } from './pack.mjs'
import { fieldDrift, readmeLinkProblems, readProject } from './project.mjs'
import { bold, green, red, yellow } from './term.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
// publint and attw live in this tools/ workspace package, not in the root.
const TOOLS = join(ROOT, 'tools')
const ATTW = join(TOOLS, 'node_modules', '.bin', 'attw')
const fromTools = createRequire(join(TOOLS, 'package.json'))
const { publint } = await import(pathToFileURL(fromTools.resolve('publint')).href)
const { formatMessage } = await import(pathToFileURL(fromTools.resolve('publint/utils')).href)

const PACKAGES = [
  // Every src/<folder>/index.ts is a public subpath (folder = subpath). Backends (Redis,
  // Cloudflare, Deno KV, …: see backendSubpaths) are left out of the root barrel: only apps on
  // that platform need them. So is the OpenTelemetry bridge: only apps that trace need it.
  { dir: 'packages/middleware', foldersArePublic: true, notInBarrel: new Set(['./otel']) },
  // openapi's src folders are internal, except the subpaths that prove an app (audit, fuzz) and
  // compare documents (diff), which the root entry deliberately never loads.
  {
    dir: 'packages/openapi',
    foldersArePublic: false,
    notInBarrel: new Set(['./audit', './diff', './fuzz']),
  },
]

/**
 * Subpaths of backend folders: those holding store implementations (`*-store.ts`) for contracts
 * that live elsewhere (no `store.ts` of their own; a middleware keeps its contract and memory
 * store together). Not in the root barrel.
 */
function backendSubpaths(pkgDir) {
  const src = join(pkgDir, 'src')
  const isBackend = (files) =>
    !files.includes('store.ts') && files.some((f) => /^[a-z0-9-]+-store\.ts$/.test(f))
  return new Set(
    readdirSync(src, { withFileTypes: true })
      .filter((d) => d.isDirectory() && isBackend(readdirSync(join(src, d.name))))
      .map((d) => `./${d.name}`),
  )
}

// Only ssrfGuard may load node:dns lazily; nothing else from node: may appear in built code.
const ALLOWED_DYNAMIC_NODE = new Set(['node:dns/promises', 'node:dns'])

/** Leaf targets of an exports entry: [{ conditions: 'import.types', file: './dist/…' }]. */
function leafTargets(value, conditions = []) {
  if (typeof value === 'string') return [{ conditions: conditions.join('.'), file: value }]
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => leafTargets(v, [...conditions, k]))
  }
  return []
}

function sourceEntry(pkgDir, subpath) {
  if (subpath === '.') return join(pkgDir, 'src', 'index.ts')
  return join(pkgDir, 'src', subpath.slice(2), 'index.ts')
}

async function runPublint(tarball, skipped) {
  const data = readFileSync(tarball)
  const ab = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)
  // With a tarball, publint reads the packed files (all under `package/`), not the directory.
  const { messages, pkg } = await publint({
    pkgDir: 'package',
    pack: { tarball: ab },
    strict: true,
    level: 'suggestion',
  })
  // A subpath without source or build output is already reported once; drop its per-file echoes.
  const relevant = messages.filter(
    (m) => !(m.code === 'FILE_DOES_NOT_EXIST' && m.path[0] === 'exports' && skipped.has(m.path[1])),
  )
  return relevant.map(
    (m) => `${m.type}: ${formatMessage(m, pkg, { color: false }) ?? m.code} (${m.code})`,
  )
}

function runAttw(tarball, excluded) {
  const args = [tarball, '--format', 'json', '--profile', 'strict', '--no-color']
  if (excluded.size > 0) args.push('--exclude-entrypoints', ...excluded)
  const res = spawnSync(ATTW, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
  if (res.error) throw new Error(`attw could not run: ${res.error.message}`)
  let json
  try {
    json = JSON.parse(res.stdout)
  } catch {
    throw new Error(`attw printed no JSON (exit ${res.status}): ${res.stderr || res.stdout}`)
  }
  const problems = json.problems ?? json.analysis?.problems ?? {}
  const list = Array.isArray(problems) ? problems : Object.values(problems).flat()
  const entrypoints = Object.keys(json.analysis?.entrypoints ?? {})
  // Group "NoResolution ./cors: node10, node16-cjs" so the output stays short.
  const grouped = new Map()
  for (const p of list) {
    const key = `${p.kind} ${p.entrypoint ?? p.fileName ?? ''}`.trim()
    if (!grouped.has(key)) grouped.set(key, new Set())
    if (p.resolutionKind) grouped.get(key).add(p.resolutionKind)
  }
  const lines = [...grouped].map(([key, kinds]) =>
    kinds.size ? `${key}: ${[...kinds].join(', ')}` : key,
  )
  return { lines, entrypoints }
}

/** Loads one subpath as ESM and as CJS and compares the exported names. */
async function compareFormats(pkgDir, subpath, entry) {
  const targets = Object.fromEntries(leafTargets(entry).map((t) => [t.conditions, t.file]))
  const esmFile = targets['import.default'] ?? targets.import
  const cjsFile = targets['require.default'] ?? targets.require
  if (!esmFile || !cjsFile) {
    return { problems: [`${subpath}: needs both import and require targets`], names: [] }
  }
  const esm = await import(pathToFileURL(join(pkgDir, esmFile)).href)
  const require = createRequire(join(pkgDir, 'package.json'))
  const cjs = require(join(pkgDir, cjsFile))
  const names = (o) =>
    Object.keys(o)
      .filter((k) => k !== 'default' && k !== '__esModule')
      .sort()
  const e = names(esm)
  const c = names(cjs)
  const problems = []
  const onlyEsm = e.filter((n) => !c.includes(n))
  const onlyCjs = c.filter((n) => !e.includes(n))
  if (onlyEsm.length) problems.push(`${subpath}: only in ESM build: ${onlyEsm.join(', ')}`)
  if (onlyCjs.length) problems.push(`${subpath}: only in CJS build: ${onlyCjs.join(', ')}`)
  return { problems, names: e }
}

function listFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    return statSync(p).isDirectory() ? listFiles(p) : [p]
  })
}

const LONG_STRING = /'(?:[^'\\\n]|\\.){2000,}'|"(?:[^"\\\n]|\\.){2000,}"|`(?:[^`\\]|\\.){2000,}`/g

/**
 * Web-standard APIs only (no static node: imports, no Buffer) and no undeclared runtime imports
 * in the built JavaScript.
 */
function scanDist(pkgDir, pkg) {
  const problems = []
  const dist = join(pkgDir, 'dist')
  // A `bin` is a Node command, not package code: it may use node: modules.
  const bins = new Set(
    Object.values(typeof pkg.bin === 'string' ? { bin: pkg.bin } : (pkg.bin ?? {})).map((f) =>
      join(pkgDir, f),
    ),
  )
  for (const file of listFiles(dist).filter((f) => /\.(c|m)?js$/.test(f) && !bins.has(f))) {
    // Long string literals are embedded assets (the docs viewers' browser bundles), not code
    // that runs on the server; blank them so their own `Buffer` mentions do not count.
    const code = readFileSync(file, 'utf8').replace(LONG_STRING, "''")
    const rel = relative(pkgDir, file)
    for (const m of code.matchAll(/\bfrom\s*["'](node:[^"']+)["']/g)) {
      problems.push(`${rel}: static import of ${m[1]}`)
    }
    for (const m of code.matchAll(/\brequire\(\s*["'](node:[^"']+)["']\s*\)/g)) {
      problems.push(`${rel}: require of ${m[1]}`)
    }
    for (const m of code.matchAll(/\bimport\(\s*["'](node:[^"']+)["']\s*\)/g)) {
      if (!ALLOWED_DYNAMIC_NODE.has(m[1])) problems.push(`${rel}: dynamic import of ${m[1]}`)
    }
    if (/\bBuffer\b/.test(code)) problems.push(`${rel}: uses Buffer (use Uint8Array/TextEncoder)`)
    // Every package the built code loads must be one users get: a dependency or a required peer.
    // An optional peer (zod for openapi) may not be loaded statically, or users without it break.
    const staticSpecs = [
      // Not a string literal that is the word itself (`"from"`, `"import"` in a list of words).
      ...code.matchAll(/(?<!["'])\b(?:from|import)\s*["']([^"'./][^"']*)["']/g),
      ...code.matchAll(/\brequire\(\s*["']([^"'./][^"']*)["']\s*\)/g),
    ].map((m) => m[1])
    for (const spec of new Set(staticSpecs)) {
      if (spec.startsWith('node:')) continue // reported above
      const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]
      if (name in (pkg.dependencies ?? {})) continue
      if (name in (pkg.peerDependencies ?? {})) {
        if (pkg.peerDependenciesMeta?.[name]?.optional) {
          problems.push(`${rel}: static import of optional peer "${spec}" (load it lazily)`)
        }
        continue
      }
      problems.push(`${rel}: imports "${spec}", which is not a dependency or peer dependency`)
    }
  }
  return problems
}

async function checkPackage({ dir, foldersArePublic, notInBarrel: kept }) {
  const pkgDir = join(ROOT, dir)
  const notInBarrel = new Set([
    ...(foldersArePublic ? backendSubpaths(pkgDir) : []),
    ...(kept ?? []),
  ])
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'))
  const result = {
    name: pkg.name,
    missingSource: [], // subpaths whose src/<folder>/index.ts does not exist yet
    sections: {
      exports: [],
      publint: [],
      attw: [],
      'esm/cjs': [],
      barrel: [],
      'dist scan': [],
      project: [],
    },
    notes: [],
  }
  const s = result.sections

  const project = readProject(ROOT)
  s.project.push(...fieldDrift(pkg, project, dir).map((p) => `package.json ${p}`))
  s.project.push(
    ...readmeLinkProblems(readFileSync(join(pkgDir, 'README.md'), 'utf8'), project).map(
      (p) => `README.md ${p}`,
    ),
  )

  if (!existsSync(join(pkgDir, 'dist'))) {
    s.exports.push('dist/ does not exist: run `pnpm build` first')
    return result
  }
  if (pkg.sideEffects !== false) s.exports.push('"sideEffects" must be false')
  if (pkg.type !== 'module') s.exports.push('"type" must be "module"')

  const exportsField = pkg.exports ?? {}
  const subpaths = Object.keys(exportsField).filter((k) => k !== './package.json')
  const present = []
  const skipped = new Set() // reported as missing source or unbuilt; not re-reported per tool
  for (const subpath of subpaths) {
    if (!existsSync(sourceEntry(pkgDir, subpath))) {
      result.missingSource.push(subpath)
      skipped.add(subpath)
      continue
    }
    const targets = leafTargets(exportsField[subpath])
    const unbuilt = targets.filter((t) => !existsSync(join(pkgDir, t.file)))
    if (unbuilt.length > 0) {
      const what =
        unbuilt.length === targets.length
          ? 'no build output'
          : `missing ${unbuilt.map((t) => t.file).join(', ')}`
      s.exports.push(`${subpath}: ${what} (run \`pnpm build\`)`)
      skipped.add(subpath)
      continue
    }
    present.push(subpath)
  }

  // Every buildable folder must be exported, or users cannot reach it.
  if (foldersArePublic) {
    const srcDir = join(pkgDir, 'src')
    for (const d of readdirSync(srcDir, { withFileTypes: true })) {
      if (!d.isDirectory() || d.name === 'internal') continue
      if (!existsSync(join(srcDir, d.name, 'index.ts'))) continue
      if (!(`./${d.name}` in exportsField)) {
        s.exports.push(`src/${d.name}/index.ts is built but "./${d.name}" is not in exports`)
      }
    }
  }

  // node10 resolution (TypeScript `moduleResolution: node`) ignores `exports`; typesVersions must
  // point each subpath at its CJS declarations.
  const tv = pkg.typesVersions?.['*'] ?? {}
  for (const subpath of subpaths.filter((p) => p !== '.')) {
    const want = exportsField[subpath]?.require?.types
    const got = tv[subpath.slice(2)]
    if (!want || !Array.isArray(got) || got[0] !== want) {
      s.exports.push(`typesVersions["*"]["${subpath.slice(2)}"] should be ["${want}"]`)
    }
  }

  const tmp = mkdtempSync(join(tmpdir(), 'palisade-pack-'))
  try {
    const { tarball, files } = npmPack(pkgDir, tmp)
    result.notes.push(`${files.length} files packed`)
    try {
      s.publint.push(...(await runPublint(tarball, skipped)))
    } catch (err) {
      s.publint.push(`publint could not run: ${err.message ?? err}`)
    }
    try {
      const { lines, entrypoints } = runAttw(tarball, skipped)
      s.attw.push(...lines)
      result.notes.push(`attw checked ${entrypoints.length} entrypoints`)
    } catch (err) {
      s.attw.push(String(err.message ?? err))
    }
  } catch (err) {
    s.publint.push(String(err.message ?? err))
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }

  const rootNames = new Set()
  const perSubpath = []
  for (const subpath of present) {
    try {
      const r = await compareFormats(pkgDir, subpath, exportsField[subpath])
      s['esm/cjs'].push(...r.problems)
      if (subpath === '.') for (const n of r.names) rootNames.add(n)
      else perSubpath.push({ subpath, names: r.names })
    } catch (err) {
      s['esm/cjs'].push(`${subpath}: failed to load: ${err.message ?? err}`)
    }
  }
  for (const { subpath, names } of perSubpath) {
    if (names.length === 0) s.barrel.push(`${subpath}: exports nothing`)
    if (notInBarrel.has(subpath)) {
      // Every backend alike (and otel, and openapi's audit, diff and fuzz): none is in the root barrel.
      const leaked = names.filter((n) => rootNames.has(n))
      if (leaked.length)
        s.barrel.push(
          `${subpath}: re-exported by the root, which must not load it: ${leaked.join(', ')}`,
        )
      continue
    }
    const absent = names.filter((n) => !rootNames.has(n))
    if (absent.length)
      s.barrel.push(`${subpath}: not re-exported by the root: ${absent.join(', ')}`)
  }

  s['dist scan'].push(...scanDist(pkgDir, pkg))
  return result
}

const results = []
for (const p of PACKAGES) {
  console.log(bold(`\n▶ ${p.dir}`))
  const r = await checkPackage(p)
  results.push(r)
  for (const [name, problems] of Object.entries(r.sections)) {
    if (problems.length === 0) {
      console.log(`  ${green('ok')}   ${name}`)
    } else {
      console.log(`  ${red('FAIL')} ${name} (${problems.length})`)
      for (const line of problems) console.log(`         - ${line}`)
    }
  }
  if (r.missingSource.length) {
    console.log(
      `  ${yellow('MISSING SOURCE')} ${r.missingSource.length} exported subpath(s) have no src/<folder>/index.ts yet: ${r.missingSource.join(' ')}`,
    )
  }
  if (r.notes.length) console.log(`  (${r.notes.join('; ')})`)
}

console.log(bold('\nPackaging summary'))
const cols = ['package', ...Object.keys(results[0].sections), 'missing src']
const rows = results.map((r) => [
  r.name,
  ...Object.values(r.sections).map((p) => (p.length ? `FAIL ${p.length}` : 'ok')),
  String(r.missingSource.length),
])
const widths = cols.map((c, i) => Math.max(c.length, ...rows.map((row) => row[i].length)))
const fmt = (row) => row.map((cell, i) => cell.padEnd(widths[i])).join(' │ ')
console.log(fmt(cols))
console.log(widths.map((w) => '─'.repeat(w)).join('─┼─'))
for (const row of rows) console.log(fmt(row))

const problemCount = results.reduce(
  (n, r) => n + Object.values(r.sections).reduce((m, p) => m + p.length, 0),
  0,
)
const missingCount = results.reduce((n, r) => n + r.missingSource.length, 0)
if (problemCount > 0 || missingCount > 0) {
  console.log(
    red(
      `\n✗ packaging check failed: ${problemCount} problem(s), ${missingCount} exported subpath(s) without source`,
    ),
  )
  process.exit(1)
}
console.log(green('\n✓ packaging check passed: publint and attw report no problems'))
