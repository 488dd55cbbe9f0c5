#!/usr/bin/env node
// Version matrix of the borrowed internals (ARCHITECTURE.md "Borrowed internals"): runs the test
// files that depend on @hono/node-server's or Hono's internals (tests/versions/vitest.config.ts)
// against the oldest and the newest supported Hono and @hono/node-server, with the internals on
// and switched off (`globalThis.__PALISADE_NO_INTERNALS__`). The versions are installed ahead of
// time (tests/package.json aliases; the newest are the root's), so nothing is downloaded here.
//
// Usage: node tests/versions/run.mjs   (pnpm test:versions). Exit 1 if any cell fails.
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bold, green, red } from '../../tools/term.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const VITEST = join(ROOT, 'node_modules', '.bin', 'vitest')
const CONFIG = join(ROOT, 'tests', 'versions', 'vitest.config.ts')

/** Package names resolved from tests/: the aliases installed there, or the root's packages. */
const HONO = [
  // The packages declare `hono: ^4.6.0`, but before 4.13.8 Hono's body cache drops the
  // Content-Type when it derives `formData()` from cached bytes: csrf finds no form token and a
  // handler's `c.req.formData()` fails after xssSanitize or csrf read the body (see the report of
  // issue 37). Before 4.9, `generateCookie` (hono/cookie) does not exist.
  { label: 'hono 4.13.8', name: 'hono-4.13.8' },
  { label: 'hono newest', name: 'hono' },
]
const NODE_SERVER = [
  // 2.0.3: the first with the header fix the docs require (node-server#357). 1.19.19 has a test
  // of its own (light-response.node-server-1.test.ts), with the internals on.
  { label: 'node-server 2.0.3', name: '@hono/node-server-2.0.3' },
  { label: 'node-server newest', name: '@hono/node-server' },
]
const SWITCH = [
  { label: 'internals on', off: false },
  { label: 'internals off', off: true },
]

const rows = []
const started = Date.now()
for (const hono of HONO) {
  for (const server of NODE_SERVER) {
    for (const internals of SWITCH) {
      const label = `${hono.label} · ${server.label} · ${internals.label}`
      const result = spawnSync(VITEST, ['run', '--config', CONFIG], {
        cwd: ROOT,
        encoding: 'utf8',
        env: {
          ...process.env,
          PALISADE_HONO: hono.name,
          PALISADE_NODE_SERVER: server.name,
          PALISADE_NO_INTERNALS: internals.off ? '1' : '',
          FORCE_COLOR: '0',
        },
      })
      const ok = result.status === 0
      // biome-ignore lint/suspicious/noControlCharactersInRegex: vitest's colour codes
      const plain = result.stdout.replace(/\u001b\[[0-9;]*m/g, '')
      const summary = /Tests\s+(.*)/.exec(plain)?.[1]?.trim() ?? 'did not run'
      rows.push({ label, ok, summary })
      console.log(`${ok ? green('pass') : red('FAIL')}  ${label}  (${summary})`)
      if (!ok)
        console.log(
          result.stdout
            .split('\n')
            .filter((l) => /^ FAIL /.test(l))
            .join('\n'),
        )
    }
  }
}
const failed = rows.filter((r) => !r.ok).length
console.log(
  bold(
    `${rows.length - failed}/${rows.length} cells pass in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  ),
)
process.exit(failed ? 1 : 0)
