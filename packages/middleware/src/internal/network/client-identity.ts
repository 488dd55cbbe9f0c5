import type { Context } from 'hono'
import { clientIpKey } from './client-ip-key'

/**
 * Who is calling, for what is counted or kept per client (quota, idempotency): the API key's id
 * (`apiKey()` ran before and set `c.get('apiKey')`), else the JWT subject (`jwtAuth()` set
 * `c.get('jwtPayload').sub`), else the client IP as rateLimit keys it. Each kind has its own
 * prefix, so an API key id can never name an address's count. `ipv6Subnet` is clientIpKey's: quota
 * counts an IPv6 client by its /56 (one household, one count), idempotency keeps each address's
 * records apart (`false`).
 *
 * @example
 * clientIdentity(c) // 'key:k_2x9…', 'sub:user-42' or 'ip:203.0.113.7'
 */
export function clientIdentity(c: Context, ipv6Subnet: number | false = 56): string {
  const get = c.get as (key: string) => unknown
  const apiKey = get('apiKey') as { id?: unknown } | undefined
  if (typeof apiKey?.id === 'string' && apiKey.id !== '') return `key:${apiKey.id}`
  const payload = get('jwtPayload') as { sub?: unknown } | undefined
  if (typeof payload?.sub === 'string' && payload.sub !== '') return `sub:${payload.sub}`
  return `ip:${clientIpKey(c, ipv6Subnet)}`
}
