// The `palisade` command is the one part of the package that needs Node's own modules (files,
// arguments, a child process for the tsx re-run). They are loaded here, lazily, like ssrfGuard's
// `node:dns`: no module of the package imports `node:` statically, so every entry still loads on
// every runtime and in every bundler.

/** Node's modules the command uses. */
export interface NodeApis {
  childProcess: typeof import('node:child_process')
  fs: typeof import('node:fs')
  module: { createRequire: typeof import('node:module').createRequire }
  path: typeof import('node:path')
  url: typeof import('node:url')
  util: typeof import('node:util')
}

/** Loads Node's modules the command uses (dynamic imports, so no entry imports them statically). */
export async function nodeApis(): Promise<NodeApis> {
  const [childProcess, fs, module, path, url, util] = await Promise.all([
    import('node:child_process'),
    import('node:fs'),
    import('node:module'),
    import('node:path'),
    import('node:url'),
    import('node:util'),
  ])
  return { childProcess, fs, module, path, url, util }
}
