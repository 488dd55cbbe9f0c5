import type { MiddlewareHandler } from 'hono'
import {
  CLIENT_IP_PLATFORMS,
  type ClientIpPlatform,
  declarePlatform,
  getClientIP,
} from '../internal/network/client-ip'
import { parseIP } from '../internal/network/ip'
import { assertKnownKeys, assertOneOf, optionError } from '../internal/options'

export type { ClientIpPlatform }

/**
 * Options of {@link clientIp}.
 *
 * @example
 * const options: ClientIpOptions = { platform: 'vercel' }
 * app.use('*', clientIp(options))
 */
export interface ClientIpOptions {
  /**
   * The platform the app is deployed on. From then on, for every request this middleware saw,
   * the client address (here, in `ipGuard` and in `rateLimit`'s default key) comes only from that
   * platform's documented source:
   * - `'vercel'`: the `x-real-ip` header, which Vercel's edge overwrites;
   * - `'aws-lambda'`: `requestContext.identity.sourceIp` (API Gateway REST) or
   *   `requestContext.http.sourceIp` (HTTP API, Function URLs); behind an ALB, the right-most
   *   `X-Forwarded-For` entry, which the ALB appends;
   * - `'netlify'`: `context.ip` passed by `hono/netlify`, else `x-nf-client-connection-ip`;
   * - `'cloudflare'`: `cf-connecting-ip`, only on requests that carry Cloudflare's `cf` object.
   * Required: declaring a platform is a promise that every request really comes through it.
   */
  platform: ClientIpPlatform
}

/**
 * Declares the platform the app runs on, so the client address is read from the source that
 * platform documents rather than guessed. Register it before `ipGuard` and `rateLimit`. It also
 * puts the address in the context: `c.get('clientIp')` (`undefined` when there is none or it does
 * not parse).
 *
 * Without this middleware the shared rule still never trusts a header the client can set where
 * the runtime knows better: the socket on Node, Bun and Deno; `cf-connecting-ip` only on
 * Cloudflare; the event's source IP on AWS Lambda; `context.ip` on Netlify; and otherwise only
 * the right-most `X-Forwarded-For` entry. On Vercel that fallback is right (Vercel overwrites
 * `X-Forwarded-For`); declaring `'vercel'` reads `x-real-ip`, which stays right when another
 * proxy sits in front of Vercel.
 *
 * @param options.platform required: `'vercel'`, `'aws-lambda'`, `'netlify'` or `'cloudflare'`.
 * @example
 * ```ts
 * import { handle } from 'hono/vercel'
 * const app = new Hono()
 * app.use('*', clientIp({ platform: 'vercel' }))
 * app.use('/admin/*', ipGuard({ mode: 'allow', list: ['203.0.113.0/24'] }))
 * app.use('/api/*', rateLimit({ max: 100 }))
 * export default handle(app)
 * ```
 */
export function clientIp(options: ClientIpOptions): MiddlewareHandler {
  const NAME = 'clientIp'
  if (options === undefined || options === null) {
    throw optionError(NAME, `"platform" is required (${CLIENT_IP_PLATFORMS.join(', ')})`)
  }
  assertKnownKeys(NAME, options, ['platform'])
  if (options.platform === undefined) {
    throw optionError(NAME, `"platform" is required (${CLIENT_IP_PLATFORMS.join(', ')})`)
  }
  const platform = assertOneOf(NAME, 'platform', options.platform, CLIENT_IP_PLATFORMS)

  return async function clientIp(c, next) {
    declarePlatform(c, platform)
    const raw = getClientIP(c)
    c.set('clientIp', raw !== undefined && parseIP(raw) !== null ? raw : undefined)
    await next()
  }
}
