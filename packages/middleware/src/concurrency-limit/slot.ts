import type { Context } from 'hono'
import { lightResponseParts, nodeOutgoing } from '../internal/http/node-server'
import { unrefInterval } from '../internal/stores/timers'
import type { ConcurrencyStore } from './store'

type Get = (key: string) => unknown

/** What a held slot needs of its limiter. */
export interface SlotKeeper {
  /** How long a lease lasts without renewal, in milliseconds. */
  readonly leaseMs: number
  /** How often the lease is renewed while the slot is held. */
  readonly renewMs: number
  /** `release: 'handler'`: the slot does not watch the abort and deadline before `watch()`. */
  readonly untilHandlerEnds: boolean
  /** Calls a store method; a failure is reported, never thrown. */
  attempt<T>(c: Context, call: () => Promise<T>): Promise<T | undefined>
}

/**
 * Holds the slot of one admitted request until the first of: `free()` (the chain threw, or the
 * response body ended or was cancelled), and, once `watch()` is called, the client's abort or
 * an enclosing requestTimeout's deadline. Renews the lease every `leaseMs / 2` meanwhile.
 *
 * On @hono/node-server the client's abort is node:http's `close` of the response before it
 * finished (node-server aborts `c.req.raw.signal` from that very event), and `close` after it
 * finished is the answer sent in full: one listener on `c.env.outgoing` covers both, and the
 * signal is left alone (reading it builds an AbortController and two listeners cost about
 * 5 µs a request there, issue 42).
 */
export function holdSlot(
  c: Context,
  s: ConcurrencyStore,
  key: string,
  lease: string,
  keeper: SlotKeeper,
): Slot {
  const outgoing = nodeOutgoing(c)
  const signal = outgoing === undefined ? c.req.raw.signal : undefined
  // Set by an enclosing requestTimeout (aborted when it answers 408); undefined otherwise.
  const deadline = (c.get as Get)('timeoutSignal') as AbortSignal | undefined
  let renewing = false
  let watching = false
  const slot: Slot = {
    held: true,
    // Ticks since the body was handed on without being read (-1: not waiting for a first read).
    unread: -1,
    onClose: false,
    free() {
      if (!slot.held) return
      slot.held = false
      stopRenewing()
      signal?.removeEventListener('abort', slot.free)
      deadline?.removeEventListener('abort', slot.free)
      slot.stop?.()
      void keeper.attempt(c, () => s.release(key, lease))
    },
    watch() {
      if (watching) return
      watching = true
      deadline?.addEventListener('abort', slot.free)
      if (outgoing !== undefined) {
        slot.onClose = true
        if (outgoing.closed === true || outgoing.destroyed === true) slot.free()
        else outgoing.once('close', slot.free)
      } else signal?.addEventListener('abort', slot.free)
      if (signal?.aborted || deadline?.aborted) slot.free()
    },
  }
  const stopRenewing = unrefInterval(() => {
    // A body nobody started reading within a lease (an outer middleware replaced the
    // response, a server that drops HEAD bodies) will never end: its slot goes back.
    if (slot.unread >= 0 && ++slot.unread >= 2) return slot.free()
    if (renewing || !slot.held) return
    renewing = true
    void keeper
      .attempt(c, () => s.renew(key, lease, keeper.leaseMs))
      .then(() => {
        renewing = false
      })
  }, keeper.renewMs)
  if (!keeper.untilHandlerEnds) slot.watch()
  return slot
}

/** One admitted request's slot. */
export interface Slot {
  held: boolean
  unread: number
  /** Freed on node:http's `close` of the response (set by `watch()` on @hono/node-server). */
  onClose: boolean
  free(): void
  /** Frees the slot on the client's abort and the requestTimeout deadline from now on. */
  watch(): void
  /** Called once when the slot is freed (stops the reading of a HEAD request's body). */
  stop?: () => void
}

/**
 * Frees the slot now when the handler's work is over with the chain (it threw: the error page is
 * not the handler's work) or the response has no body to send (none, a 1xx upgrade), or else
 * once its body has been read to the end, failed or been cancelled: a streamed body (SSE, an LLM
 * answer) holds its slot until its last chunk is out.
 */
export function releaseWithBody(c: Context, slot: Slot): void {
  if (!slot.held || c.error !== undefined) {
    slot.free()
    return
  }
  const res = c.res
  if (res.status >= 200 && writtenInOneGo(res, slot)) return
  const body = res.body
  if (body === null || body.locked || res.status < 200) {
    slot.free()
    return
  }
  if (c.req.method === 'HEAD') {
    drainHead(body, slot)
    return
  }
  const reader = body.getReader()
  slot.unread = 0
  const wrapped = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        slot.unread = -1
        try {
          const { done, value } = await reader.read()
          if (done) {
            controller.close()
            slot.free()
          } else controller.enqueue(value)
        } catch (error) {
          slot.free()
          controller.error(error)
        }
      },
      cancel(reason) {
        slot.free()
        return reader.cancel(reason)
      },
    },
    // Nothing is read ahead: the first pull is the server's first read.
    { highWaterMark: 0 },
  )
  c.res = new Response(wrapped, res)
}

/**
 * @hono/node-server's fast path (issue 42): a lightweight response whose body is a string, bytes
 * or nothing is written to the socket in one call once the chain returns, and reading
 * `res.body` here would turn it into an undici Response with a stream that the server then reads
 * chunk by chunk (the wrapper below cost +22 µs a request over rateLimit). Instead the slot is
 * freed on node:http's `close` of that response: when the answer has been sent in full, or the
 * connection ended first (the listener `watch()` added). Whatever the answer finally is (an outer
 * middleware may replace it), the slot is held until it is out. False anywhere else (the caller
 * takes the standard way); the body is read from the response's own cache entry (node-server.ts,
 * switched off with the borrowed internals).
 */
function writtenInOneGo(res: Response, slot: Slot): boolean {
  if (!slot.onClose) return false
  const body = lightResponseParts(res)?.body
  return body === null || typeof body === 'string' || body instanceof Uint8Array
}

/**
 * Hono answers HEAD by running the GET handler and dropping its body, neither read nor
 * cancelled, so a streaming handler keeps working (and without this, 5 HEAD requests ran 5
 * streams under `max: 1`). The body is read here, to nobody, and the slot held until it ends, as
 * a GET's would be; a plain body ends at once. If the slot is freed first (client abort,
 * requestTimeout), the reading stops and the body is cancelled, which tells the stream to end.
 */
function drainHead(body: ReadableStream<Uint8Array>, slot: Slot): void {
  const reader = body.getReader()
  slot.stop = () => {
    reader.cancel().catch(() => {})
  }
  void (async () => {
    try {
      while (slot.held && !(await reader.read()).done) {}
    } catch {
      // A failing body ends the work as well.
    } finally {
      slot.free()
    }
  })()
}
