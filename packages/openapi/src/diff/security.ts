// Security of an operation (its own `security`, else the document's) and the document's
// servers. A security change breaks a client when a way to authenticate that satisfied the old
// requirement satisfies no alternative of the new one.
import { type Context, child, isObject, keys, type Node, own, report } from './walk'

/** One alternative of a security requirement: scheme name -> required scopes. */
type Alternative = Map<string, Set<string>>

function alternatives(node: Node): Alternative[] {
  if (!Array.isArray(node.value) || node.value.length === 0) return [new Map()]
  const out: Alternative[] = []
  for (const requirement of node.value) {
    if (!isObject(requirement)) continue
    const alt: Alternative = new Map()
    for (const scheme of keys(requirement)) {
      const scopes = own(requirement, scheme)
      const list = Array.isArray(scopes) ? scopes.filter((s) => typeof s === 'string') : []
      alt.set(scheme, new Set(list))
    }
    out.push(alt)
  }
  return out.length === 0 ? [new Map()] : out
}

/** The node of the operation's effective security: its own, else the document's. */
export function effectiveSecurity(doc: unknown, op: Node): Node {
  const own_ = child(op, 'security')
  return Array.isArray(own_.value) ? own_ : { value: own(doc, 'security'), ptr: '/security' }
}

/** A client able to meet `have` meets `want` (every scheme and scope `want` asks for). */
function meets(have: Alternative, want: Alternative): boolean {
  for (const [scheme, scopes] of want) {
    const held = have.get(scheme)
    if (held === undefined) return false
    for (const scope of scopes) if (!held.has(scope)) return false
  }
  return true
}

const union = (alts: Alternative[]) => {
  const out: Alternative = new Map()
  for (const alt of alts)
    for (const [scheme, scopes] of alt)
      out.set(scheme, new Set([...(out.get(scheme) ?? []), ...scopes]))
  return out
}

function brokenAlternatives(
  ctx: Context,
  o: Node,
  n: Node,
  before: Alternative[],
  after: Alternative[],
): Set<string> {
  const reported = new Set<string>()
  for (const alt of before) {
    if (after.some((want) => meets(alt, want))) continue
    const sameSchemes = after.find((want) => [...want.keys()].every((s) => alt.has(s)))
    if (sameSchemes !== undefined) {
      for (const [scheme, scopes] of sameSchemes) {
        for (const scope of scopes) {
          if (alt.get(scheme)?.has(scope) || reported.has(`${scheme} ${scope}`)) continue
          reported.add(`${scheme} ${scope}`)
          report(
            ctx,
            'api-security-scope-added',
            `scope '${scope}' of '${scheme}' now required`,
            o,
            n,
          )
        }
      }
      continue
    }
    const missing = new Set(after.flatMap((want) => [...want.keys()].filter((s) => !alt.has(s))))
    const text = `security ${[...missing].map((s) => `'${s}'`).join(' or ')} now required`
    if (!reported.has(text)) report(ctx, 'api-security-added', text, o, n)
    reported.add(text)
    for (const scheme of missing) reported.add(scheme)
  }
  return reported
}

/** Compares the effective security of one operation in both documents. */
export function compareSecurity(ctx: Context, oldOp: Node, newOp: Node): void {
  const o = effectiveSecurity(ctx.old.doc, oldOp)
  const n = effectiveSecurity(ctx.new.doc, newOp)
  const before = alternatives(o)
  const after = alternatives(n)
  const reported = brokenAlternatives(ctx, o, n, before, after)
  const was = union(before)
  const now = union(after)
  for (const [scheme, scopes] of was) {
    const still = now.get(scheme)
    if (still === undefined) {
      report(ctx, 'api-security-removed', `security '${scheme}' no longer required`, o, n)
      continue
    }
    for (const scope of scopes)
      if (!still.has(scope))
        report(
          ctx,
          'api-security-scope-removed',
          `scope '${scope}' of '${scheme}' no longer required`,
          o,
          n,
        )
  }
  for (const scheme of now.keys()) {
    if (was.has(scheme) || reported.has(scheme)) continue
    report(
      ctx,
      'api-security-alternative-added',
      `security '${scheme}' accepted as an alternative`,
      o,
      n,
    )
  }
}

/** Compares the document's servers by URL (none declared is the default server "/"). */
export function compareServers(ctx: Context): void {
  const list = (doc: unknown): Map<string, Node> => {
    const node: Node = { value: own(doc, 'servers'), ptr: '/servers' }
    const out = new Map<string, Node>()
    const servers = Array.isArray(node.value) ? node.value : []
    servers.forEach((server, i) => {
      const url = own(server, 'url')
      if (typeof url === 'string' && !out.has(url)) out.set(url, child(node, i))
    })
    // No servers (or an empty list) means one server, "/" (OpenAPI 3.0 and 3.1 alike).
    if (out.size === 0) out.set('/', { value: undefined, ptr: '/servers' })
    return out
  }
  const before = list(ctx.old.doc)
  const after = list(ctx.new.doc)
  const parent = (doc: unknown): Node => ({ value: own(doc, 'servers'), ptr: '/servers' })
  for (const [url, node] of before)
    if (!after.has(url))
      report(ctx, 'api-server-removed', `server ${url} removed`, node, parent(ctx.new.doc))
  for (const [url, node] of after)
    if (!before.has(url))
      report(ctx, 'api-server-added', `server ${url} added`, parent(ctx.old.doc), node)
}
