import type { Context } from 'hono'
import { joinChunks } from '../internal/http/chunks'
import type { Pending } from '../internal/outcomes/decisions'
import type { IdempotencyStore, IdempotentResponse } from './store'

/** What settling one first request needs of its middleware. */
export interface Keeper {
  readonly ttlMs: number
  readonly maxBodyBytes: number
  readonly replayHeaders: readonly string[]
  /** Calls a store method; a failure is reported, never thrown (undefined then). */
  attempt<T>(c: Context, call: () => Promise<T>): Promise<T | undefined>
}

/** One first request's hold on its key. */
export interface Held {
  readonly c: Context
  readonly store: IdempotencyStore
  readonly key: string
  readonly lease: string
  readonly d: Pending | undefined
}

/** Notes on the decision why a response was not stored (logger and otel show it; never sent). */
function note(h: Held, cause: string): void {
  if (h.d !== undefined) h.d.decision.cause = cause
}

/** Frees the key so a retry runs again. */
export async function release(h: Held, k: Keeper, cause: string): Promise<void> {
  note(h, cause)
  await k.attempt(h.c, () => h.store.release(h.key, h.lease))
}

/** The replayed headers of `res`, lower-case names, in `replayHeaders` order. */
function keptHeaders(res: Response, names: readonly string[]): [string, string][] {
  const kept: [string, string][] = []
  for (const name of names) {
    if (name === 'set-cookie') {
      for (const v of res.headers.getSetCookie()) kept.push([name, v])
      continue
    }
    const value = res.headers.get(name)
    if (value !== null) kept.push([name, value])
  }
  return kept
}

/** Stores the answer; a lease lost meanwhile (the lock expired and was taken) is noted. */
async function store(h: Held, k: Keeper, res: Response, body: Uint8Array): Promise<void> {
  const response: IdempotentResponse = {
    status: res.status,
    headers: keptHeaders(res, k.replayHeaders),
    body,
  }
  const stored = await k.attempt(h.c, () => h.store.complete(h.key, h.lease, response, k.ttlMs))
  if (stored === false) note(h, 'not stored: the lock expired (lockMs) before the answer ended')
  // The store refused or failed: free the key now rather than after lockMs (it may be down too).
  else if (stored === undefined) await release(h, k, 'not stored: the store failed to keep it')
}

/**
 * Settles a first request after the chain: a thrown handler or a 5xx releases the key (the
 * client may retry); any other answer is stored once its body has been read to the end, before
 * the end is handed on, so a client that has the whole answer and retries gets the replay. The
 * body passes through as it comes (a stream keeps streaming, holding the lock until it ends); a
 * body over `maxBodyBytes` is sent whole but not stored, and the key is released. A body that
 * fails or is cancelled (client gone) releases the key.
 */
export async function settle(h: Held, k: Keeper): Promise<void> {
  const { c } = h
  const res = c.res
  if (c.error !== undefined) return release(h, k, 'not stored: the handler threw')
  if (res.status >= 500) return release(h, k, `not stored: ${res.status} answer`)
  if (res.status < 200) return release(h, k, `not stored: ${res.status} answer`)
  const body = res.body
  if (body === null) return store(h, k, res, new Uint8Array(0))
  if (body.locked) return release(h, k, 'not stored: the body was already being read')
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  let tooLarge = false
  const wrapped = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let read: ReadableStreamReadResult<Uint8Array>
        try {
          read = await reader.read()
        } catch (error) {
          await release(h, k, 'not stored: the body failed')
          controller.error(error)
          return
        }
        if (read.done) {
          if (tooLarge)
            await release(h, k, `not stored: body over maxBodyBytes (${k.maxBodyBytes})`)
          else await store(h, k, res, joinChunks(chunks, size))
          controller.close()
          return
        }
        const chunk = read.value
        if (!tooLarge) {
          size += chunk.length
          if (size > k.maxBodyBytes) {
            tooLarge = true
            chunks.length = 0
          } else chunks.push(chunk.slice())
        }
        controller.enqueue(chunk)
      },
      async cancel(reason) {
        await release(h, k, 'not stored: the client went away before the body ended')
        await reader.cancel(reason)
      },
    },
    { highWaterMark: 0 },
  )
  c.res = new Response(wrapped, res)
}

/**
 * The stored answer, as a new response marked `Idempotent-Replayed: true`. The headers reach
 * `Response` as a record, as Hono's `c.json()` passes them (no `Headers` object built, then copied
 * by `Response`); a name stored twice (several `set-cookie`) is appended, which a record cannot
 * do.
 */
export function replay(response: IdempotentResponse): Response {
  const { status, body } = response
  const empty = status === 204 || status === 205 || status === 304 || body.length === 0
  const payload = empty ? null : (body as Uint8Array<ArrayBuffer>)
  return new Response(payload, { status, headers: replayedHeaders(response.headers) })
}

const REPLAYED = 'idempotent-replayed'

function replayedHeaders(pairs: readonly [string, string][]): HeadersInit {
  // No prototype, so `constructor` is an ordinary key; `__proto__` goes through Headers, as
  // undici's record conversion drops it.
  const record: Record<string, string> = Object.create(null)
  for (const [name, value] of pairs) {
    if (record[name] !== undefined || name === '__proto__') {
      const headers = new Headers()
      for (const [n, v] of pairs) headers.append(n, v)
      headers.set(REPLAYED, 'true')
      return headers
    }
    record[name] = value
  }
  record[REPLAYED] = 'true'
  return record
}
