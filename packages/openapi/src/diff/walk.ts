// Reading two documents side by side: nodes with their JSON pointers, `$ref`s followed (local
// ones; a chain that loops ends in an empty schema), and the change list being written.
import { type ChangeLevel, levelOf } from './rules'

/** A value of a document and where it is (RFC 6901 JSON pointer). */
export interface Node {
  value: unknown
  ptr: string
}

/** One classified change. */
export interface Change {
  /** The rule's stable id (oasdiff's where the two overlap). */
  id: string
  level: ChangeLevel
  /** `GET /users/{id}`, or undefined for a document-wide change (servers). */
  operation?: string
  message: string
  /** Where the change is in the old document (JSON pointer), when the old document has it. */
  old?: string
  /** Where it is in the new document. */
  new?: string
  /** Set when a breaking change is allowed: by the `allow` option or an `x-palisade-breaking-ok` note. */
  allowed?: 'option' | 'note'
}

export type Record_ = Record<string, unknown>

export const isObject = (value: unknown): value is Record_ =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/** An own property (never one from Object.prototype, whatever the key). */
export function own(value: unknown, key: string): unknown {
  return isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined
}

/** Own keys of an object (none for anything else). */
export const keys = (value: unknown): string[] => (isObject(value) ? Object.keys(value) : [])

export const escapeKey = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1')

/** The child `key` of a node. */
export function child(node: Node, key: string | number): Node {
  const k = String(key)
  const value = Array.isArray(node.value) ? node.value[Number(k)] : own(node.value, k)
  return { value, ptr: `${node.ptr}/${escapeKey(k)}` }
}

function lookup(doc: unknown, pointer: string): Node | undefined {
  if (pointer === '') return { value: doc, ptr: '' }
  if (!pointer.startsWith('/')) return undefined
  let node: Node = { value: doc, ptr: '' }
  for (const raw of pointer.slice(1).split('/')) {
    let part: string
    try {
      part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
    } catch {
      return undefined
    }
    node = child(node, part)
    if (node.value === undefined) return undefined
  }
  return node
}

const MAX_HOPS = 32

/**
 * The node with its `$ref` followed (a local `#/…` one; the target's pointer is the one reported).
 * An external `$ref` or one that leads nowhere is left as is; a chain that loops ends in `{}`.
 */
export function deref(doc: unknown, node: Node): Node {
  let current = node
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const ref = own(current.value, '$ref')
    if (typeof ref !== 'string' || !ref.startsWith('#')) return current
    const target = lookup(doc, ref.slice(1))
    if (target === undefined) return current
    current = target
  }
  return { value: {}, ptr: current.ptr }
}

export interface Side {
  doc: unknown
  /** Facets of the schemas read so far, by the pointer they were reached at (see schema.ts). */
  facets: Map<string, unknown>
}

/** What a comparison needs: both documents, the operation in hand and the change list. */
export interface Context {
  old: Side
  new: Side
  operation?: string
  out: Change[]
  strictEnums: boolean
  /** Schema pairs compared for the operation in hand (reset per operation). */
  seen: Set<string>
}

/** Adds a change of rule `id` (its level from the rule table). */
export function report(
  ctx: Context,
  id: string,
  message: string,
  oldNode: Node | undefined,
  newNode: Node | undefined,
): void {
  let level = levelOf(id)
  if (ctx.strictEnums && id.startsWith('response') && id.endsWith('-enum-value-added'))
    level = 'breaking'
  const change: Change = { id, level, message }
  if (ctx.operation !== undefined) change.operation = ctx.operation
  if (oldNode !== undefined && oldNode.value !== undefined) change.old = oldNode.ptr
  if (newNode !== undefined && newNode.value !== undefined) change.new = newNode.ptr
  ctx.out.push(change)
}

/** A short JSON rendering of a value for a message. */
export function show(value: unknown): string {
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    text = String(value)
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}
