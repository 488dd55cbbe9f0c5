// `palisade`: audit, fuzz and export an app from the command line (the `bin` of
// @palisade/openapi, built to dist/cli.js). Node only, unlike the package itself.
import { type AuditFormat, type AuditPolicy, audit, formatFindings } from '../audit'
import { appOutputToStderr } from './app-output'
import { jsonDiff } from './diff'
import { breakingCheck, diffCommand } from './diff-command'
import { FACTORY_EXPORT, fuzzCommand } from './fuzz'
import { CliError, loadModule } from './load'
import { nodeApis } from './node'
import { toYAML } from './yaml'

const USAGE = `Usage:
  palisade audit <module> [--format table|json|sarif|markdown]
  palisade fuzz <module> [--runs N] [--seed S] [--factory <export>]
  palisade export <module> [--out openapi.json|openapi.yaml]
  palisade export --check <file> <module> [--breaking] [--allow <rule>]...
  palisade diff <old> <new> [--format text|markdown|json] [--allow <rule>]... [--strict-enums]
  palisade diff <old> --app <module>

<module> exports the app openapi() returns (or the Hono app it wraps): the default export, or
\`app\` or \`api\`. It may also export \`auditPolicy\` (read by audit) and \`fuzzOptions\` (read by
fuzz: auth hook, headers, filter; or a function of the app that returns them). A TypeScript
module is loaded with tsx when the runtime cannot load it itself (npm install --save-dev tsx).

fuzz sends its requests to a fresh app from \`${FACTORY_EXPORT}()\` (or the export --factory names)
when the module has one, else to the exported app, whose stores (rate limits, sessions) it fills.
The app's own output goes to stderr; stdout carries the result of every command.

diff compares two OpenAPI 3.0/3.1 JSON documents (files or loopback URLs; --app: the module's
app as the new one) and classifies each change breaking, non-breaking or info. export --check
--breaking fails only on breaking drift. --allow <rule> (repeatable) lets a rule's breaking
changes pass, as does an \`x-palisade-breaking-ok\` note on the new operation.

Exit codes: 0 fine, 1 findings (audit errors, fuzz failures, a document that differs, a breaking
change), 2 usage or unreadable input.
`

const FORMATS = new Set(['table', 'json', 'sarif', 'markdown'])

function render(doc: unknown, file: string): string {
  return /\.ya?ml$/i.test(file) ? toYAML(doc) : `${JSON.stringify(doc, null, 2)}\n`
}

async function run(argv: string[]): Promise<number> {
  const { fs, util } = await nodeApis()
  const { values, positionals } = util.parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      format: { type: 'string' },
      runs: { type: 'string' },
      seed: { type: 'string' },
      factory: { type: 'string' },
      out: { type: 'string' },
      check: { type: 'string' },
      breaking: { type: 'boolean' },
      allow: { type: 'string', multiple: true },
      app: { type: 'string' },
      'strict-enums': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  const [command, specifier, ...rest] = positionals
  if (values.help || command === undefined) {
    process.stdout.write(USAGE)
    return values.help ? 0 : 2
  }
  if (command === 'diff') return diffCommand(positionals.slice(1), values)
  if (rest.length > 0) throw new CliError(`unexpected arguments: ${rest.join(' ')}`)
  if (!['audit', 'fuzz', 'export'].includes(command))
    throw new CliError(`unknown command "${command}"`)
  if (specifier === undefined) throw new CliError(`palisade ${command} needs a <module>`)

  if (command === 'fuzz') {
    const number = (name: string, text: string | undefined) => {
      if (text === undefined) return undefined
      const n = Number(text)
      if (!Number.isInteger(n)) throw new CliError(`--${name} must be an integer, got "${text}"`)
      return n
    }
    return fuzzCommand(specifier, {
      runs: number('runs', values.runs),
      seed: number('seed', values.seed),
      factory: values.factory,
    })
  }

  // The module's own output while it loads (a console.log at start-up) would corrupt the result.
  const loaded = await appOutputToStderr(() => loadModule(specifier))
  if (typeof loaded === 'number') return loaded
  const { app, namespace } = loaded

  if (command === 'audit') {
    const format = (values.format ?? 'table') as AuditFormat
    if (!FORMATS.has(format)) throw new CliError(`unknown --format "${format}"`)
    const findings = audit(app, namespace.auditPolicy as AuditPolicy | undefined)
    process.stdout.write(formatFindings(findings, format, specifier))
    return findings.some((f) => f.severity === 'error') ? 1 : 0
  }

  const doc = app.spec()
  if (values.breaking && values.check === undefined)
    throw new CliError('--breaking goes with export --check <file>')
  if (values.check !== undefined && values.breaking) return breakingCheck(values.check, doc, values)
  if (values.check !== undefined) {
    let committed: unknown
    const text = fs.readFileSync(values.check, 'utf8')
    if (/\.ya?ml$/i.test(values.check)) {
      if (text === toYAML(doc)) return 0
      // No YAML parser here: compare the text the app would write, line by line.
      const want = toYAML(doc).split('\n')
      const have = text.split('\n')
      const lines: string[] = []
      for (let i = 0; i < Math.max(want.length, have.length) && lines.length < 40; i++) {
        if (want[i] !== have[i])
          lines.push(`  line ${i + 1}: - ${have[i] ?? ''}\n  line ${i + 1}: + ${want[i] ?? ''}`)
      }
      process.stdout.write(
        `${values.check} differs from the app's document:\n${lines.join('\n')}\nregenerate: palisade export ${specifier} --out ${values.check}\n`,
      )
      return 1
    }
    try {
      committed = JSON.parse(text)
    } catch (error) {
      throw new CliError(`${values.check} is not JSON: ${(error as Error).message}`)
    }
    const diff = jsonDiff(committed, doc)
    if (diff.length === 0) return 0
    const shown = diff.slice(0, 40)
    process.stdout.write(
      `${values.check} differs from the app's document in ${diff.length} place(s) (- committed, + app):\n${shown.join('\n')}${diff.length > shown.length ? `\n  … ${diff.length - shown.length} more` : ''}\nregenerate: palisade export ${specifier} --out ${values.check}\n`,
    )
    return 1
  }
  if (values.out !== undefined) fs.writeFileSync(values.out, render(doc, values.out))
  else process.stdout.write(render(doc, 'openapi.json'))
  return 0
}

/** Runs the command with `argv` (without node and the script); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    return await run(argv)
  } catch (error) {
    if (
      error instanceof CliError ||
      (error as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS')
    ) {
      process.stderr.write(`palisade: ${(error as Error).message}\n\n${USAGE}`)
      return 2
    }
    process.stderr.write(
      `palisade: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    )
    return 2
  }
}
