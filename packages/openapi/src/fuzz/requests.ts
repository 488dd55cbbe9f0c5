// From the document to requests: what each operation takes (its plan), valid drafts and near
// misses as fast-check arbitraries, and a draft encoded as the request `app.request()` gets.
import type * as FastCheck from 'fast-check'
import type { OpenAPIDocument, OpenAPIParameter, OpenAPIPathItem } from '../model/document'
import { isRecord } from '../schema/common'
import type { OpenAPISchema } from '../schema/types'
import { filterOrGiveUp, segment } from './limits'
import {
  boundaryValues,
  flatten,
  type Resolve,
  schemaArbitrary,
  wrongTypeArbitrary,
} from './schema-arbitrary'
import type { FuzzAuth, FuzzOperation, FuzzOptions, FuzzRequest } from './types'

type FC = typeof FastCheck
type Arbitrary<T> = FastCheck.Arbitrary<T>

export const JSON_MEDIA = /^application\/(?:[\w.-]+\+)?json$/i

/** The parts of a request the generator fills, before encoding. */
export interface Draft {
  params: Record<string, unknown>
  query: Record<string, unknown>
  headers: Record<string, unknown>
  body?: unknown
  /** Raw body text that overrides `body` (odd encodings). */
  raw?: string
  contentType?: string
  kind: string
}

export interface Plan {
  operation: FuzzOperation
  item: OpenAPIPathItem
  template: string
  parameters: OpenAPIParameter[]
  bodyMedia?: string
  bodySchema?: OpenAPISchema
}

export function resolver(doc: OpenAPIDocument): Resolve {
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

export function plans(doc: OpenAPIDocument, filter: FuzzOptions['filter']): Plan[] {
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

export function validDraft(fc: FC, plan: Plan, resolve: Resolve): Arbitrary<Draft> {
  const part = (where: OpenAPIParameter['in']) => {
    const model: Record<string, Arbitrary<unknown>> = {}
    const required: string[] = []
    for (const p of plan.parameters.filter((q) => q.in === where)) {
      const place = { pointer: `/${where}/${segment(p.name)}`, ascii: where === 'header' }
      let arb = schemaArbitrary(fc, p.schema ?? { type: 'string' }, resolve, place)
      // A path segment is never empty, and `.` or `..` would be resolved away by the URL.
      if (where === 'path')
        arb = filterOrGiveUp(
          fc,
          arb,
          reachable,
          place.pointer,
          'path segment other than "", . and ..',
        )
      if (where === 'header')
        arb = filterOrGiveUp(
          fc,
          arb,
          (v) => /^[\x21-\x7e]*$/.test(String(v)),
          place.pointer,
          'header value in printable ASCII',
        )
      model[p.name] = arb
      if (p.required || where === 'path') required.push(p.name)
    }
    return fc.record(model, { requiredKeys: required })
  }
  const body =
    plan.bodySchema === undefined
      ? fc.constant(undefined)
      : schemaArbitrary(fc, plan.bodySchema, resolve, { pointer: '/body' })
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

const pointer = (path: string[]) => `/${path.map(segment).join('/')}`

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
    // A content coding the body is not in (and that no reader here decodes): validation,
    // xssSanitize and ssrfGuard answer 415, which must be documented.
    kind: 'Content-Encoding: gzip on a plain body',
    apply: (d) => ({ ...d, headers: { ...d.headers, 'content-encoding': 'gzip' } }),
  },
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

export function nearMiss(
  fc: FC,
  plan: Plan,
  resolve: Resolve,
  valid: Arbitrary<Draft>,
): Arbitrary<Draft> {
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
  return filterOrGiveUp(
    fc,
    fc.oneof(...mutations),
    (d) => Object.values(d.params).every(reachable),
    '/path',
    'near miss with reachable path segments',
  )
}

const reachable = (v: unknown) => !['', '.', '..'].includes(scalar(v))

const scalar = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))

export function encode(
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
