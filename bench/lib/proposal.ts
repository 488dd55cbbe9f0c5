/**
 * Builds a patched copy of the middleware sources from proposals/perf-fixes.diff, so one run can
 * show today's code and the proposed fixes side by side. The copy lives in bench/.tmp-proposal
 * (git-ignored) so that its imports of `hono` and `jose` resolve through the workspace's
 * node_modules. Returns null, with the reason, when the patch no longer applies (for example
 * because the owners changed those lines, or already applied the fixes).
 */
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const BENCH = fileURLToPath(new URL('../', import.meta.url))
const ROOT = fileURLToPath(new URL('../../', import.meta.url))

export interface PatchedTree {
  /** For PALISADE_MIDDLEWARE_SRC. */
  middlewareSrc: string
  /** A tsconfig mapping @palisade/* to the patched sources, for TSX_TSCONFIG_PATH. */
  tsconfig: string
}

/** Whether a proposal is pending at all (the file is removed once its fixes have landed). */
export function hasProposal(): boolean {
  return existsSync(`${BENCH}proposals/perf-fixes.diff`)
}

export function preparePatchedTree(): PatchedTree | { error: string } {
  const diff = `${BENCH}proposals/perf-fixes.diff`
  if (!existsSync(diff)) return { error: 'no proposals/perf-fixes.diff' }
  const dir = `${BENCH}.tmp-proposal/`
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(`${dir}packages/middleware`, { recursive: true })
  cpSync(`${ROOT}packages/middleware/src`, `${dir}packages/middleware/src`, { recursive: true })
  try {
    // The ceiling keeps git from finding the workspace repository above: it patches the copy
    // as plain files, never the real sources.
    execFileSync('git', ['apply', diff], {
      cwd: dir,
      stdio: 'pipe',
      env: { ...process.env, GIT_CEILING_DIRECTORIES: BENCH.replace(/\/$/, '') },
    })
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? error).split('\n')[0]
    return { error: `proposals/perf-fixes.diff does not apply to today's sources (${stderr})` }
  }
  const src = `${dir}packages/middleware/src`
  const tsconfig = `${dir}tsconfig.json`
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: `${ROOT}tsconfig.json`,
      compilerOptions: {
        baseUrl: ROOT,
        paths: {
          '@palisade/middleware': [`${src}/index.ts`],
          '@palisade/middleware/*': [`${src}/*/index.ts`],
          '@palisade/openapi': [`${ROOT}packages/openapi/src/index.ts`],
        },
      },
    }),
  )
  return { middlewareSrc: src, tsconfig }
}
