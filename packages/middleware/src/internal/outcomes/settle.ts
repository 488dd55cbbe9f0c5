import { HTTPException } from 'hono/http-exception'
import { type DecisionRecord, decide, type Pending } from './decisions'
import { codeForStatus } from './rejection'

/**
 * For consumers, once the chain returned: a decision still open when the chain ended in an error
 * was made by the middleware that threw it (middleware close their decision before calling
 * next(), so only the thrower is still open). This is where rejections thrown with a plain
 * `reject()` are recorded, with the code and status of the error. Open decisions of a chain that
 * ended well allowed.
 */
export function settle(record: DecisionRecord, error: unknown): void {
  const pending = record.pending
  for (let i = pending.length - 1; i >= 0; i--) {
    const p = pending[i] as Pending
    if (p.end !== 0) continue
    if (error === undefined) {
      decide(p, 'allow')
      continue
    }
    const status = error instanceof HTTPException ? error.status : 500
    // Duck-typed: every subpath build has its own copy of the Rejection class.
    const own = (error as { code?: unknown } | null)?.code
    const code =
      error instanceof HTTPException && typeof own === 'string' ? own : codeForStatus(status)
    decide(p, 'reject', code, status)
    error = undefined
  }
}
