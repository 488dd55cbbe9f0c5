// One operation present in both documents: its parameters, request body and responses.
import { compareLinks } from './links'
import { compareSchema } from './schema'
import { type Context, child, deref, isObject, keys, type Node, own, report } from './walk'

/** Path parameters are matched by position, others by location and name (headers any case). */
function paramKey(path: string, location: string, name: string): string {
  if (location === 'path') {
    const names = [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1])
    const index = names.indexOf(name)
    return index >= 0 ? `path:#${index}` : `path:${name}`
  }
  return `${location}:${location === 'header' ? name.toLowerCase() : name}`
}

interface Param {
  node: Node
  location: string
  name: string
  required: boolean
}

/** The operation's parameters with the path item's merged in (the operation's win). */
function params(doc: unknown, path: string, item: Node, op: Node): Map<string, Param> {
  const out = new Map<string, Param>()
  for (const list of [child(item, 'parameters'), child(op, 'parameters')]) {
    if (!Array.isArray(list.value)) continue
    for (let i = 0; i < list.value.length; i++) {
      const node = deref(doc, child(list, i))
      const location = own(node.value, 'in')
      const name = own(node.value, 'name')
      if (typeof location !== 'string' || typeof name !== 'string') continue
      const required = own(node.value, 'required') === true || location === 'path'
      out.set(paramKey(path, location, name), { node, location, name, required })
    }
  }
  return out
}

/** The schema of a parameter: `schema`, or that of its one `content` entry. */
function paramSchema(param: Param): Node {
  const schema = child(param.node, 'schema')
  if (schema.value !== undefined) return schema
  const content = child(param.node, 'content')
  const [first] = keys(content.value)
  return first === undefined ? schema : child(child(content, first), 'schema')
}

export interface OperationPair {
  oldPath: string
  newPath: string
  oldItem: Node
  newItem: Node
  oldOp: Node
  newOp: Node
}

function compareParams(ctx: Context, pair: OperationPair): void {
  const before = params(ctx.old.doc, pair.oldPath, pair.oldItem, pair.oldOp)
  const after = params(ctx.new.doc, pair.newPath, pair.newItem, pair.newOp)
  for (const [key, o] of before) {
    const label = `${o.location} parameter '${o.name}'`
    const n = after.get(key)
    if (n === undefined) {
      report(ctx, 'request-parameter-removed', `${label} removed`, o.node, pair.newOp)
      continue
    }
    if (o.required !== n.required) {
      const id = `request-parameter-became-${n.required ? 'required' : 'optional'}`
      report(ctx, id, `${label} became ${n.required ? 'required' : 'optional'}`, o.node, n.node)
    }
    compareSchema(ctx, paramSchema(o), paramSchema(n), {
      subject: 'request-parameter',
      label,
      path: '',
    })
  }
  for (const [key, n] of after) {
    if (before.has(key)) continue
    const kind = n.required ? 'required' : 'optional'
    const text = `${kind} ${n.location} parameter '${n.name}' added`
    report(ctx, `new-${kind}-request-parameter`, text, pair.oldOp, n.node)
  }
}

/** Media types by lower-cased name. */
function mediaTypes(content: Node): Map<string, Node> {
  const out = new Map<string, Node>()
  for (const type of keys(content.value)) {
    if (!out.has(type.toLowerCase())) out.set(type.toLowerCase(), child(content, type))
  }
  return out
}

function compareBody(ctx: Context, pair: OperationPair): void {
  const o = deref(ctx.old.doc, child(pair.oldOp, 'requestBody'))
  const n = deref(ctx.new.doc, child(pair.newOp, 'requestBody'))
  const oldRequired = own(o.value, 'required') === true
  const newRequired = own(n.value, 'required') === true
  if (!isObject(o.value) && !isObject(n.value)) return
  if (!isObject(o.value)) {
    const kind = newRequired ? 'required' : 'optional'
    report(ctx, `request-body-added-${kind}`, `${kind} request body added`, pair.oldOp, n)
    return
  }
  if (!isObject(n.value)) {
    report(ctx, 'request-body-removed', 'request body removed', o, pair.newOp)
    return
  }
  if (oldRequired !== newRequired) {
    const kind = newRequired ? 'required' : 'optional'
    report(ctx, `request-body-became-${kind}`, `request body became ${kind}`, o, n)
  }
  compareContent(ctx, o, n, 'request', 'the request body')
}

const success = (status: string) => /^[23]/.test(status)

/**
 * The media types of two bodies (a request body or a response) and their schemas, compared in
 * one direction: `request` is what the client sends (narrowing breaks), `response` what it
 * reads (widening breaks). A callback's bodies run the other way round (diff/callbacks.ts).
 */
export function compareContent(
  ctx: Context,
  o: Node,
  n: Node,
  direction: 'request' | 'response',
  what: string,
): void {
  const ids =
    direction === 'request'
      ? ['request-body-media-type-removed', 'request-body-media-type-added']
      : ['response-media-type-removed', 'response-media-type-added']
  const subject = direction === 'request' ? ('request-body' as const) : ('response-body' as const)
  const before = mediaTypes(child(o, 'content'))
  const after = mediaTypes(child(n, 'content'))
  for (const [type, node] of before) {
    const match = after.get(type)
    if (match === undefined) {
      const text = `media type ${type} removed from ${what}`
      report(ctx, ids[0] as string, text, node, child(n, 'content'))
    } else {
      const place = { subject, label: `${what} (${type})`, path: '' }
      compareSchema(ctx, child(node, 'schema'), child(match, 'schema'), place)
    }
  }
  for (const [type, node] of after) {
    if (before.has(type)) continue
    const text = `media type ${type} added to ${what}`
    report(ctx, ids[1] as string, text, child(o, 'content'), node)
  }
}

function compareResponses(ctx: Context, pair: OperationPair): void {
  const o = child(pair.oldOp, 'responses')
  const n = child(pair.newOp, 'responses')
  const statuses = (node: Node) => new Map(keys(node.value).map((k) => [k.toUpperCase(), k]))
  const before = statuses(o)
  const after = statuses(n)
  for (const [status, key] of before) {
    const kind = success(status) ? 'success' : 'non-success'
    const match = after.get(status)
    const oldResponse = deref(ctx.old.doc, child(o, key))
    if (match === undefined) {
      const text = `the ${status} response removed`
      report(ctx, `response-${kind}-status-removed`, text, oldResponse, n)
      continue
    }
    const newResponse = deref(ctx.new.doc, child(n, match))
    compareContent(ctx, oldResponse, newResponse, 'response', `the ${status} response`)
    compareLinks(ctx, status, oldResponse, newResponse)
  }
  for (const [status, key] of after) {
    if (before.has(status)) continue
    const kind = success(status) ? 'success' : 'non-success'
    const text = `the ${status} response added`
    report(ctx, `response-${kind}-status-added`, text, o, child(n, key))
  }
}

/** Compares one operation found in both documents. */
export function compareOperation(ctx: Context, pair: OperationPair): void {
  compareParams(ctx, pair)
  compareBody(ctx, pair)
  compareResponses(ctx, pair)
}
