import type * as FastCheck from 'fast-check'
import { resolveApp } from '../app/resolve'
import type {
  OpenAPIDocument,
  OpenAPIParameter,
  OpenAPIPathItem,
  OpenAPIResponse,
} from '../model/document'
import { isRecord } from '../schema/common'
import type { OpenAPISchema } from '../schema/types'
import { loadPeers, type Peers, type SchemaCheck } from './peers'
import {
  boundaryValues,
  flatten,
  type Resolve,
  schemaArbitrary,
  wrongTypeArbitrary,
} from './schema-arbitrary'

type FC = typeof FastCheck
type Arbitrary<T> = FastCheck.Arbitrary<T>

/**
 * One operation of the document, as the auth hook and the filter see it.
 *
 * @example
 * const op: FuzzOperation = { method: 'POST', path: '/users', operationId: 'createUser', security: [] }
 */
export interface FuzzOperation {
  /** Upper case. */
  method: string
  /** As documented: `/users/{id}`. */
  path: string
  operationId?: string
  /** The operation's security requirements (`[]`: public). */
  security: Record<string, string[]>[]
}

/**
 * What the auth hook adds to a request: headers (a bearer token, an API key, a CSRF header) and
 * cookies (a session, the CSRF cookie).
 *
 * @example
 * const auth: FuzzAuth = { headers: { authorization: `Bearer ${token}` } }
 */
export interface FuzzAuth {
  headers?: Record<string, string>
  cookies?: Record<string, string>
}

/**
 * Options of {@link fuzz}.
 *
 * @example
 * const options: FuzzOptions = { runs: 50, seed: 42, auth: () => ({ headers: { 'x-api-key': key } }) }
 */
export interface FuzzOptions {
  /** Generated requests per operation (valid ones and near misses), before shrinking. Default 100. */
  runs?: number
  /** Seed of the run; the report carries it, so a run can be repeated. Default: random. */
  seed?: number
  /** Credentials for one request of `operation`; called before every request. */
  auth?: (operation: FuzzOperation) => FuzzAuth | undefined | Promise<FuzzAuth | undefined>
  /** Which operations to fuzz. Default: all. */
  filter?: (operation: FuzzOperation) => boolean
  /** Headers sent on every request (e.g. `X-Forwarded-For` for a rate limiter's key). */
  headers?: Record<string, string>
  /** Passed as the third argument of `app.request()` (bindings on Workers). */
  env?: unknown
  /**
   * `'fail'` (default): a JSON body property the documented object schema does not declare is a
   * failure, as nothing undeclared should leave the app; `'allow'`: JSON Schema's own rule (an
   * object without `additionalProperties` accepts any other property).
   */
  extraProperties?: 'fail' | 'allow'
  /** Called once per failure, after shrinking (the CLI prints them). */
  onFailure?: (failure: FuzzFailure) => void
}

/**
 * A request as the fuzzer sent it.
 *
 * @example
 * const request: FuzzRequest = { method: 'POST', url: '/users', headers: {}, body: '{}', kind: 'valid' }
 */
export interface FuzzRequest {
  method: string
  /** Path and query, percent-encoded as sent. */
  url: string
  headers: Record<string, string>
  body?: string
  /** `valid`, or which near miss it is (`wrong type at /name`, `missing /email`, …). */
  kind: string
}

/**
 * One operation the app answered against its document, with the smallest request that shows it.
 *
 * @example
 * const failure: FuzzFailure = {
 *   method: 'GET', path: '/users/{id}', status: 500, reason: 'server error (500)',
 *   request: { method: 'GET', url: '/users/0', headers: {}, kind: 'valid' },
 * }
 */
export interface FuzzFailure {
  method: string
  path: string
  request: FuzzRequest
  status: number
  reason: string
}

/**
 * What a fuzz run found.
 *
 * @example
 * const report: FuzzReport = await fuzz(api, { seed: 1 })
 * if (report.failures.length > 0) process.exitCode = 1
 */
export interface FuzzReport {
  /** The seed: `fuzz(api, { seed })` repeats the run. */
  seed: number
  operations: number
  /** Requests sent, shrinking included. */
  requests: number
  /** How many responses had each status. */
  statuses: Record<string, number>
  failures: FuzzFailure[]
}

const JSON_MEDIA = /^application\/(?:[\w.-]+\+)?json$/i

/** The parts of a request the generator fills, before encoding. */
interface Draft {
  params: Record<string, unknown>
  query: Record<string, unknown>
  headers: Record<string, unknown>
  body?: unknown
  /** Raw body text that overrides `body` (odd encodings). */
  raw?: string
  contentType?: string
  kind: string
}

interface Plan {
  operation: FuzzOperation
  item: OpenAPIPathItem
  template: string
  parameters: OpenAPIParameter[]
  bodyMedia?: string
  bodySchema?: OpenAPISchema
}

function resolver(doc: OpenAPIDocument): Resolve {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, OpenAPISchema>
  return function resolve(schema) {
    let s = schema
    for (let i = 0; i < 16 && typeof s.$ref === 'string'; i++) {
      const name = /^#\/components\/schemas\/(.+)$/.exec(s.$ref)?.[1]
      const target = name === undefined ? undefined : schemas[decodeURIComponent(name)]
      if (!target) return {}
      const { $ref: _, ...rest } = s
      s = { ...target, ...rest }
    }
    return s
  }
}

function plans(doc: OpenAPIDocument, filter: FuzzOptions['filter']): Plan[] {
  const out: Plan[] = []
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const operation: FuzzOperation = {
        method: method.toUpperCase(),
        path: template,
        security: structuredClone(op.security ?? []),
      }
      if (op.operationId !== undefined) operation.operationId = op.operationId
      if (filter && !filter(operation)) continue
      const content = op.requestBody?.content ?? {}
      const media =
        Object.keys(content).find((t) => JSON_MEDIA.test(t)) ??
        Object.keys(content).find((t) => t === 'application/x-www-form-urlencoded') ??
        Object.keys(content)[0]
      out.push({
        operation,
        item: op,
        template,
        parameters: op.parameters ?? [],
        bodyMedia: media,
        bodySchema: media === undefined ? undefined : (content[media]?.schema ?? {}),
      })
    }
  }
  return out
}

function validDraft(fc: FC, plan: Plan, resolve: Resolve): Arbitrary<Draft> {
  const part = (where: OpenAPIParameter['in']) => {
    const model: Record<string, Arbitrary<unknown>> = {}
    const required: string[] = []
    for (const p of plan.parameters.filter((q) => q.in === where)) {
      let arb = schemaArbitrary(fc, p.schema ?? { type: 'string' }, resolve)
      // A path segment is never empty, and `.` or `..` would be resolved away by the URL.
      if (where === 'path') arb = arb.filter(reachable)
      if (where === 'header') arb = arb.filter((v) => /^[\x21-\x7e]*$/.test(String(v)))
      model[p.name] = arb
      if (p.required || where === 'path') required.push(p.name)
    }
    return fc.record(model, { requiredKeys: required })
  }
  const body =
    plan.bodySchema === undefined
      ? fc.constant(undefined)
      : schemaArbitrary(fc, plan.bodySchema, resolve)
  return fc
    .record({ params: part('path'), query: part('query'), headers: part('header'), body })
    .map((d) => {
      const draft: Draft = {
        params: d.params,
        query: d.query,
        headers: d.headers,
        kind: 'valid',
      }
      if (plan.bodySchema !== undefined) {
        draft.body = d.body
        draft.contentType = plan.bodyMedia
      }
      return draft
    })
}

const pointer = (path: string[]) =>
  `/${path.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`

/** Each place inside the body (and each parameter) where a near miss can be planted. */
function targets(plan: Plan, resolve: Resolve): { at: string[]; schema: OpenAPISchema }[] {
  const out: { at: string[]; schema: OpenAPISchema }[] = []
  for (const p of plan.parameters) {
    out.push({ at: [`#${p.in}`, p.name], schema: p.schema ?? { type: 'string' } })
  }
  if (plan.bodySchema !== undefined) {
    const body = flatten(plan.bodySchema, resolve)
    out.push({ at: ['#body'], schema: body })
    for (const [name, prop] of Object.entries(body.properties ?? {})) {
      out.push({ at: ['#body', name], schema: prop })
    }
  }
  return out
}

function setAt(draft: Draft, at: string[], value: unknown, remove = false): Draft {
  const next: Draft = structuredClone(draft)
  const [where, name] = at
  const bag =
    where === '#path'
      ? next.params
      : where === '#query'
        ? next.query
        : where === '#header'
          ? next.headers
          : undefined
  if (bag && name !== undefined) {
    if (remove) delete bag[name]
    else bag[name] = value
    return next
  }
  if (name === undefined) {
    if (remove) delete next.body
    else next.body = value
    return next
  }
  const body = isRecord(next.body) ? next.body : {}
  if (remove) delete body[name]
  else body[name] = value
  next.body = body
  return next
}

const ODD_ENCODINGS: { kind: string; apply: (d: Draft) => Draft }[] = [
  {
    kind: 'body that is not JSON',
    apply: (d) => ({ ...d, raw: '{"a":', contentType: d.contentType ?? 'application/json' }),
  },
  {
    kind: 'empty body',
    apply: (d) => ({ ...d, raw: '', contentType: d.contentType ?? 'application/json' }),
  },
  {
    kind: 'byte order mark before the body',
    apply: (d) => ({ ...d, raw: `\ufeff${JSON.stringify(d.body ?? {})}` }),
  },
  { kind: 'text/plain content type', apply: (d) => ({ ...d, contentType: 'text/plain' }) },
  {
    kind: 'unknown charset',
    apply: (d) => ({
      ...d,
      contentType: `${d.contentType ?? 'application/json'}; charset=x-bogus`,
    }),
  },
  { kind: 'no content type', apply: (d) => ({ ...d, contentType: '' }) },
  {
    kind: 'duplicate JSON keys',
    apply: (d) => ({
      ...d,
      raw: isRecord(d.body)
        ? `${JSON.stringify(d.body).slice(0, -1)}${Object.keys(d.body).length ? ',' : ''}"__proto__":{"x":1}}`
        : '{"__proto__":{"x":1}}',
    }),
  },
  {
    kind: 'percent-encoded slash and NUL in path parameters',
    apply: (d) => ({
      ...d,
      params: Object.fromEntries(Object.keys(d.params).map((k) => [k, 'a/b\u0000%'])),
    }),
  },
  {
    kind: 'repeated query parameters',
    apply: (d) => ({
      ...d,
      query: Object.fromEntries(Object.entries(d.query).map(([k, v]) => [k, [v, v]])),
    }),
  },
]

function nearMiss(fc: FC, plan: Plan, resolve: Resolve, valid: Arbitrary<Draft>): Arbitrary<Draft> {
  const places = targets(plan, resolve)
  const mutations: Arbitrary<Draft>[] = [
    fc
      .tuple(valid, fc.constantFrom(...ODD_ENCODINGS))
      .map(([d, odd]) => ({ ...odd.apply(d), kind: odd.kind })),
  ]
  if (plan.bodySchema !== undefined) {
    mutations.push(
      fc
        .tuple(valid, fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }))
        .map(([d, key, value]) => ({
          ...setAt(d, ['#body', `x-${key}`], value),
          kind: `extra field /x-${key}`,
        })),
    )
  }
  for (const place of places) {
    const label =
      place.at[0] === '#body'
        ? pointer(place.at.slice(1))
        : `${place.at[0]?.slice(1)} ${place.at[1]}`
    mutations.push(
      fc
        .tuple(valid, wrongTypeArbitrary(fc, place.schema, resolve))
        .map(([d, value]) => ({ ...setAt(d, place.at, value), kind: `wrong type at ${label}` })),
    )
    const bounds = boundaryValues(place.schema, resolve)
    if (bounds.length > 0) {
      mutations.push(
        fc.tuple(valid, fc.constantFrom(...bounds)).map(([d, value]) => ({
          ...setAt(d, place.at, value),
          kind: `boundary value at ${label}`,
        })),
      )
    }
    if (place.at.length === 2 && place.at[0] !== '#path') {
      mutations.push(
        valid.map((d) => ({ ...setAt(d, place.at, undefined, true), kind: `missing ${label}` })),
      )
    }
  }
  // A path segment that is empty, `.` or `..` never reaches the operation: not a near miss of it.
  return fc.oneof(...mutations).filter((d) => Object.values(d.params).every(reachable))
}

const reachable = (v: unknown) => !['', '.', '..'].includes(scalar(v))

const scalar = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))

function encode(
  plan: Plan,
  draft: Draft,
  base: Record<string, string>,
  auth?: FuzzAuth,
): FuzzRequest {
  const path = plan.template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(scalar(draft.params[name] ?? '')),
  )
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries(draft.query)) {
    if (value === undefined) continue
    for (const v of Array.isArray(value) ? value : [value]) query.append(name, scalar(v))
  }
  const headers: Record<string, string> = { ...base }
  for (const [name, value] of Object.entries(draft.headers)) {
    if (value !== undefined)
      headers[name.toLowerCase()] = scalar(value).replace(/[^\x20-\x7e]/g, '')
  }
  for (const [name, value] of Object.entries(auth?.headers ?? {}))
    headers[name.toLowerCase()] = value
  const cookies = Object.entries(auth?.cookies ?? {}).map(([k, v]) => `${k}=${v}`)
  if (cookies.length > 0) headers.cookie = cookies.join('; ')
  const request: FuzzRequest = {
    method: plan.operation.method,
    url: query.toString() === '' ? path : `${path}?${query}`,
    headers,
    kind: draft.kind,
  }
  if (draft.contentType !== undefined) {
    if (draft.contentType !== '') headers['content-type'] = draft.contentType
    let body = draft.raw
    if (body === undefined) {
      if (
        draft.contentType.startsWith('application/x-www-form-urlencoded') ||
        draft.contentType.startsWith('multipart/')
      ) {
        const form = new URLSearchParams()
        if (isRecord(draft.body))
          for (const [k, v] of Object.entries(draft.body)) form.append(k, scalar(v))
        body = form.toString()
        if (draft.contentType.startsWith('multipart/'))
          headers['content-type'] = 'application/x-www-form-urlencoded'
      } else body = draft.body === undefined ? '' : (JSON.stringify(draft.body) ?? '')
    }
    request.body = body
  }
  return request
}

/** Statuses the operation documents: exact, a range (`4XX`) or `default`. */
function documented(item: OpenAPIPathItem, status: number): OpenAPIResponse | undefined {
  const responses = item.responses ?? {}
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default
}

function mediaOf(contentType: string | null): string | undefined {
  return contentType?.split(';')[0]?.trim().toLowerCase() || undefined
}

async function judge(plan: Plan, res: Response, check: SchemaCheck): Promise<string | undefined> {
  if (res.status >= 500) return `server error (${res.status})`
  const response = documented(plan.item, res.status)
  if (!response) {
    const listed = Object.keys(plan.item.responses ?? {}).join(', ')
    return `status ${res.status} is not documented (documented: ${listed})`
  }
  const media = mediaOf(res.headers.get('content-type'))
  const text = await res.text()
  if (text === '' || res.status === 204 || res.status === 304) return undefined
  const content = response.content
  if (!content) return undefined
  if (media === undefined) return 'a body without Content-Type'
  const key = Object.keys(content).find((type) => type.toLowerCase() === media)
  if (key === undefined) {
    return `Content-Type ${media} is not documented for ${res.status} (documented: ${Object.keys(content).join(', ')})`
  }
  if (!JSON_MEDIA.test(media)) return undefined
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return `${media} body is not JSON`
  }
  if (media === 'application/problem+json' && (!isRecord(body) || typeof body.code !== 'string')) {
    return 'problem body without a `code`'
  }
  const schema = content[key]?.schema
  if (schema) {
    const error = check(schema, body)
    if (error) return `body does not match the documented schema: ${error}`
  }
  return undefined
}

/**
 * Fuzzes every documented operation of an app through `app.request()`: requests generated from
 * the document, valid ones and near misses (wrong types, missing and extra fields, boundary
 * values, odd encodings). Every answer must be below 500, have a documented status and
 * `Content-Type`, a JSON body that matches the documented schema, and problem bodies a `code`.
 * A failing request is shrunk (fast-check) to the smallest that still fails.
 *
 * Needs the optional peers `fast-check` (generation, shrinking) and `ajv` (schema checks).
 *
 * @param app - the `OpenAPIApp` from `openapi()`, or the Hono app it wraps
 * @param options - `runs` per operation (default 100), `seed` (default random, in the report),
 *   `auth` hook, `filter`, `headers`, `env`
 * @returns `{ seed, operations, requests, statuses, failures }`
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
  const report: FuzzReport = { seed, operations: 0, requests: 0, statuses: {}, failures: [] }
  const base = options.headers ?? {}

  const send = async (plan: Plan, draft: Draft) => {
    const auth = options.auth ? await options.auth(structuredClone(plan.operation)) : undefined
    const request = encode(plan, draft, base, auth)
    const init: RequestInit = { method: request.method, headers: request.headers }
    if (request.body !== undefined && request.method !== 'GET' && request.method !== 'HEAD')
      init.body = request.body
    report.requests++
    let res: Response
    try {
      res = await api.request(request.url, init, options.env as never)
    } catch (error) {
      return { request, status: 0, reason: `app.request() threw: ${String(error)}` }
    }
    report.statuses[res.status] = (report.statuses[res.status] ?? 0) + 1
    return { request, status: res.status, reason: await judge(plan, res, check) }
  }

  for (const [i, plan] of plans(doc, options.filter).entries()) {
    report.operations++
    const valid = validDraft(fc, plan, resolve)
    const arb = fc.oneof(
      { arbitrary: valid, weight: 1 },
      { arbitrary: nearMiss(fc, plan, resolve, valid), weight: 2 },
    )
    const result = await fc.check(
      fc.asyncProperty(arb, async (draft) => (await send(plan, draft)).reason === undefined),
      { numRuns: runs, seed: (seed + i * 7919) | 0, endOnFailure: false },
    )
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
