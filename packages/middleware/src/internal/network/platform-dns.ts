/**
 * The platform's DNS (`node:dns/promises`), loaded on first use; `null` where the module does not
 * exist (Workers, browsers). The one place package code reaches for `node:dns`: ssrfGuard resolves
 * destinations with it, botGuard confirms crawlers with it. The import is dynamic, with a variable
 * specifier, so the entry points still load on every runtime and bundlers for edge targets do not
 * try to resolve it.
 */
import { type IP, parseIP } from './ip'

/** The part of `node:dns/promises` Palisade uses. */
export interface PlatformDns {
  /** Every address `name` resolves to, A and AAAA, as the platform resolver orders them. */
  lookup(name: string): Promise<string[]>
  /**
   * The PTR names of `ip`. A name without PTR records rejects with `ENOTFOUND` (no such name) or
   * `ENODATA` (no PTR record); a timeout with `ETIMEOUT`, a failing server with its own code.
   */
  reverse(ip: string): Promise<string[]>
}

/** The functions of `node:dns/promises` (or a `Resolver`) that {@link PlatformDns} is made of. */
export interface DnsModule {
  lookup(
    hostname: string,
    options: { all: true; verbatim: boolean },
  ): Promise<{ address: string }[]>
  resolvePtr(name: string): Promise<string[]>
}

/** `66.249.66.1` → `1.66.249.66.in-addr.arpa`; IPv6 by its 32 nibbles under `ip6.arpa`. */
export function arpaName(ip: IP): string {
  if (ip.version === 4) {
    const v = ip.value
    return `${v & 255}.${(v >>> 8) & 255}.${(v >>> 16) & 255}.${v >>> 24}.in-addr.arpa`
  }
  const nibbles: string[] = []
  for (let shift = 0n; shift < 128n; shift += 4n) {
    nibbles.push(((ip.value >> shift) & 0xfn).toString(16))
  }
  return `${nibbles.join('.')}.ip6.arpa`
}

/**
 * {@link PlatformDns} over `mod`. The reverse lookup is a PTR query (`resolvePtr`), not
 * `dns.reverse()`: Node's `reverse()` reports a timeout, and an answer without records, as
 * `ENOTFOUND` too, so "the server did not answer" would read as "no such name".
 */
export function platformDnsOf(mod: DnsModule): PlatformDns {
  return {
    lookup: async (name) =>
      (await mod.lookup(name, { all: true, verbatim: true })).map((a) => a.address),
    reverse: async (ip) => {
      const parsed = parseIP(ip)
      if (parsed === null) throw new TypeError(`not an IP address: ${ip}`)
      return mod.resolvePtr(arpaName(parsed))
    },
  }
}

let loaded: Promise<PlatformDns | null> | undefined

/** The platform resolver, loaded once; `null` where `node:dns/promises` does not exist. */
export function loadPlatformDns(): Promise<PlatformDns | null> {
  const specifier = 'node:dns/promises'
  loaded ??= import(/* @vite-ignore */ specifier).then(platformDnsOf, () => null)
  return loaded
}
