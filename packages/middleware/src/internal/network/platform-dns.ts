/**
 * The platform's DNS (`node:dns/promises`), loaded on first use; `null` where the module does not
 * exist (Workers, browsers). The one place package code reaches for `node:dns`: ssrfGuard resolves
 * destinations with it, botGuard confirms crawlers with it. The import is dynamic, with a variable
 * specifier, so the entry points still load on every runtime and bundlers for edge targets do not
 * try to resolve it.
 */

/** The part of `node:dns/promises` Palisade uses. */
export interface PlatformDns {
  /** Every address `name` resolves to, A and AAAA, as the platform resolver orders them. */
  lookup(name: string): Promise<string[]>
  /** The PTR names of `ip`. */
  reverse(ip: string): Promise<string[]>
}

type DnsModule = {
  lookup(
    hostname: string,
    options: { all: true; verbatim: boolean },
  ): Promise<{ address: string }[]>
  reverse(ip: string): Promise<string[]>
}

let loaded: Promise<PlatformDns | null> | undefined

/** The platform resolver, loaded once; `null` where `node:dns/promises` does not exist. */
export function loadPlatformDns(): Promise<PlatformDns | null> {
  const specifier = 'node:dns/promises'
  loaded ??= import(/* @vite-ignore */ specifier).then(
    (mod: DnsModule) => ({
      lookup: async (name: string) =>
        (await mod.lookup(name, { all: true, verbatim: true })).map((a) => a.address),
      reverse: (ip: string) => mod.reverse(ip),
    }),
    () => null,
  )
  return loaded
}
