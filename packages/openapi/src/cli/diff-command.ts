// `palisade diff <old> <new>` and `palisade export --check <file> --breaking`: two documents
// (files, loopback URLs, or the app a module exports) compared by @palisade/openapi/diff.
import {
  blockingChanges,
  type DiffFormat,
  diff,
  formatDiff,
  openapiProblem,
  unknownRules,
} from '../diff'
import { appOutputToStderr } from './app-output'
import { CliError, loadModule } from './load'
import { nodeApis } from './node'

const FORMATS = new Set<DiffFormat>(['text', 'markdown', 'json'])
/** A document larger than this is refused (a URL that streams forever must not fill memory). */
const MAX_BYTES = 64 * 1024 * 1024
const FETCH_TIMEOUT_MS = 10_000

export interface DiffFlags {
  format?: string
  allow?: string[]
  app?: string
  'strict-enums'?: boolean
}

/** Loopback hosts: the document of an app running on this machine, nothing fetched from afar. */
function loopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase()
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
}

async function fetchText(source: string): Promise<string> {
  let url: URL
  try {
    url = new URL(source)
  } catch {
    throw new CliError(`${source} is not a URL`)
  }
  if (!loopback(url.hostname))
    throw new CliError(
      `${source}: palisade diff fetches loopback URLs only (localhost, 127.0.0.1, [::1]); download the document and pass the file`,
    )
  let response: Response
  try {
    response = await fetch(url, {
      redirect: 'error',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    })
  } catch (error) {
    throw new CliError(`cannot fetch ${source}: ${(error as Error).message}`)
  }
  if (!response.ok) throw new CliError(`cannot fetch ${source}: HTTP ${response.status}`)
  const length = Number(response.headers.get('content-length'))
  if (length > MAX_BYTES) throw new CliError(`${source} is larger than ${MAX_BYTES} bytes`)
  const text = await response.text()
  if (text.length > MAX_BYTES) throw new CliError(`${source} is larger than ${MAX_BYTES} bytes`)
  return text
}

async function readText(source: string): Promise<string> {
  if (/^https?:\/\//i.test(source)) return fetchText(source)
  const { fs } = await nodeApis()
  try {
    const stat = fs.statSync(source)
    if (!stat.isFile()) throw new CliError(`${source} is not a file`)
    if (stat.size > MAX_BYTES) throw new CliError(`${source} is larger than ${MAX_BYTES} bytes`)
    return fs.readFileSync(source, 'utf8')
  } catch (error) {
    if (error instanceof CliError) throw error
    const code = (error as { code?: string }).code
    throw new CliError(
      code === 'ENOENT'
        ? `cannot find ${source}`
        : `cannot read ${source}: ${(error as Error).message}`,
    )
  }
}

/** Parses and checks a document; every problem is a CliError (exit 2, no stack). */
export function parseDocument(text: string, source: string): unknown {
  let doc: unknown
  try {
    doc = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
  } catch (error) {
    const yaml = /\.ya?ml$/i.test(source)
      ? ' (palisade reads JSON documents: `palisade export <module> --out openapi.json` writes one)'
      : ''
    throw new CliError(`${source} is not JSON${yaml}: ${(error as Error).message}`)
  }
  const problem = openapiProblem(doc)
  if (problem !== undefined) throw new CliError(`${source}: ${problem}`)
  return doc
}

async function appDocument(specifier: string): Promise<unknown | number> {
  const loaded = await appOutputToStderr(() => loadModule(specifier))
  if (typeof loaded === 'number') return loaded
  return loaded.app.spec()
}

function checkFlags(flags: DiffFlags): { format: DiffFormat; allow: string[] } {
  const format = (flags.format ?? 'text') as DiffFormat
  if (!FORMATS.has(format))
    throw new CliError(`unknown --format "${format}" (text, markdown or json)`)
  const allow = flags.allow ?? []
  const unknown = unknownRules(allow)
  if (unknown.length > 0)
    throw new CliError(
      `--allow: no rule ${unknown.map((id) => `"${id}"`).join(', ')} (see docs/openapi/diff.md)`,
    )
  return { format, allow }
}

/** Compares two documents, writes the report, and returns the exit code (1 on a blocking change). */
export function report(oldDoc: unknown, newDoc: unknown, flags: DiffFlags): number {
  const { format, allow } = checkFlags(flags)
  const changes = diff(oldDoc, newDoc, { allow, strictEnums: flags['strict-enums'] === true })
  process.stdout.write(formatDiff(changes, format))
  return blockingChanges(changes).length > 0 ? 1 : 0
}

/** `palisade diff <old> <new>`, or `palisade diff <old> --app <module>`. */
export async function diffCommand(args: string[], flags: DiffFlags): Promise<number> {
  checkFlags(flags)
  const wanted = flags.app === undefined ? 2 : 1
  if (args.length !== wanted)
    throw new CliError(
      flags.app === undefined
        ? 'palisade diff needs <old> and <new> (files or loopback URLs), or <old> --app <module>'
        : 'palisade diff --app <module> takes one <old> document',
    )
  const [oldSource, newSource] = args as [string, string | undefined]
  const oldDoc = parseDocument(await readText(oldSource), oldSource)
  let newDoc: unknown
  if (flags.app !== undefined) {
    const doc = await appDocument(flags.app)
    if (typeof doc === 'number') return doc
    newDoc = doc
  } else newDoc = parseDocument(await readText(newSource!), newSource!)
  return report(oldDoc, newDoc, flags)
}

/** `palisade export --check <file> --breaking`: fails only on breaking drift. */
export async function breakingCheck(file: string, doc: unknown, flags: DiffFlags): Promise<number> {
  const committed = parseDocument(await readText(file), file)
  return report(committed, doc, flags)
}
