// The links of one response present in both documents. A link is a documented workflow (which
// call comes next, with which values): removing or retargeting one changes nothing on the wire,
// so it is `info` (clients that follow links at run time, and `palisade fuzz`, notice).
import { type Context, child, deref, isObject, keys, type Node, own, report } from './walk'

/** What identifies a link's behaviour: its target and the values it passes. */
const shape = (link: unknown) =>
  JSON.stringify([
    own(link, 'operationId'),
    own(link, 'operationRef'),
    own(link, 'parameters'),
    own(link, 'requestBody'),
  ])

/** Compares the `links` of the `status` response `o` (old) and `n` (new). */
export function compareLinks(ctx: Context, status: string, o: Node, n: Node): void {
  const before = child(o, 'links')
  const after = child(n, 'links')
  for (const name of keys(before.value)) {
    const old = deref(ctx.old.doc, child(before, name))
    const match = deref(ctx.new.doc, child(after, name))
    if (!isObject(match.value)) {
      report(ctx, 'response-link-removed', `link ${name} of the ${status} response removed`, old, n)
    } else if (shape(old.value) !== shape(match.value)) {
      const text = `link ${name} of the ${status} response leads elsewhere or passes other values`
      report(ctx, 'response-link-changed', text, old, match)
    }
  }
  for (const name of keys(after.value)) {
    if (isObject(own(before.value, name))) continue
    const text = `link ${name} added to the ${status} response`
    report(ctx, 'response-link-added', text, o, child(after, name))
  }
}
