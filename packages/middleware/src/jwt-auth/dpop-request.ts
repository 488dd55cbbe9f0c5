import type { Context } from 'hono'
import { setResponseHeader } from '../internal/http/headers'
import { type begin, clock, storeTime } from '../internal/outcomes/decisions'
import { storeFor } from '../internal/stores/store-binding'
import { reject } from './answers'
import type { TokenScheme } from './bearer'
import type { JwtAuthConfig } from './config'
import { ProofVerifier } from './dpop'
import type { DpopConfig } from './dpop-config'
import type { JWTPayload } from './payload'

/**
 * What `c.get('dpop')` holds after `jwtAuth` accepted a DPoP-bound token with its proof: the
 * proof key's RFC 7638 thumbprint (the token's `cnf.jkt`).
 *
 * @example
 * app.get('/mcp', (c) => c.json({ key: c.get('dpop').jkt }))
 */
export interface VerifiedDpop {
  jkt: string
}

/** The WWW-Authenticate challenges of one jwtAuth: Bearer (RFC 6750) and DPoP (RFC 9449 §7.1). */
export interface Challenges {
  bearer: string
  /** `undefined` without the `dpop` option. */
  dpop: string | undefined
  /** For a request with no token: every scheme the middleware accepts. */
  missing: string
}

/** The challenges of `config`: DPoP's names the accepted proof algorithms (`algs`). */
export function challengesOf(config: JwtAuthConfig): Challenges {
  const bearer = `Bearer realm="${config.realm}"`
  const options = config.dpop
  if (options === undefined) return { bearer, dpop: undefined, missing: bearer }
  const dpop = `DPoP realm="${config.realm}", algs="${options.algorithms.join(' ')}"`
  return { bearer, dpop, missing: options.mode === 'required' ? dpop : `${bearer}, ${dpop}` }
}

/** A refusal in the DPoP scheme: `error` (and a description) added to the DPoP challenge. */
type DpopRefusal = (
  error: 'invalid_token' | 'invalid_dpop_proof' | 'use_dpop_nonce',
  description: string,
  headers?: Record<string, string>,
) => never

/**
 * The DPoP part of jwtAuth's request path, after the token verified: a Bearer token (or one
 * from the cookie) must not be bound to a key (a downgrade); a DPoP token needs exactly one
 * valid proof for this request and token, from the key the token is bound to (`cnf.jkt`), the
 * server nonce when one is required, and a `jti` not seen before. Returns a function to run
 * after the handler (the fresh nonce for a client that used the previous one), or `undefined`.
 */
export function dpopGate(config: JwtAuthConfig, dpop: DpopConfig, challenge: string) {
  const proofs = new ProofVerifier(dpop)
  const refuse: DpopRefusal = (error, description, headers = {}) => {
    const all = {
      ...headers,
      'WWW-Authenticate': `${challenge}, error="${error}", error_description="${description}"`,
    }
    if (error === 'use_dpop_nonce') reject(401, description, 'use_dpop_nonce', all)
    if (error === 'invalid_dpop_proof') reject(401, description, 'invalid_dpop_proof', all)
    reject(401, description, 'token_invalid', all)
  }
  return async function dpopCheck(
    c: Context,
    d: ReturnType<typeof begin>,
    token: string,
    scheme: TokenScheme,
    payload: JWTPayload,
  ): Promise<(() => void) | undefined> {
    const cnf = payload.cnf as { jkt?: unknown } | undefined
    const bound = typeof cnf === 'object' && cnf !== null ? cnf.jkt : undefined
    if (scheme === 'bearer') {
      // RFC 9449 §7.2: a resource that takes both schemes must refuse a bound token as Bearer.
      if (bound !== undefined) refuse('invalid_token', 'A DPoP-bound token must be sent as DPoP')
      return undefined
    }
    const header = c.req.header('dpop')
    // Headers joins repeated fields with ", ": a proof (a compact JWS) has neither character.
    if (header === undefined || header === '' || /[,\s]/.test(header)) {
      refuse('invalid_dpop_proof', 'Exactly one DPoP proof header is required')
    }
    const now = Date.now()
    const proof = await proofs.verify(header, {
      method: c.req.method,
      url: dpop.url === undefined ? c.req.url : dpop.url(c),
      token,
      now,
      tolerance: config.tolerance,
    })
    if (proof === null) refuse('invalid_dpop_proof', 'Invalid DPoP proof')
    // The nonce to send after the handler: the current one, to a client that used the previous.
    let next: string | undefined
    if (dpop.nonce !== undefined) {
      const current = await dpop.nonce.current(now)
      if (proof.nonce === undefined || !(await dpop.nonce.valid(proof.nonce, now))) {
        refuse('use_dpop_nonce', 'Resource server requires nonce in DPoP proof', {
          'DPoP-Nonce': current,
        })
      }
      if (proof.nonce !== current) next = current
    }
    if (bound !== proof.jkt) refuse('invalid_token', 'Invalid DPoP key binding')
    let fresh: boolean
    const t = clock(d)
    try {
      fresh = await storeFor(dpop.nonceStore, c).claim(
        `dpop:${proof.jkt}:${proof.jti}`,
        proofs.replayWindowMs(proof, now, config.tolerance),
      )
    } catch {
      reject(503, 'Service Unavailable', 'store_unavailable')
    }
    storeTime(d, 'claim', t)
    if (!fresh) refuse('invalid_dpop_proof', 'DPoP proof replayed')
    c.set('dpop', { jkt: proof.jkt })
    if (next === undefined) return undefined
    const nonce = next
    return () => setResponseHeader(c, 'DPoP-Nonce', nonce)
  }
}
