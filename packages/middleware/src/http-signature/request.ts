import type { Context, MiddlewareHandler } from 'hono'
import { mayHaveBody } from '../internal/http/body'
import { readBodyBytes } from '../internal/http/json-body'
import { begin, clock, decide, storeTime } from '../internal/outcomes/decisions'
import { storeFor } from '../internal/stores/store-binding'
import { verifyBytes } from './algorithms'
import { reject } from './answers'
import { ComponentError, componentId, signatureBase } from './components'
import type { HttpSignatureConfig } from './config'
import { checkContentDigest } from './digest'
import { type ParsedSignature, parseSignatures, SignatureSyntaxError } from './parse'

/**
 * What `c.get('signature')` holds after `httpSignature` accepted a request: the verified
 * signature's key id, algorithm (the key's), `created` (seconds), label and tag.
 *
 * @example
 * app.get('/orders', (c) => c.json({ partner: c.get('signature').keyid }))
 */
export interface VerifiedSignature {
  keyid: string
  alg: string
  created: number
  label: string
  tag: string | undefined
}

const encoder = new TextEncoder()
/** Longest keyid and nonce accepted. */
const MAX_PARAM_LENGTH = 200

/**
 * The request path of one `httpSignature`: find the signature the policy selects, check its
 * parameters and coverage, read the body, verify with the key the keyid names, then the
 * Content-Digest against the body, then the nonce.
 */
export function httpSignatureHandler(config: HttpSignatureConfig): MiddlewareHandler {
  const invalidHeaders = { 'Accept-Signature': config.acceptSignature }
  function invalid(): never {
    reject(
      401,
      `Invalid HTTP message signature. ${config.guidance}`,
      'signature_invalid',
      invalidHeaders,
    )
  }
  function missing(): never {
    reject(
      401,
      `Missing HTTP message signature. ${config.guidance}`,
      'signature_missing',
      invalidHeaders,
    )
  }

  return async function httpSignature(c, next) {
    const d = begin(c, 'httpSignature')
    const input = c.req.header('signature-input')
    const sigField = c.req.header('signature')
    if (input === undefined && sigField === undefined) missing()
    if (input === undefined || sigField === undefined) invalid()
    let signatures: ParsedSignature[]
    try {
      signatures = parseSignatures(input, sigField)
    } catch (err) {
      if (err instanceof SignatureSyntaxError) invalid()
      throw err
    }
    const chosen = signatures.find(
      (s) =>
        (config.label === undefined || s.label === config.label) &&
        (config.tag === undefined || s.tag === config.tag),
    )
    if (chosen === undefined) missing()
    const now = Date.now()
    const lifetime = checkParameters(config, chosen, now)
    if (lifetime === undefined) invalid()

    const body = mayHaveBody(c) ? await readBodyBytes(c) : new Uint8Array(0)
    if (body === null) invalid()
    const covered = new Set(chosen.input[0].map((component) => componentId(component)))
    if (!coversPolicy(config, covered, body.length > 0)) invalid()

    let base: string
    try {
      base = signatureBase(
        { method: c.req.method, url: new URL(c.req.url), headers: c.req.raw.headers },
        chosen.input,
      )
    } catch (err) {
      if (err instanceof ComponentError) invalid()
      throw err
    }
    const resolved = await resolveKey(config, chosen.keyid as string, c, d)
    if (resolved === undefined || !config.algorithms.has(resolved.alg)) invalid()
    if (chosen.alg !== undefined && chosen.alg !== resolved.alg) invalid()
    const ok = await verifyBytes(resolved.alg, resolved.key, chosen.signature, encoder.encode(base))
    if (!ok) invalid()

    const digest = c.req.header('content-digest')
    if (digest !== undefined) {
      const check = await checkContentDigest(digest, body)
      if (check !== 'match') {
        const why =
          check === 'mismatch'
            ? 'The body does not match its Content-Digest'
            : 'Content-Digest must hold sha-256 or sha-512 of the body (RFC 9530)'
        reject(400, why, 'digest_mismatch')
      }
    }
    if (config.nonce !== undefined) {
      let fresh = false
      try {
        fresh = await claimNonce(config, chosen, lifetime, c, d)
      } catch {
        reject(503, 'Nonce store unavailable', 'store_unavailable')
      }
      if (!fresh) invalid()
    }
    c.set('signature', {
      keyid: chosen.keyid as string,
      alg: resolved.alg,
      created: chosen.created as number,
      label: chosen.label,
      tag: chosen.tag,
    })
    decide(d, 'allow')
    await next()
  }
}

/** Claims the signature's nonce (per keyid) for `lifetime` ms; throws what the store throws. */
async function claimNonce(
  config: HttpSignatureConfig,
  s: ParsedSignature,
  lifetime: number,
  c: Context,
  d: ReturnType<typeof begin>,
): Promise<boolean> {
  const store = config.nonce as NonNullable<HttpSignatureConfig['nonce']>
  const t = clock(d)
  const fresh = await storeFor(store, c).claim(
    `httpsig:${s.keyid?.length}:${s.keyid}:${s.nonce}`,
    lifetime,
  )
  storeTime(d, 'claim', t)
  return fresh
}

/**
 * The parameters the policy needs: keyid, created within `maxAgeMs` (and not ahead of the clock
 * past the skew), expires not passed, a nonce when replays are checked. Returns how long the
 * signature stays acceptable (ms, what the nonce is held for), or `undefined` when it is not.
 */
function checkParameters(
  config: HttpSignatureConfig,
  s: ParsedSignature,
  now: number,
): number | undefined {
  const { keyid, created, expires, nonce } = s
  if (keyid === undefined || keyid === '' || keyid.length > MAX_PARAM_LENGTH) return undefined
  if (created === undefined) return undefined
  const createdMs = created * 1000
  if (createdMs > now + config.skewMs) return undefined
  let until = createdMs + config.maxAgeMs + config.skewMs
  if (expires !== undefined) {
    if (expires < created) return undefined
    until = Math.min(until, expires * 1000 + config.skewMs)
  }
  if (until <= now) return undefined
  if (
    config.nonce !== undefined &&
    (nonce === undefined || nonce === '' || nonce.length > MAX_PARAM_LENGTH)
  ) {
    return undefined
  }
  // Held a little past the window, so a replay at its very edge still meets the record.
  return Math.ceil(until - now) + config.skewMs + 1_000
}

/** Whether the covered components satisfy the policy (and content-digest, with a body). */
function coversPolicy(
  config: HttpSignatureConfig,
  covered: ReadonlySet<string>,
  body: boolean,
): boolean {
  if (body && !covered.has('"content-digest"')) return false
  return config.required.every((alternatives) =>
    alternatives.some((all) => all.every((id) => covered.has(id))),
  )
}

/** The key of `keyid`; a JWKS that cannot be fetched answers 503 (the cause to the decision). */
async function resolveKey(
  config: HttpSignatureConfig,
  keyid: string,
  c: Context,
  d: ReturnType<typeof begin>,
) {
  try {
    return await config.keys.resolve(keyid, c)
  } catch (err) {
    if ((err as Error)?.name !== 'JwksUnavailableError') throw err
    decide(d, 'reject', 'jwks_unavailable', 503)
    if (d !== undefined) d.decision.cause = (err as Error).message
    reject(503, 'Service Unavailable', 'jwks_unavailable', { 'Retry-After': '30' })
  }
}
