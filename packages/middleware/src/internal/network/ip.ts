/**
 * IPv4/IPv6 parsing, CIDR ranges and a compiled matcher. Shared by ipGuard, ssrfGuard and the
 * client-IP helper. IPv4 addresses are uint32 numbers; IPv6 addresses are 128-bit bigints. An
 * IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) is treated as the IPv4 address everywhere.
 */

export type IP = { version: 4; value: number } | { version: 6; value: bigint }

export type CIDR =
  | { version: 4; start: number; end: number; prefix: number }
  | { version: 6; start: bigint; end: bigint; prefix: number }

const IPV4_MAPPED_PREFIX = 0xffffn << 32n
const V6_MAX = (1n << 128n) - 1n

/**
 * Strict dotted-quad IPv4: four decimal octets 0–255, no leading zeros (`010` is ambiguous: octal
 * to some parsers), no short forms. Returns the address as a uint32, or `null`.
 */
export function parseIPv4(input: string): number | null {
  // One allocation-free pass: this runs on every request for ipGuard and rateLimit.
  const length = input.length
  if (length < 7 || length > 15) return null
  let value = 0
  let octet = 0
  let digits = 0
  let dots = 0
  for (let i = 0; i < length; i++) {
    const ch = input.charCodeAt(i)
    if (ch === 46 /* '.' */) {
      if (digits === 0 || dots === 3) return null
      value = value * 256 + octet
      octet = 0
      digits = 0
      dots++
      continue
    }
    const d = ch - 48
    if (d < 0 || d > 9) return null
    if (digits === 1 && octet === 0) return null // leading zero
    octet = octet * 10 + d
    if (octet > 255) return null
    digits++
  }
  if (dots !== 3 || digits === 0) return null
  return value * 256 + octet
}

/** IPv6 in any RFC 4291 spelling (compressed, full, with an IPv4 tail). Zone IDs are rejected. */
export function parseIPv6(input: string): bigint | null {
  if (input.length < 2 || input.length > 45 || input.includes('%')) return null
  let text = input.toLowerCase()
  let tail: number[] = []
  const lastColon = text.lastIndexOf(':')
  if (text.indexOf('.', lastColon) !== -1) {
    const v4 = parseIPv4(text.slice(lastColon + 1))
    if (v4 === null) return null
    tail = [v4 >>> 16, v4 & 0xffff]
    text = `${text.slice(0, lastColon + 1)}${tail.length ? '0' : ''}`
    // Replace the IPv4 text with a placeholder group, dropped again below.
  }
  const halves = text.split('::')
  if (halves.length > 2) return null
  const parseGroups = (s: string): number[] | null => {
    if (s === '') return []
    const groups = s.split(':')
    const out: number[] = []
    for (const g of groups) {
      if (g.length === 0 || g.length > 4 || !/^[0-9a-f]+$/.test(g)) return null
      out.push(Number.parseInt(g, 16))
    }
    return out
  }
  const head = parseGroups(halves[0] as string)
  const rest = halves.length === 2 ? parseGroups(halves[1] as string) : []
  if (!head || !rest) return null
  if (tail.length) {
    // The placeholder group is the last one parsed; swap it for the two IPv4 groups.
    const last = halves.length === 2 ? rest : head
    last.pop()
    last.push(...tail)
  }
  const explicit = head.length + rest.length
  let groups: number[]
  if (halves.length === 2) {
    if (explicit > 7) return null
    groups = [...head, ...new Array<number>(8 - explicit).fill(0), ...rest]
  } else {
    if (explicit !== 8) return null
    groups = head
  }
  let value = 0n
  for (const g of groups) value = (value << 16n) | BigInt(g)
  return value
}

/**
 * Parses an IPv4 or IPv6 address (brackets around IPv6 allowed). IPv4-mapped IPv6 becomes IPv4.
 */
export function parseIP(input: string): IP | null {
  let text = input.trim()
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1)
  if (text.includes(':')) {
    const v6 = parseIPv6(text)
    if (v6 === null) return null
    if (v6 >> 32n === 0xffffn) return { version: 4, value: Number(v6 & 0xffffffffn) }
    return { version: 6, value: v6 }
  }
  const v4 = parseIPv4(text)
  return v4 === null ? null : { version: 4, value: v4 }
}

export function formatIPv4(value: number): string {
  return `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`
}

/**
 * An IPv6 address in its RFC 5952 canonical text: lowercase hex, no leading zeros, the longest
 * run of two or more zero groups (the first of equal runs) written as `::`.
 */
export function formatIPv6(value: bigint): string {
  const groups: number[] = []
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(Number((value >> shift) & 0xffffn))
  let bestStart = -1
  let bestLength = 1
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > bestLength) {
      bestStart = i
      bestLength = j - i
    }
    i = j
  }
  const hex = (list: number[]) => list.map((g) => g.toString(16)).join(':')
  if (bestStart === -1) return hex(groups)
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLength))}`
}

/** The first `prefix` bits of an IPv6 address, host bits zeroed (`prefix` 0–128). */
export function ipv6Network(value: bigint, prefix: number): bigint {
  const hostBits = BigInt(128 - prefix)
  return (value >> hostBits) << hostBits
}

/**
 * Parses `addr` or `addr/prefix` into an inclusive range, masking host bits (`10.1.2.3/8` is
 * `10.0.0.0/8`). An IPv4-mapped IPv6 CIDR with prefix ≥ 96 becomes the IPv4 CIDR it covers.
 */
export function parseCIDR(input: string): CIDR | null {
  const text = input.trim()
  const slash = text.indexOf('/')
  const addrText = slash === -1 ? text : text.slice(0, slash)
  const prefixText = slash === -1 ? undefined : text.slice(slash + 1)
  if (prefixText !== undefined && !/^(0|[1-9][0-9]{0,2})$/.test(prefixText)) return null
  const bare = addrText.startsWith('[') && addrText.endsWith(']') ? addrText.slice(1, -1) : addrText
  if (bare.includes(':')) {
    const v6 = parseIPv6(bare)
    if (v6 === null) return null
    const prefix = prefixText === undefined ? 128 : Number(prefixText)
    if (prefix > 128) return null
    if (v6 >> 32n === 0xffffn && prefix >= 96) {
      return v4Range(Number(v6 & 0xffffffffn), prefix - 96)
    }
    const hostBits = BigInt(128 - prefix)
    const mask = (V6_MAX >> hostBits) << hostBits
    const start = v6 & mask
    return { version: 6, start, end: start | (V6_MAX ^ mask), prefix }
  }
  const v4 = parseIPv4(bare)
  if (v4 === null) return null
  const prefix = prefixText === undefined ? 32 : Number(prefixText)
  if (prefix > 32) return null
  return v4Range(v4, prefix)
}

function v4Range(addr: number, prefix: number): CIDR {
  const size = 2 ** (32 - prefix)
  const start = addr - (addr % size)
  return { version: 4, start, end: start + size - 1, prefix }
}

/** The IPv4-mapped form of an IPv4 address, as an IPv6 value (`::ffff:a.b.c.d`). */
export function ipv4Mapped(v4: number): bigint {
  return IPV4_MAPPED_PREFIX | BigInt(v4)
}

/**
 * A set of CIDR ranges compiled into sorted, merged, non-overlapping intervals. A lookup is a
 * binary search: its cost grows with log(n), so 10,000 entries cost about what 10 do.
 */
export class IPMatcher {
  readonly #v4Start: Float64Array
  readonly #v4End: Float64Array
  readonly #v6Start: bigint[]
  readonly #v6End: bigint[]

  constructor(ranges: readonly CIDR[]) {
    const v4 = merge(
      ranges.filter((r): r is Extract<CIDR, { version: 4 }> => r.version === 4),
      (a, b) => a - b,
      (end) => end + 1,
    )
    this.#v4Start = Float64Array.from(v4.map((r) => r.start))
    this.#v4End = Float64Array.from(v4.map((r) => r.end))
    const v6 = merge(
      ranges.filter((r): r is Extract<CIDR, { version: 6 }> => r.version === 6),
      (a, b) => (a < b ? -1 : a > b ? 1 : 0),
      (end) => end + 1n,
    )
    this.#v6Start = v6.map((r) => r.start)
    this.#v6End = v6.map((r) => r.end)
  }

  /** Number of merged intervals (for tests and diagnostics). */
  get size(): number {
    return this.#v4Start.length + this.#v6Start.length
  }

  has(ip: IP): boolean {
    if (ip.version === 4) {
      const starts = this.#v4Start
      let lo = 0
      let hi = starts.length - 1
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1
        if ((starts[mid] as number) <= ip.value) lo = mid + 1
        else hi = mid - 1
      }
      return hi >= 0 && ip.value <= (this.#v4End[hi] as number)
    }
    const starts = this.#v6Start
    let lo = 0
    let hi = starts.length - 1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      if ((starts[mid] as bigint) <= ip.value) lo = mid + 1
      else hi = mid - 1
    }
    return hi >= 0 && ip.value <= (this.#v6End[hi] as bigint)
  }
}

function merge<T extends number | bigint>(
  ranges: { start: T; end: T }[],
  compare: (a: T, b: T) => number,
  next: (end: T) => T,
): { start: T; end: T }[] {
  const sorted = [...ranges].sort((a, b) => compare(a.start, b.start))
  const out: { start: T; end: T }[] = []
  for (const r of sorted) {
    const last = out[out.length - 1]
    if (last && compare(r.start, next(last.end)) <= 0) {
      if (compare(r.end, last.end) > 0) last.end = r.end
    } else {
      out.push({ start: r.start, end: r.end })
    }
  }
  return out
}
