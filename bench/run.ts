/**
 * `pnpm bench` entry. Flags: `--quick` (shorter measurements, for a smoke run), `--only=<list>`
 * with any of middleware, components, http; `--no-report` to skip writing RESULTS.md.
 */
import { configure } from './lib/measure'
import { runComponents } from './suites/components'
import { runHttp } from './suites/http'
import { runMiddleware } from './suites/middleware'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const only = args
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  .split(',')
const wants = (s: string) => !only || only.includes(s)
configure(quick)
if (wants('middleware')) await runMiddleware()
if (wants('components')) await runComponents()
if (wants('http')) await runHttp()
