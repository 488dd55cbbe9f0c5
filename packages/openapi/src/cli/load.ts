// Loads the user's module and finds the app in it. A TypeScript module is imported as is when
// the runtime can (Bun, Deno, Node with type stripping, or under `--import tsx`); otherwise the
// command runs itself again under tsx, the optional peer it documents.
import { resolveApp } from '../app/resolve'
import type { OpenAPIApp } from '../app/router-types'
import { type NodeApis, nodeApis } from './node'

const TYPESCRIPT = /\.(?:c|m)?tsx?$/
/** Set on the re-run, so a module that still fails to load is reported instead of looping. */
const RERUN = 'PALISADE_CLI_TSX'

/** A usage or loading problem: printed without a stack, exit code 2. */
export class CliError extends Error {}

export interface Loaded {
  app: OpenAPIApp
  /** The module's other exports the commands read (`auditPolicy`, `fuzzOptions`). */
  namespace: Record<string, unknown>
}

function unknownExtension(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return (
    code === 'ERR_UNKNOWN_FILE_EXTENSION' || code === 'ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING'
  )
}

/**
 * Runs this command again as `node --import tsx …` when `file` is TypeScript the runtime cannot
 * import; returns the exit code of that run, or undefined when tsx is not installed.
 */
function rerunWithTsx(node: NodeApis, file: string): number | undefined {
  const { pathToFileURL } = node.url
  const from = node.module.createRequire(node.path.join(process.cwd(), 'package.json'))
  let loader: string
  try {
    loader = pathToFileURL(from.resolve('tsx')).href
  } catch {
    return undefined
  }
  const script = process.argv[1]
  if (script === undefined) return undefined
  const child = node.childProcess.spawnSync(
    process.execPath,
    [...process.execArgv, '--import', loader, script, ...process.argv.slice(2)],
    { stdio: 'inherit', env: { ...process.env, [RERUN]: file } },
  )
  if (child.error) throw child.error
  return child.status ?? 1
}

/**
 * Imports `specifier` (a path) and returns its exports, or the exit code of the run under tsx
 * that took over.
 */
export async function importModule(specifier: string): Promise<Record<string, unknown> | number> {
  const node = await nodeApis()
  const file = node.path.resolve(process.cwd(), specifier)
  if (!node.fs.existsSync(file)) throw new CliError(`cannot find the module ${specifier}`)
  try {
    return (await import(node.url.pathToFileURL(file).href)) as Record<string, unknown>
  } catch (error) {
    if (!(TYPESCRIPT.test(file) && unknownExtension(error)) || process.env[RERUN]) throw error
    const status = rerunWithTsx(node, file)
    if (status !== undefined) return status
    throw new CliError(
      `${specifier} is TypeScript, which this Node cannot import by itself: install tsx next to it (\`npm install --save-dev tsx\`), or run \`node --import tsx node_modules/.bin/palisade …\``,
    )
  }
}

/** The app a module exports: the default export, `app` or `api` (a promise of one is awaited). */
export async function findApp(
  mod: Record<string, unknown>,
  specifier: string,
): Promise<OpenAPIApp> {
  // A CommonJS module's exports arrive as `default` (and, for some, `default.default`).
  const candidates = [
    mod.default,
    mod.app,
    mod.api,
    (mod.default as Record<string, unknown>)?.default,
  ]
  for (const candidate of candidates) {
    const value = await candidate
    if (value === undefined || value === null) continue
    try {
      return resolveApp(value, 'palisade')
    } catch {
      // not this one
    }
  }
  throw new CliError(
    `${specifier} exports no app: export the app openapi() returns (or the Hono app it wraps) as the default export, or as \`app\` or \`api\``,
  )
}

/** Imports `specifier` (a path) and returns the app it exports, or exits through a re-run. */
export async function loadModule(specifier: string): Promise<Loaded | number> {
  const mod = await importModule(specifier)
  if (typeof mod === 'number') return mod
  return { app: await findApp(mod, specifier), namespace: mod }
}
