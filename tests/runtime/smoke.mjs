// Runtime smoke test: imports the BUILT packages by their package names (through this folder's
// node_modules links to packages/*/dist) and exercises every middleware through `app.request()`.
// Plain ESM JavaScript so Node 20, 22 and 24, Bun and Deno all run the same file unchanged.
//
// One line per check; a middleware whose subpath or export does not exist yet is reported as
// MISSING. The last line is a machine-readable `SMOKE_SUMMARY {json}` for run-matrix.mjs.
// Exit code 1 on any failure or missing middleware.
//
// Usage: <runtime> tests/runtime/smoke.mjs [name …]   (names filter the cases, e.g. `cors jwtAuth`)
//
// workerd cannot run a file from the command line: workerd/run.mjs bundles this module into a
// Worker and calls `runSmoke(host)` from a request, with a host that loads the bundled modules and
// collects the output lines (`globalThis.__SMOKE_EMBEDDED__` stops the run on import).

import { cases } from './cases/index.mjs'

/** How the runner reaches modules and prints; a Worker supplies its own (see workerd/run.mjs). */
const defaultHost = {
  load: (specifier) => import(specifier),
  resolve: (specifier) => import.meta.resolve(specifier),
  log: (line) => console.log(line),
  args: () => (globalThis.Deno?.args ?? globalThis.process?.argv.slice(2) ?? []).filter(Boolean),
}
let host = defaultHost
const log = (line) => host.log(line)

const CASE_TIMEOUT_MS = 10_000

function runtimeInfo() {
  if (host.info) return host.info
  if (globalThis.Deno?.version) return { runtime: 'deno', version: globalThis.Deno.version.deno }
  if (globalThis.Bun?.version) return { runtime: 'bun', version: globalThis.Bun.version }
  return { runtime: 'node', version: globalThis.process?.versions?.node ?? 'unknown' }
}

function show(value) {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value)
  try {
    return JSON.stringify(value)
  } catch {
    return String(value)
  }
}

/** The assertion helpers handed to each case; every call prints one line. */
function createChecker(name, results) {
  const record = (pass, label, detail) => {
    results.push({ name, label, pass, detail })
    log(`  ${pass ? 'ok  ' : 'FAIL'} ${name}: ${label}${pass || !detail ? '' : ` — ${detail}`}`)
  }
  return {
    ok(label, condition, detail) {
      record(Boolean(condition), label, detail)
    },
    equal(label, actual, expected) {
      record(Object.is(actual, expected), label, `expected ${show(expected)}, got ${show(actual)}`)
    },
    match(label, actual, regex) {
      record(
        typeof actual === 'string' && regex.test(actual),
        label,
        `expected ${regex}, got ${show(actual)}`,
      )
    },
    /** Status, and optionally body text, of a response in one check. */
    async status(label, res, status, body) {
      const text = body === undefined ? undefined : await res.text()
      const pass = res.status === status && (body === undefined || text === body)
      const got = body === undefined ? res.status : `${res.status} ${show(text)}`
      const want = body === undefined ? status : `${status} ${show(body)}`
      record(pass, label, `expected ${want}, got ${got}`)
    },
    async rejects(label, fn, pattern) {
      try {
        await fn()
        record(false, label, 'did not throw')
      } catch (err) {
        const msg = String(err?.message ?? err)
        record(!pattern || pattern.test(msg), label, `threw ${show(msg)}, expected ${pattern}`)
      }
    },
  }
}

function looksMissing(err) {
  const text = `${err?.code ?? ''} ${err?.message ?? err}`
  return /ERR_MODULE_NOT_FOUND|ERR_PACKAGE_PATH_NOT_EXPORTED|cannot find|not found|no such file|could not resolve|unable to (load|resolve)/i.test(
    text,
  )
}

const withTimeout = (promise, ms, what) => {
  let timer
  const timeout = new Promise((_, rej) => {
    timer = setTimeout(() => rej(new Error(`${what} did not finish within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** Runs the selected cases; resolves the exit code (0: all passed). `custom` replaces parts of the host. */
export async function runSmoke(custom = {}) {
  host = { ...defaultHost, ...custom }
  const info = runtimeInfo()
  const filter = host.args()
  const selected = filter.length ? cases.filter((c) => filter.includes(c.name)) : cases
  log(`smoke: ${info.runtime} ${info.version}, ${selected.length} middleware`)

  const { Hono } = await host.load('hono')
  let root = {}
  try {
    const where = host.resolve('@palisade/middleware')
    if (!/\/dist\//.test(where)) throw new Error(`resolves to ${where}, not to the built dist/`)
    root = await host.load('@palisade/middleware')
  } catch (err) {
    log(`  FAIL @palisade/middleware root import — ${err?.message ?? err}`)
  }

  const results = []
  const missing = []
  const errored = []
  for (const c of selected) {
    // The matrix tests the BUILT packages: a specifier resolving to source (Bun applies tsconfig
    // `paths`, for one) would make every check meaningless.
    const ours = [c.from, ...(c.needs ?? []).filter((s) => s.startsWith('@palisade/'))]
    const notBuilt = ours
      .map((s) => {
        try {
          return [s, host.resolve(s)]
        } catch {
          return [s, undefined]
        }
      })
      .find(([, resolved]) => resolved && !/\/dist\//.test(resolved))
    if (notBuilt) {
      errored.push(c.name)
      results.push({ name: c.name, label: 'resolves to dist/', pass: false })
      log(`  FAIL ${c.name}: ${notBuilt[0]} resolves to ${notBuilt[1]}, not to the built dist/`)
      continue
    }
    let mod
    try {
      mod = await host.load(c.from)
    } catch (err) {
      if (looksMissing(err)) {
        missing.push(c.name)
        log(`  MISS ${c.name}: ${c.from} is not built/exported yet`)
      } else {
        errored.push(c.name)
        results.push({ name: c.name, label: 'import', pass: false })
        log(`  FAIL ${c.name}: importing ${c.from} threw — ${err?.stack ?? err}`)
      }
      continue
    }
    const absent = c.exports.filter((e) => mod[e] === undefined)
    if (absent.length) {
      missing.push(c.name)
      log(`  MISS ${c.name}: ${c.from} does not export ${absent.join(', ')} yet`)
      continue
    }
    // Other modules a case uses (`needs`), loaded through the host so a Worker bundles them too.
    const needs = {}
    try {
      for (const s of c.needs ?? []) needs[s] = await host.load(s)
    } catch (err) {
      errored.push(c.name)
      results.push({ name: c.name, label: 'import of needs', pass: false })
      log(`  FAIL ${c.name}: importing what it needs threw — ${err?.stack ?? err}`)
      continue
    }
    const t = createChecker(c.name, results)
    if (c.barrel !== false) {
      const notInRoot = c.exports.filter((e) => root[e] === undefined)
      t.ok(
        `root barrel re-exports ${c.exports.join(', ')}`,
        notInRoot.length === 0,
        `${c.barrel ?? '@palisade/middleware'} lacks ${notInRoot.join(', ')}`,
      )
    }
    try {
      await withTimeout(
        c.run({ mod, needs, Hono, t, runtime: info.runtime }),
        CASE_TIMEOUT_MS,
        c.name,
      )
    } catch (err) {
      errored.push(c.name)
      results.push({ name: c.name, label: 'threw', pass: false })
      log(`  FAIL ${c.name}: threw — ${err?.stack ?? err}`)
    }
  }

  const failed = results.filter((r) => !r.pass)
  const passed = results.length - failed.length
  const perMiddleware = {}
  for (const c of selected) {
    const own = results.filter((r) => r.name === c.name)
    perMiddleware[c.name] = missing.includes(c.name)
      ? 'missing'
      : own.every((r) => r.pass)
        ? `ok ${own.length}`
        : `FAIL ${own.filter((r) => !r.pass).length}/${own.length}`
  }
  log(
    `smoke: ${passed} passed, ${failed.length} failed, ${missing.length} missing (${missing.join(', ') || 'none'})`,
  )
  log(
    `SMOKE_SUMMARY ${JSON.stringify({
      ...info,
      passed,
      failed: failed.length,
      missing,
      perMiddleware,
      checks: results.map((r) => [r.name, r.label, r.pass]),
    })}`,
  )
  return failed.length === 0 && missing.length === 0 ? 0 : 1
}

if (!globalThis.__SMOKE_EMBEDDED__) {
  const code = await runSmoke().catch((err) => {
    log(`FAIL smoke runner crashed — ${err?.stack ?? err}`)
    return 1
  })
  // Setting the exit code (instead of exiting) lets a leaked timer show up as a slow exit.
  if (globalThis.process) globalThis.process.exitCode = code
  else if (code !== 0) globalThis.Deno?.exit(code)
}
