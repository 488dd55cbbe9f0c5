import type * as FastCheck from 'fast-check'
import { resolveApp } from '../app/resolve'
import type { OpenAPIDocument } from '../model/document'
import { declaresIdempotencyKey, freshKey, judgeRetry } from './idempotent'
import { judge } from './judge'
import { CannotGenerate } from './limits'
import { LinkFollower, type LinkRun } from './links'
import { loadPeers, type Peers } from './peers'
import { type Draft, encode, nearMiss, type Plan, plans, resolver, validDraft } from './requests'
import type {
  FuzzFailure,
  FuzzLink,
  FuzzOptions,
  FuzzReport,
  FuzzRequest,
  FuzzSkipped,
} from './types'

/**
 * Fuzzes every documented operation of an app through `app.request()`: requests generated from
 * the document, valid ones and near misses (wrong types, missing and extra fields, boundary
 * values, odd encodings). Every answer must be below 500, have a documented status and
 * `Content-Type`, a JSON body that matches the documented schema, and problem bodies a `code`.
 * A failing request is shrunk (fast-check) to the smallest that still fails. Values are drawn
 * within limits (strings up to 4,096 characters, arrays up to 256 items, 200 draws for a filter):
 * an operation whose request cannot be generated within them is listed in `skipped`, not sent.
 *
 * Needs the optional peers `fast-check` (generation, shrinking) and `ajv` (schema checks).
 *
 * @param app - the `OpenAPIApp` from `openapi()`, or the Hono app it wraps
 * @param options - `runs` per operation (default 100), `seed` (default random, in the report),
 *   `auth` hook, `filter`, `headers`, `env`, `onFailure`, `onSkipped`
 * @returns `{ seed, operations, requests, statuses, failures, skipped }`
 * @example
 * ```ts
 * import { fuzz } from '@palisade/openapi/fuzz'
 *
 * const report = await fuzz(api, {
 *   seed: 42,
 *   auth: (op) => (op.security.some((r) => 'bearerAuth' in r) ? { headers: { authorization: `Bearer ${token}` } } : undefined),
 * })
 * expect(report.failures).toEqual([])
 * ```
 */
export async function fuzz(app: unknown, options: FuzzOptions = {}): Promise<FuzzReport> {
  const api = resolveApp(app, 'fuzz')
  const runs = options.runs ?? 100
  if (!Number.isInteger(runs) || runs < 1)
    throw new TypeError('fuzz: runs must be a positive integer')
  const seed = options.seed ?? Math.floor(Math.random() * 0x7fffffff)
  if (!Number.isInteger(seed)) throw new TypeError('fuzz: seed must be an integer')
  const peers: Peers = await loadPeers()
  const { fc } = peers
  const doc = api.spec() as OpenAPIDocument
  const resolve = resolver(doc)
  const check = peers.compile(doc, options.extraProperties !== 'allow')
  const report: FuzzReport = {
    seed,
    operations: 0,
    requests: 0,
    statuses: {},
    failures: [],
    skipped: [],
    links: [],
  }
  const base = options.headers ?? {}
  const all = plans(doc, options.filter)
  const follower = linkFollower(options, {
    fc,
    plans: all,
    resolve,
    seed,
    send: (plan, draft, depth) => send(plan, draft, depth),
    fail: (failure) => {
      report.failures.push(failure)
      options.onFailure?.(failure)
    },
    edges: report.links,
  })

  let keys = 0
  const send = async (plan: Plan, draft: Draft, depth = 0): Promise<Sent> => {
    // Encoded once without credentials, so the hook sees the body it may sign; the headers it
    // gives change nothing else of the request.
    const unsigned = encode(plan, draft, base)
    const { method, url, body } = unsigned
    const auth = options.auth
      ? await options.auth(structuredClone(plan.operation), { method, url, body })
      : undefined
    const request = auth ? encode(plan, draft, base, auth) : unsigned
    const retries = declaresIdempotencyKey(plan) && freshKey(request, seed, ++keys)
    const init: RequestInit = { method: request.method, headers: request.headers }
    if (request.body !== undefined && request.method !== 'GET' && request.method !== 'HEAD')
      init.body = request.body
    const sendOnce = async () => {
      report.requests++
      const res = await api.request(request.url, { ...init }, options.env as never)
      report.statuses[res.status] = (report.statuses[res.status] ?? 0) + 1
      return res
    }
    let res: Response
    try {
      res = await sendOnce()
    } catch (error) {
      return { request, status: 0, reason: `app.request() threw: ${String(error)}` }
    }
    const copy = retries ? res.clone() : undefined
    const chains = draft.kind === 'valid' || draft.kind.startsWith('via link')
    const forLinks = chains && follower?.wants(plan, res.status, depth) ? res.clone() : undefined
    const reason = await judge(plan, res, check)
    if (reason === undefined && forLinks)
      await follower?.follow(plan, draft, request, forLinks, depth)
    if (reason !== undefined || copy === undefined || res.status >= 500) {
      return { request, status: res.status, reason }
    }
    try {
      const first = { status: res.status, body: new Uint8Array(await copy.arrayBuffer()) }
      const again = await sendOnce()
      const retry = {
        status: again.status,
        replayed: again.headers.get('idempotent-replayed') === 'true',
        body: new Uint8Array(await again.arrayBuffer()),
      }
      return { request, status: again.status, reason: judgeRetry(first, retry) }
    } catch (error) {
      return { request, status: 0, reason: `app.request() threw on the retry: ${String(error)}` }
    }
  }

  for (const [i, plan] of all.entries()) {
    const runSeed = (seed + i * 7919) | 0
    let result: FastCheck.RunDetails<[Draft]>
    try {
      const valid = validDraft(fc, plan, resolve)
      const arb = fc.oneof(
        { arbitrary: valid, weight: 1 },
        { arbitrary: nearMiss(fc, plan, resolve, valid), weight: 2 },
      )
      // One valid draft first, before any request: a schema nothing can be generated for is
      // reported with nothing sent, instead of after part of the run.
      fc.sample(valid, { numRuns: 1, seed: runSeed })
      report.operations++
      result = await fc.check(
        fc.asyncProperty(arb, async (draft) => (await send(plan, draft)).reason === undefined),
        { numRuns: runs, seed: runSeed, endOnFailure: false },
      )
    } catch (error) {
      if (!(error instanceof CannotGenerate)) throw error
      const skipped: FuzzSkipped = {
        method: plan.operation.method,
        path: plan.template,
        pointer: error.pointer,
        reason: error.reason,
      }
      report.skipped.push(skipped)
      options.onSkipped?.(skipped)
      continue
    }
    if (result.failed && result.counterexample) {
      const [draft] = result.counterexample
      const again = await send(plan, draft)
      const failure: FuzzFailure = {
        method: plan.operation.method,
        path: plan.template,
        request: again.request,
        status: again.status,
        reason: again.reason ?? 'failed while shrinking, passed when repeated (state-dependent)',
      }
      report.failures.push(failure)
      options.onFailure?.(failure)
    }
  }
  return report
}

interface Sent {
  request: FuzzRequest
  status: number
  reason?: string
}

/** The link follower of the run, unless `options.links` is `false`. */
function linkFollower(
  options: FuzzOptions,
  run: Omit<LinkRun, 'max' | 'depth'>,
): LinkFollower | undefined {
  if (options.links === false) return undefined
  const { max = 10, depth = 3 } = options.links ?? {}
  for (const [name, value] of [
    ['max', max],
    ['depth', depth],
  ] as const) {
    if (!Number.isInteger(value) || value < 0)
      throw new TypeError(`fuzz: links.${name} must be a non-negative integer`)
  }
  return new LinkFollower({ ...run, max, depth })
}

/**
 * An operation the fuzzer could not generate a request for, as one line of text.
 *
 * @example
 * ```ts
 * for (const skipped of report.skipped) console.error(formatSkipped(skipped))
 * ```
 */
export function formatSkipped(skipped: FuzzSkipped): string {
  return `? ${skipped.method} ${skipped.path}: could not generate ${skipped.pointer}: ${skipped.reason}\n`
}

/**
 * A link the run met, as one line of text: where it starts, where it leads, how it answered.
 *
 * @example
 * ```ts
 * for (const link of report.links) console.log(formatLink(link))
 * // ↪ POST /comments 201 --GetComment--> GET /comments/{id}: followed 10 (200×10)
 * ```
 */
export function formatLink(link: FuzzLink): string {
  const statuses = Object.entries(link.statuses)
    .map(([status, count]) => `${status}×${count}`)
    .join(' ')
  const to = link.to ?? '(an operation not fuzzed)'
  const answered = link.followed > 0 ? ` (${statuses})` : ''
  return `↪ ${link.from} --${link.link}--> ${to}: followed ${link.followed}${answered}\n`
}

/**
 * A failure as text: the operation, the reason, and the shrunk request as a `curl`-like block
 * that can be replayed with `app.request()`.
 *
 * @example
 * ```ts
 * for (const failure of report.failures) console.error(formatFailure(failure))
 * ```
 */
export function formatFailure(failure: FuzzFailure): string {
  const { request } = failure
  const lines = [
    `✗ ${failure.method} ${failure.path}: ${failure.reason}`,
    `  status ${failure.status}, request (${request.kind}, shrunk):`,
    `    ${request.method} ${request.url}`,
    ...Object.entries(request.headers).map(([k, v]) => `    ${k}: ${v}`),
  ]
  if (request.body !== undefined) lines.push('', `    ${JSON.stringify(request.body)}`)
  return `${lines.join('\n')}\n`
}
