// Retries of operations that declare the `Idempotency-Key` header (draft-ietf-httpapi-idempotency-
// key-header; `idempotency()` of @palisade/middleware documents it): each request gets a fresh key,
// is sent again with the same key, and a replayed answer must be the first one, byte for byte.
import type { Plan } from './requests'
import type { FuzzRequest } from './types'

const HEADER = 'idempotency-key'

/** Whether the operation declares the `Idempotency-Key` request header. */
export function declaresIdempotencyKey(plan: Plan): boolean {
  return plan.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === HEADER)
}

/**
 * Gives `request` a fresh, valid key (a Structured Fields string), so no two generated requests
 * share one; a near miss aimed at the header itself keeps what it was given. Returns whether the
 * request now carries a key to retry with.
 */
export function freshKey(request: FuzzRequest, seed: number, n: number): boolean {
  if (request.kind.toLowerCase().includes(`/header/${HEADER}`)) return false
  request.headers[HEADER] = `"palisade-fuzz-${seed}-${n}"`
  return true
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * Judges a retry with the first request's key: a replayed answer (`Idempotent-Replayed: true`)
 * must have the first answer's status and body bytes; a first 2xx answer must be replayed, not
 * answered by a second run of the handler (unless the retry was refused: 409 while it still
 * runs, 429 or 503 for capacity).
 */
export function judgeRetry(
  first: { status: number; body: Uint8Array },
  retry: { status: number; replayed: boolean; body: Uint8Array },
): string | undefined {
  if (retry.replayed) {
    if (retry.status !== first.status) {
      return `idempotent retry replayed status ${retry.status}, the first answer was ${first.status}`
    }
    if (!same(retry.body, first.body)) {
      return `idempotent retry replayed a body that differs from the first answer (${retry.body.length} bytes, first ${first.body.length})`
    }
    return undefined
  }
  if (first.status >= 200 && first.status < 300 && retry.status >= 200 && retry.status < 300) {
    return 'idempotent retry was not replayed: the handler ran again (no Idempotent-Replayed: true)'
  }
  return undefined
}
