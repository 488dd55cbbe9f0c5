import { describe, expect, it, vi } from 'vitest'
import { checkUrl } from './index'

// The platform resolver, replaced by a fake `node:dns/promises` so no lookup leaves the machine.
const lookup = vi.fn(async (hostname: string, _options: unknown) => {
  const answers: Record<string, { address: string; family: number }[]> = {
    'public.example': [
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ],
    'v6-private.example': [
      { address: '93.184.215.14', family: 4 },
      { address: 'fd00::1', family: 6 },
    ],
  }
  const found = answers[hostname]
  if (!found)
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
  return found
})
vi.mock('node:dns/promises', () => ({ lookup }))

describe('checkUrl with the platform resolver', () => {
  it('asks for every A and AAAA answer the HTTP client could connect to', async () => {
    const verdict = await checkUrl('https://public.example/')
    expect(verdict).toMatchObject({
      ok: true,
      addresses: ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    })
    expect(lookup).toHaveBeenCalledWith('public.example', { all: true, verbatim: true })
  })

  it('blocks when the AAAA answer alone is private', async () => {
    expect(await checkUrl('https://v6-private.example/')).toEqual({
      ok: false,
      status: 403,
      reason: 'blocked-address',
    })
  })

  it('blocks when the lookup fails', async () => {
    expect(await checkUrl('https://nxdomain.example/')).toEqual({
      ok: false,
      status: 403,
      reason: 'dns-failure',
    })
  })
})
