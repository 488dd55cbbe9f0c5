// `npm pack` of one package directory into `dest`, as the registry would receive it (no scripts
// run). Shared by the packaging, consumer and size checks.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

/**
 * Packs `pkgDir` into `dest`; returns the tarball path, the packed file paths and npm's sizes.
 * @returns {{ tarball: string, files: string[], size: number, unpackedSize: number }}
 */
export function npmPack(pkgDir, dest) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const res = spawnSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', dest], {
    cwd: pkgDir,
    encoding: 'utf8',
  })
  if (res.status !== 0) {
    throw new Error(`npm pack failed in ${pkgDir}: ${res.error?.message ?? res.stderr}`)
  }
  // npm may print lifecycle noise before the JSON array.
  const [info] = JSON.parse(res.stdout.slice(res.stdout.indexOf('[')))
  return {
    tarball: join(dest, info.filename),
    files: info.files.map((f) => f.path),
    size: info.size,
    unpackedSize: info.unpackedSize,
  }
}
