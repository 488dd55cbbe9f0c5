// Two schemas at the same place, compared by what they accept: in a request a narrower schema
// breaks clients, in a response a wider one does. Recursive schemas end where a pair of places
// is already being compared further up.
import { covers, type Facets, facetsOf } from './facets'
import { BOUNDS, type SchemaSubject } from './rules'
import { type Context, type Node, report, type Side, show } from './walk'

/** Where the schema is, for messages: `query parameter 'limit'`, `the 200 response (…)`. */
export interface SchemaPlace {
  subject: SchemaSubject
  label: string
  /** Property path below the label (`address.city`, `tags[]`), empty at the root. */
  path: string
}

const MAX_DEPTH = 48

const request = (place: SchemaPlace) => place.subject.startsWith('request')

function where(place: SchemaPlace): string {
  return place.path === '' ? place.label : `property '${place.path}' of ${place.label}`
}

/** The facets of the schema at `node` on one side, read once per diff. */
function facets(side: Side, node: Node): Facets {
  let found = side.facets.get(node.ptr) as Facets | undefined
  if (found === undefined) {
    found = facetsOf(side.doc, node)
    side.facets.set(node.ptr, found)
  }
  return found
}

/** The schema's place, when the document has it (an absent schema has no pointer). */
function node(f: Facets): Node {
  return { value: f.exists ? true : undefined, ptr: f.ptr }
}

function compareTypes(ctx: Context, o: Facets, n: Facets, place: SchemaPlace): void {
  const sameTypes = covers(o.types, n.types) && covers(n.types, o.types)
  const s = place.subject
  const at = where(place)
  if (!sameTypes) {
    const from = o.types.length === 0 ? 'any' : o.types.join('|')
    const to = n.types.length === 0 ? 'any' : n.types.join('|')
    const text = `type of ${at} changed from ${from} to ${to}`
    if (covers(n.types, o.types)) report(ctx, `${s}-type-generalized`, text, node(o), node(n))
    else if (covers(o.types, n.types) && !request(place))
      report(ctx, `${s}-type-specialized`, text, node(o), node(n))
    else report(ctx, `${s}-type-changed`, text, node(o), node(n))
    return
  }
  if (o.format === n.format) return
  const text = `format of ${at} changed from ${o.format ?? 'none'} to ${n.format ?? 'none'}`
  if (o.format !== undefined && n.format === undefined)
    report(ctx, `${s}-type-generalized`, text, node(o), node(n))
  else if (o.format === undefined && !request(place))
    report(ctx, `${s}-type-specialized`, text, node(o), node(n))
  else report(ctx, `${s}-type-changed`, text, node(o), node(n))
}

function compareValues(ctx: Context, o: Facets, n: Facets, place: SchemaPlace): void {
  const s = place.subject
  const at = where(place)
  if (o.nullable !== n.nullable) {
    const id = n.nullable ? `${s}-became-nullable` : `${s}-became-not-nullable`
    report(ctx, id, `${at} ${n.nullable ? 'became' : 'is no longer'} nullable`, node(o), node(n))
  }
  if (o.enum === undefined && n.enum !== undefined) {
    report(ctx, `${s}-became-enum`, `${at} became an enum of ${show(n.enum)}`, node(o), node(n))
  } else if (o.enum !== undefined && n.enum !== undefined) {
    const before = new Set(o.enum.map((v) => show(v)))
    const after = new Set(n.enum.map((v) => show(v)))
    for (const v of before)
      if (!after.has(v))
        report(
          ctx,
          `${s}-enum-value-removed`,
          `enum value ${v} removed from ${at}`,
          node(o),
          node(n),
        )
    for (const v of after)
      if (!before.has(v))
        report(ctx, `${s}-enum-value-added`, `enum value ${v} added to ${at}`, node(o), node(n))
  }
  if (o.pattern !== n.pattern) {
    const id =
      o.pattern === undefined
        ? `${s}-pattern-added`
        : n.pattern === undefined
          ? `${s}-pattern-removed`
          : `${s}-pattern-changed`
    const text = `pattern of ${at} changed from ${show(o.pattern ?? null)} to ${show(n.pattern ?? null)}`
    report(ctx, id, text, node(o), node(n))
  }
  for (const [keyword, name] of BOUNDS) {
    const before = o.bounds.get(keyword)
    const after = n.bounds.get(keyword)
    if (before === after) continue
    let change: string
    if (before === undefined) change = 'set'
    else if (after === undefined) change = 'unset'
    else if (after < before) change = 'decreased'
    else change = 'increased'
    const text = `${keyword} of ${at} changed from ${before ?? 'none'} to ${after ?? 'none'}`
    report(ctx, `${s}-${name}-${change}`, text, node(o), node(n))
  }
}

function compareProperties(
  ctx: Context,
  o: Facets,
  n: Facets,
  place: SchemaPlace,
  depth: number,
): void {
  const inRequest = request(place)
  const sub: SchemaSubject = inRequest ? 'request-property' : 'response-property'
  const hidden = (f: Facets) => (inRequest ? f.readOnly : f.writeOnly)
  const nameOf = (name: string) => (place.path === '' ? name : `${place.path}.${name}`)
  const propsPtr = (f: Facets): Node =>
    f.propsPtr === undefined ? node(f) : { value: true, ptr: f.propsPtr }
  for (const [name, before] of o.props) {
    const label = `property '${nameOf(name)}' of ${place.label}`
    const after = n.props.get(name)
    if (after === undefined) {
      if (hidden(facets(ctx.old, before))) continue
      const id = inRequest
        ? 'request-property-removed'
        : o.required.has(name)
          ? 'response-required-property-removed'
          : 'response-optional-property-removed'
      report(ctx, id, `${label} removed`, before, propsPtr(n))
      continue
    }
    const wasRequired = o.required.has(name)
    const isRequired = n.required.has(name)
    if (wasRequired !== isRequired && !hidden(facets(ctx.new, after))) {
      const id = inRequest
        ? `request-property-became-${isRequired ? 'required' : 'optional'}`
        : `response-property-became-${isRequired ? 'required' : 'optional'}`
      report(ctx, id, `${label} became ${isRequired ? 'required' : 'optional'}`, before, after)
    }
    compareSchema(ctx, before, after, { ...place, subject: sub, path: nameOf(name) }, depth + 1)
  }
  for (const [name, after] of n.props) {
    if (o.props.has(name) || hidden(facets(ctx.new, after))) continue
    const required = n.required.has(name)
    const id = inRequest
      ? `new-${required ? 'required' : 'optional'}-request-property`
      : `response-${required ? 'required' : 'optional'}-property-added`
    const text = `${required ? 'required' : 'optional'} property '${nameOf(name)}' added to ${place.label}`
    report(ctx, id, text, propsPtr(o), after)
  }
}

/**
 * Compares the schemas at `oldNode` and `newNode` (either may be a `$ref`). A pair of places is
 * compared once per operation and direction (`ctx.seen`): a recursive schema ends, and a
 * component reached many ways costs one comparison.
 */
export function compareSchema(
  ctx: Context,
  oldNode: Node,
  newNode: Node,
  place: SchemaPlace,
  depth = 0,
): void {
  if (depth >= MAX_DEPTH) return
  const o = facets(ctx.old, oldNode)
  const n = facets(ctx.new, newNode)
  const key = `${request(place) ? 'q' : 's'}\u0000${o.ptr}\u0000${n.ptr}`
  if (ctx.seen.has(key)) return
  ctx.seen.add(key)
  compareTypes(ctx, o, n, place)
  compareValues(ctx, o, n, place)
  compareProperties(ctx, o, n, place, depth)
  if (o.items !== undefined && n.items !== undefined) {
    const sub: SchemaSubject = request(place) ? 'request-property' : 'response-property'
    compareSchema(
      ctx,
      o.items,
      n.items,
      { ...place, subject: sub, path: `${place.path}[]` },
      depth + 1,
    )
  }
}
