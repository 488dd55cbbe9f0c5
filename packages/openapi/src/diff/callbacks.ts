// The callbacks of one operation present in both documents. A callback's request is what *we*
// send to the client's URL, and its responses what the client answers: each is compared in the
// direction opposite to an operation's (a property dropped from the body we send breaks the
// receivers, as a response property would; a status we no longer accept in their answer, as a
// request change would). Removing a callback (name, URL expression or method) is breaking: the
// subscribers who registered for it stop being called.
import { compareContent } from './operations'
import { type Context, child, deref, isObject, keys, type Node, report } from './walk'

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

/** Each callback request of an operation: `name`, URL expression and method to its node. */
function requests(doc: unknown, op: Node): Map<string, { label: string; node: Node }> {
  const out = new Map<string, { label: string; node: Node }>()
  const callbacks = child(op, 'callbacks')
  for (const name of keys(callbacks.value)) {
    const item = deref(doc, child(callbacks, name))
    for (const url of keys(item.value)) {
      const path = deref(doc, child(item, url))
      for (const method of METHODS) {
        const node = child(path, method)
        if (!isObject(node.value)) continue
        const label = `callback ${name} (${method.toUpperCase()} ${url})`
        out.set(JSON.stringify([name, url, method]), { label, node })
      }
    }
  }
  return out
}

/** Compares the callbacks of an operation found in both documents. */
export function compareCallbacks(ctx: Context, oldOp: Node, newOp: Node): void {
  const before = requests(ctx.old.doc, oldOp)
  const after = requests(ctx.new.doc, newOp)
  if (before.size === 0 && after.size === 0) return
  const operation = ctx.operation
  for (const [key, o] of before) {
    const n = after.get(key)
    ctx.operation = `${operation} ${o.label}`
    if (n === undefined) {
      report(ctx, 'callback-removed', `${o.label} removed`, o.node, child(newOp, 'callbacks'))
      continue
    }
    const body = (doc: unknown, node: Node) => deref(doc, child(node, 'requestBody'))
    const what = 'the body of the callback request'
    compareContent(ctx, body(ctx.old.doc, o.node), body(ctx.new.doc, n.node), 'response', what)
    const oldResponses = child(o.node, 'responses')
    const newResponses = child(n.node, 'responses')
    for (const status of keys(oldResponses.value)) {
      const match = deref(ctx.new.doc, child(newResponses, status))
      if (!isObject(match.value)) continue
      const old = deref(ctx.old.doc, child(oldResponses, status))
      compareContent(ctx, old, match, 'request', `the receiver's ${status} answer`)
    }
  }
  for (const [key, n] of after) {
    if (before.has(key)) continue
    ctx.operation = `${operation} ${n.label}`
    report(ctx, 'callback-added', `${n.label} added`, child(oldOp, 'callbacks'), n.node)
  }
  ctx.operation = operation
}
