/**
 * The bench measures the packages as an app installs them: their built `dist/`, not their
 * sources (README, "Imports"). Under tsx the sources run with esbuild's `keepNames`, which wraps
 * every named closure a middleware makes per request in a `__name()` call (an
 * `Object.defineProperty` each): a cost users never pay, and enough to turn a row (FINDINGS.md,
 * "Measure what ships"). A stale build would be worse than none, so the run stops when a
 * package's sources changed after its last build.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const PACKAGES = fileURLToPath(new URL('../../packages/', import.meta.url))

/** The newest modification time of a built file under `dir`: tests beside the code do not count. */
function newest(dir: string): number {
  if (!existsSync(dir)) return 0
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || /\.test\.|\.test-d\./.test(entry.name)) continue
    const t = statSync(join(entry.parentPath, entry.name)).mtimeMs
    if (t > latest) latest = t
  }
  return latest
}

/** Why the built packages cannot be measured, or `null` when every one is newer than its sources. */
export function staleBuild(): string | null {
  // Both packages inline packages/shared, so its sources count for each.
  const shared = newest(join(PACKAGES, 'shared/src'))
  for (const name of ['middleware', 'openapi']) {
    const built = join(PACKAGES, name, 'dist/index.js')
    if (!existsSync(built)) return `packages/${name} is not built`
    const sources = Math.max(newest(join(PACKAGES, name, 'src')), shared)
    if (sources > statSync(built).mtimeMs) {
      return `packages/${name}/dist is older than the sources it is built from`
    }
  }
  return null
}
