// Stateful fuzzing: after a valid request an operation answered as documented, the links its
// response declares are followed: their runtime expressions are evaluated against that request
// and response, the linked operation is called with the values, and its answer is judged as any
// other. Bounded (chains started per operation, depth) and seeded like the rest of the run.
import type * as FastCheck from 'fast-check'
import type { OpenAPILink } from '../model/document'
import {
  type ExpressionContext,
  evaluateExpression,
  parseRuntimeExpression,
  parseTemplate,
} from '../model/runtime-expression'
import { CannotGenerate } from './limits'
import { type Draft, type Plan, validDraft } from './requests'
import type { Resolve } from './schema-arbitrary'
import type { FuzzFailure, FuzzLink, FuzzRequest } from './types'

/** What following a link needs of the run. */
export interface LinkRun {
  fc: typeof FastCheck
  plans: readonly Plan[]
  resolve: Resolve
  seed: number
  /** Chains started from one operation (depth 1 calls). */
  max: number
  /** Links followed one after the other, at most. */
  depth: number
  /** Sends a draft to an operation as the fuzzer sends any (credentials, judging, and links). */
  send: (
    plan: Plan,
    draft: Draft,
    depth: number,
  ) => Promise<{ request: FuzzRequest; status: number; reason?: string }>
  fail: (failure: FuzzFailure) => void
  edges: FuzzLink[]
}

const label = (plan: Plan) => `${plan.operation.method} ${plan.template}`

/** The value a link parameter or body stands for; `undefined` when an expression finds nothing. */
export function linkValue(value: unknown, ctx: ExpressionContext): unknown {
  if (typeof value !== 'string') return value
  if (value.startsWith('$')) {
    const parsed = parseRuntimeExpression(value)
    return typeof parsed === 'string' ? undefined : evaluateExpression(parsed, ctx)
  }
  if (!value.includes('{$')) return value
  const parts = parseTemplate(value)
  if (typeof parts === 'string') return undefined
  let out = ''
  for (const part of parts) {
    const v = typeof part === 'string' ? part : evaluateExpression(part, ctx)
    if (v === undefined) return undefined
    out += typeof v === 'string' ? v : JSON.stringify(v)
  }
  return out
}

/** The parsed JSON of `text`, or the text itself. */
function body(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** Puts `value` where the target takes parameter `name` (`path.id` names the location). */
function place(draft: Draft, target: Plan, name: string, value: unknown): boolean {
  const qualified = /^(path|query|header)\.(.+)$/s.exec(name)
  const where = qualified?.[1]
  const bare = qualified?.[2] ?? name
  const param = target.parameters.find(
    (p) =>
      (where === undefined || p.in === where) &&
      (p.in === 'header' ? p.name.toLowerCase() === bare.toLowerCase() : p.name === bare),
  )
  if (!param) return false
  const bag =
    param.in === 'path' ? draft.params : param.in === 'query' ? draft.query : draft.headers
  bag[param.name] = value
  return true
}

/** Follows links of one answer; a chain is judged per step, its failures reported once per link. */
export class LinkFollower {
  private readonly starts = new Map<Plan, number>()
  private readonly failed = new Set<FuzzLink>()
  private draws = 0

  constructor(private readonly run: LinkRun) {}

  /** Whether the answer `status` of `plan` at `depth` may lead anywhere: worth keeping its body. */
  wants(plan: Plan, status: number, depth: number): boolean {
    const links = plan.item.responses?.[String(status)]?.links
    if (links === undefined || Object.keys(links).length === 0 || depth >= this.run.depth)
      return false
    return depth > 0 || (this.starts.get(plan) ?? 0) < this.run.max
  }

  private target(link: OpenAPILink): Plan | undefined {
    if (link.operationId !== undefined)
      return this.run.plans.find((p) => p.operation.operationId === link.operationId)
    const ref = /^#\/paths\/([^/]+)\/([a-z]+)$/.exec(link.operationRef ?? '')
    if (!ref) return undefined
    const path = decodeURIComponent(ref[1] as string)
      .replace(/~1/g, '/')
      .replace(/~0/g, '~')
    return this.run.plans.find(
      (p) => p.template === path && p.operation.method === ref[2]?.toUpperCase(),
    )
  }

  private edge(from: Plan, status: number, name: string, to: Plan | undefined): FuzzLink {
    const fromLabel = `${label(from)} ${status}`
    const found = this.run.edges.find((e) => e.from === fromLabel && e.link === name)
    if (found) return found
    const edge: FuzzLink = {
      from: fromLabel,
      link: name,
      to: to ? label(to) : undefined,
      followed: 0,
      statuses: {},
    }
    this.run.edges.push(edge)
    return edge
  }

  private fail(edge: FuzzLink, to: Plan, request: FuzzRequest, status: number, reason: string) {
    if (this.failed.has(edge)) return
    this.failed.add(edge)
    this.run.fail({
      method: to.operation.method,
      path: to.template,
      request,
      status,
      reason: `via link ${edge.link} of ${edge.from}: ${reason}`,
    })
  }

  /** The draft the link sends, or why there is none. */
  private draft(link: OpenAPILink, to: Plan, ctx: ExpressionContext): Draft | string | undefined {
    let draft: Draft | undefined
    try {
      const seed = (this.run.seed + ++this.draws * 104729) | 0
      draft = this.run.fc.sample(validDraft(this.run.fc, to, this.run.resolve), {
        numRuns: 1,
        seed,
      })[0]
    } catch (error) {
      if (error instanceof CannotGenerate) return undefined
      throw error
    }
    if (draft === undefined) return undefined
    for (const [name, value] of Object.entries(link.parameters ?? {})) {
      const v = linkValue(value, ctx)
      if (v === undefined) return `${String(value)} is not in the exchange`
      if (!place(draft, to, name, v)) return `${label(to)} takes no parameter "${name}"`
    }
    if (link.requestBody !== undefined) {
      const v = linkValue(link.requestBody, ctx)
      if (v === undefined)
        return `the request body ${String(link.requestBody)} is not in the exchange`
      draft.body = v
    }
    draft.kind = `via link from ${ctx.method} ${ctx.statusCode}`
    return draft
  }

  /** Follows the links of `res`, the answer `plan` gave to `request` (drawn as `draft`). */
  async follow(plan: Plan, draft: Draft, request: FuzzRequest, res: Response, depth: number) {
    if (depth === 0) this.starts.set(plan, (this.starts.get(plan) ?? 0) + 1)
    const links = plan.item.responses?.[String(res.status)]?.links ?? {}
    const url = `http://localhost${request.url}`
    const ctx: ExpressionContext = {
      url,
      method: request.method,
      statusCode: res.status,
      request: {
        headers: new Headers(request.headers),
        query: new URL(url).searchParams,
        path: Object.fromEntries(Object.entries(draft.params).map(([k, v]) => [k, String(v)])),
        body: body(request.body),
      },
      response: { headers: res.headers, body: body(await res.text()) },
    }
    for (const name of Object.keys(links).sort()) {
      const link = links[name] as OpenAPILink
      const to = this.target(link)
      const edge = this.edge(plan, res.status, name, to)
      if (to === undefined) continue
      const next = this.draft(link, to, ctx)
      if (next === undefined) continue
      if (typeof next === 'string') {
        this.fail(edge, to, request, res.status, next)
        continue
      }
      const result = await this.run.send(to, next, depth + 1)
      edge.followed++
      edge.statuses[result.status] = (edge.statuses[result.status] ?? 0) + 1
      let reason = result.reason
      // Schemathesis's `ensure_resource_availability`: what a POST created, a GET finds.
      if (
        !reason &&
        plan.operation.method === 'POST' &&
        to.operation.method === 'GET' &&
        result.status === 404
      )
        reason = `the resource ${label(plan)} created is not found (404)`
      if (reason) this.fail(edge, to, result.request, result.status, reason)
    }
  }
}
