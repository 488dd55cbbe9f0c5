import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseIP } from '../internal/network/ip'
import { CRAWLERS, type Crawler } from './crawlers'
import { type BotResolver, createVerifier, type Verdict, type VerifierSettings } from './verify'

const GOOGLEBOT = CRAWLERS.find((c) => c.name === 'Googlebot') as Crawler
const BINGBOT = CRAWLERS.find((c) => c.name === 'Bingbot') as Crawler
const A = '66.249.66.1'
const B = '66.249.66.2'

/** A zone whose PTR answers can change between calls, with a log of the questions. */
function zone() {
  const asked: string[] = []
  const ptr = new Map<string, string[]>([
    [A, ['crawl-66-249-66-1.googlebot.com']],
    [B, ['crawl-66-249-66-2.googlebot.com']],
  ])
  const forward = new Map<string, string[]>([
    ['crawl-66-249-66-1.googlebot.com', [A]],
    ['crawl-66-249-66-2.googlebot.com', [B]],
  ])
  const resolver: BotResolver = {
    async reverse(ip) {
      asked.push(`PTR ${ip}`)
      const names = ptr.get(ip)
      if (names) return names
      throw Object.assign(new Error(`queryPtr ENOTFOUND ${ip}`), { code: 'ENOTFOUND' })
    },
    async lookup(name) {
      asked.push(`A ${name}`)
      return forward.get(name) ?? []
    },
  }
  return { resolver, asked, ptr }
}

function verifier(resolver: BotResolver, more: Partial<VerifierSettings> = {}) {
  return createVerifier({
    ranges: new Map(),
    resolver,
    timeoutMs: 1000,
    cacheMs: 3_600_000,
    retryMs: 30_000,
    maxEntries: 10,
    maxPending: 64,
    ...more,
  })
}

const ip = (text: string) => parseIP(text) as NonNullable<ReturnType<typeof parseIP>>

/** A verdict answered from the cache comes back as is; a lookup as a promise. */
function cached(v: Verdict | Promise<Verdict>): Verdict {
  expect(v).not.toBeInstanceOf(Promise)
  return v as Verdict
}

afterEach(() => {
  vi.useRealTimers()
})

describe('createVerifier: the verdict served last', () => {
  it('answers a returning claim from the cache without asking, for as long as it holds', async () => {
    const { resolver, asked } = zone()
    const verify = verifier(resolver)
    expect(await verify(GOOGLEBOT, ip(A))).toMatchObject({ outcome: 'verified' })
    for (let n = 0; n < 3; n++) {
      // A parsed anew each time: the address's value decides, not the object.
      expect(cached(verify(GOOGLEBOT, ip(A)))).toMatchObject({ outcome: 'verified' })
    }
    expect(asked).toEqual([`PTR ${A}`, 'A crawl-66-249-66-1.googlebot.com'])
  })

  it('checks a changed address anew, and each address keeps its own verdict', async () => {
    const { resolver, asked, ptr } = zone()
    ptr.set(B, ['host-2.rented.example.net'])
    const verify = verifier(resolver)
    expect(await verify(GOOGLEBOT, ip(A))).toMatchObject({ outcome: 'verified' })
    expect(await verify(GOOGLEBOT, ip(B))).toMatchObject({ outcome: 'spoofed' })
    for (let n = 0; n < 2; n++) {
      expect(cached(verify(GOOGLEBOT, ip(A))).outcome).toBe('verified')
      expect(cached(verify(GOOGLEBOT, ip(B))).outcome).toBe('spoofed')
      expect(cached(verify(GOOGLEBOT, ip(B))).outcome).toBe('spoofed')
    }
    expect(asked).toEqual([`PTR ${A}`, 'A crawl-66-249-66-1.googlebot.com', `PTR ${B}`])
  })

  it('keeps crawlers apart at one address', async () => {
    const { resolver } = zone()
    const verify = verifier(resolver)
    expect(await verify(GOOGLEBOT, ip(A))).toMatchObject({ outcome: 'verified' })
    // A Google address is no Bing crawler: its PTR name is outside Bing's domains.
    expect(await verify(BINGBOT, ip(A))).toMatchObject({ outcome: 'spoofed' })
    expect(cached(verify(GOOGLEBOT, ip(A))).outcome).toBe('verified')
    expect(cached(verify(BINGBOT, ip(A))).outcome).toBe('spoofed')
    expect(cached(verify(BINGBOT, ip(A))).outcome).toBe('spoofed')
  })

  it('never takes an IPv6 address for the IPv4 one of the same value', async () => {
    const { resolver, asked } = zone()
    const verify = verifier(resolver)
    expect(await verify(GOOGLEBOT, ip(A))).toMatchObject({ outcome: 'verified' })
    expect(cached(verify(GOOGLEBOT, ip(A))).outcome).toBe('verified')
    // ::42f9:4201 is 66.249.66.1's 32 bits in an IPv6 address (not IPv4-mapped).
    const v6 = ip('::42f9:4201')
    expect(v6.value).toBe(BigInt(ip(A).value))
    expect(await verify(GOOGLEBOT, v6)).toMatchObject({ outcome: 'spoofed', reason: 'no-ptr' })
    expect(asked).toHaveLength(3)
    expect(asked[2]).toMatch(/^PTR ::/)
  })

  it('asks again once the verdict is past its time, though it was the one served last', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const { resolver, asked, ptr } = zone()
    const verify = verifier(resolver)
    expect(await verify(GOOGLEBOT, ip(A))).toMatchObject({ outcome: 'verified' })
    // The address changes hands; the verdict holds until its hour is up.
    ptr.set(A, ['host-1.rented.example.net'])
    vi.advanceTimersByTime(3_599_999)
    expect(cached(verify(GOOGLEBOT, ip(A))).outcome).toBe('verified')
    vi.advanceTimersByTime(1)
    expect(await verify(GOOGLEBOT, ip(A))).toMatchObject({ outcome: 'spoofed' })
    expect(cached(verify(GOOGLEBOT, ip(A))).outcome).toBe('spoofed')
    expect(asked).toEqual([`PTR ${A}`, 'A crawl-66-249-66-1.googlebot.com', `PTR ${A}`])
  })

  it('asks again for an unverifiable verdict after its 30 s, though it was served last', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const { resolver, asked } = zone()
    let down = true
    const flaky: BotResolver = {
      reverse: (address) =>
        down ? Promise.reject(new Error('SERVFAIL')) : resolver.reverse(address),
      lookup: (name) => resolver.lookup(name),
    }
    const verify = verifier(flaky)
    expect(await verify(GOOGLEBOT, ip(A))).toMatchObject({ outcome: 'unverifiable' })
    down = false
    vi.advanceTimersByTime(29_999)
    expect(cached(verify(GOOGLEBOT, ip(A))).outcome).toBe('unverifiable')
    vi.advanceTimersByTime(1)
    expect(await verify(GOOGLEBOT, ip(A))).toMatchObject({ outcome: 'verified' })
    expect(asked).toEqual([`PTR ${A}`, 'A crawl-66-249-66-1.googlebot.com'])
  })

  it('asks again for an address its full cache evicted, though it was served last', async () => {
    const { resolver, asked } = zone()
    const verify = verifier(resolver, { maxEntries: 1 })
    expect(await verify(GOOGLEBOT, ip(A))).toMatchObject({ outcome: 'verified' })
    expect(cached(verify(GOOGLEBOT, ip(A))).outcome).toBe('verified')
    // B's verdict takes the only place.
    expect(await verify(GOOGLEBOT, ip(B))).toMatchObject({ outcome: 'verified' })
    const again = verify(GOOGLEBOT, ip(A))
    expect(again).toBeInstanceOf(Promise)
    expect(await again).toMatchObject({ outcome: 'verified' })
    expect(asked.filter((q) => q === `PTR ${A}`)).toHaveLength(2)
  })

  it('lets the ranges answer before any remembered DNS verdict', async () => {
    const { resolver, asked } = zone()
    const { IPMatcher, parseCIDR } = await import('../internal/network/ip')
    const ranges = new Map([['Googlebot', new IPMatcher([parseCIDR('66.249.66.1/32') as never])]])
    const verify = verifier(resolver, { ranges })
    expect(await verify(GOOGLEBOT, ip(B))).toMatchObject({ outcome: 'verified' })
    expect(cached(verify(GOOGLEBOT, ip(A)))).toMatchObject({ reason: 'in-ranges' })
    expect(cached(verify(GOOGLEBOT, ip(B)))).toMatchObject({ reason: 'reverse-dns' })
    expect(cached(verify(GOOGLEBOT, ip(A)))).toMatchObject({ reason: 'in-ranges' })
    expect(asked).toEqual([`PTR ${B}`, 'A crawl-66-249-66-2.googlebot.com'])
  })
})
