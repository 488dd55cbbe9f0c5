// `palisade fuzz <module>`: every request the fuzzer sends reaches the app's stores, so the app
// to fuzz is built fresh by the module's factory when it has one (`createFuzzApp`, or the export
// `--factory` names), on whatever stores that factory picks (memory stores, for a run that
// cannot spend a live rate limit). The module's default app instance is the fallback, with a
// warning. The app's own output goes to stderr: stdout carries only the report.
import { resolveApp } from '../app/resolve'
import type { OpenAPIApp } from '../app/router-types'
import { type FuzzOptions, formatFailure, formatLink, formatSkipped, fuzz } from '../fuzz'
import { isRecord } from '../schema/common'
import { appOutputToStderr } from './app-output'
import { CliError, findApp, importModule } from './load'

/** The export `palisade fuzz` calls, when the module has it, to build the app it fuzzes. */
export const FACTORY_EXPORT = 'createFuzzApp'

export interface FuzzFlags {
  runs?: number
  seed?: number
  /** The export to call instead of `createFuzzApp`. */
  factory?: string
}

interface Target {
  app: OpenAPIApp
  /** What the factory returned with the app to release its stores after the run. */
  close?: () => unknown
}

/** The app the factory returned: the app itself, or `{ api | app, close? }` (a promise of either). */
async function build(factory: () => unknown, name: string): Promise<Target> {
  const built = await factory()
  for (const candidate of [
    built,
    isRecord(built) ? built.api : undefined,
    isRecord(built) ? built.app : undefined,
  ]) {
    if (candidate === undefined || candidate === null) continue
    try {
      const app = resolveApp(candidate, 'palisade')
      const close = isRecord(built) && typeof built.close === 'function' ? built.close : undefined
      return close ? { app, close: () => (close as () => unknown).call(built) } : { app }
    } catch {
      // not this one
    }
  }
  throw new CliError(
    `${name}() returned no app: return the app openapi() returns (or the Hono app it wraps), or { api, close }`,
  )
}

async function target(
  mod: Record<string, unknown>,
  specifier: string,
  factory: string | undefined,
): Promise<Target> {
  const exported = (name: string) =>
    mod[name] ?? (isRecord(mod.default) ? mod.default[name] : undefined)
  const name =
    factory ?? (typeof exported(FACTORY_EXPORT) === 'function' ? FACTORY_EXPORT : undefined)
  if (name !== undefined) {
    const fn = exported(name)
    if (typeof fn !== 'function' || isApp(fn))
      throw new CliError(`${specifier} has no function export "${name}" (--factory)`)
    return build(fn as () => unknown, name)
  }
  const app = await findApp(mod, specifier)
  process.stderr.write(
    `palisade fuzz: warning: fuzzing the app instance ${specifier} exports, on the stores it was built with: every request counts in its rate limits and writes to its sessions and keys (Redis, PostgreSQL, …). Export ${FACTORY_EXPORT}() that builds a fresh app on memory stores, or name a factory with --factory <export>.\n`,
  )
  return { app }
}

function isApp(value: unknown): boolean {
  try {
    resolveApp(value, 'palisade')
    return true
  } catch {
    return false
  }
}

/** `fuzzOptions` as exported: options, or a function of the app being fuzzed that returns them. */
async function moduleOptions(mod: Record<string, unknown>, app: OpenAPIApp): Promise<FuzzOptions> {
  const exported = mod.fuzzOptions
  const options = typeof exported === 'function' ? await exported(app) : exported
  return { ...((options as FuzzOptions | undefined) ?? {}) }
}

/** Runs `palisade fuzz`; resolves to the exit code (1 on a failure or an operation not fuzzed). */
export function fuzzCommand(specifier: string, flags: FuzzFlags): Promise<number> {
  return appOutputToStderr(async (report) => {
    const mod = await importModule(specifier)
    if (typeof mod === 'number') return mod
    const { app, close } = await target(mod, specifier, flags.factory)
    try {
      const options = await moduleOptions(mod, app)
      if (flags.runs !== undefined) options.runs = flags.runs
      if (flags.seed !== undefined) options.seed = flags.seed
      options.onFailure = (failure) => report(formatFailure(failure))
      options.onSkipped = (skipped) => report(formatSkipped(skipped))
      const result = await fuzz(app, options)
      const statuses = Object.entries(result.statuses)
        .map(([status, count]) => `${status}×${count}`)
        .join(' ')
      const skipped =
        result.skipped.length > 0
          ? `, ${result.skipped.length} not fuzzed (could not generate)`
          : ''
      for (const link of result.links) report(formatLink(link))
      report(
        `fuzz: ${result.operations} operations, ${result.requests} requests (${statuses}), ${result.failures.length} failure(s)${skipped}; seed ${result.seed}\n`,
      )
      if (result.failures.length > 0)
        report(`repeat with: palisade fuzz ${specifier} --seed ${result.seed}\n`)
      return result.failures.length > 0 || result.skipped.length > 0 ? 1 : 0
    } finally {
      await close?.()
    }
  })
}
