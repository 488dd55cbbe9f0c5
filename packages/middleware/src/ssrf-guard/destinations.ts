/**
 * What counts as an internal destination for the SSRF policy (check-url.ts): the special-purpose
 * address blocks, the metadata host names, and the IPv4 addresses an IPv6 address can carry.
 */
import { type CIDR, parseCIDR } from '../internal/network/ip'

// Blocked whatever `allowPrivate` says. Checked against the IANA IPv4 and IPv6 Special-Purpose
// Address Registries: every block that is not globally reachable is here or in PRIVATE, except
// the IPv4-in-IPv6 translation blocks, which are judged by the IPv4 address they carry.
export const ALWAYS_BLOCKED = [
  '0.0.0.0/8', // "this network"; 0.0.0.0 reaches the local host on most stacks
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local, incl. 169.254.169.254 (AWS, GCP, Azure, DigitalOcean, Oracle)
  '192.0.0.0/24', // IETF protocol assignments (DS-Lite, NAT64 discovery, Oracle's 192.0.0.192)
  '192.0.2.0/24', // TEST-NET-1 (documentation)
  '192.88.99.0/24', // deprecated 6to4 relay anycast (RFC 7526)
  '198.51.100.0/24', // TEST-NET-2 (documentation)
  '203.0.113.0/24', // TEST-NET-3 (documentation)
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, incl. broadcast 255.255.255.255
  '100.100.100.200/32', // Alibaba Cloud metadata: inside CGNAT, so it must survive allowPrivate
  '168.63.129.16/32', // Azure WireServer / host DNS: public-looking, answers only inside Azure
  '::/96', // unspecified (::), loopback (::1) and deprecated IPv4-compatible addresses
  '100::/64', // discard-only (RFC 6666)
  '100:0:0:1::/64', // dummy IPv6 prefix (RFC 9780)
  '2001:2::/48', // benchmarking (RFC 5180)
  '2001:10::/28', // deprecated ORCHID (RFC 4843)
  '2001:20::/27', // ORCHIDv2 (RFC 7343) and DRIP entity tags (RFC 9374): identifiers, not hosts
  '2001:db8::/32', // documentation (RFC 3849)
  '3fff::/20', // documentation (RFC 9637)
  '5f00::/16', // SRv6 segment identifiers (RFC 9602)
  'fe80::/10', // link-local
  'ff00::/8', // multicast
  'fd00:ec2::254/128', // AWS metadata over IPv6: inside fc00::/7, so it must survive allowPrivate
]

// Blocked unless `allowPrivate`.
export const PRIVATE = [
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10', // CGNAT (RFC 6598)
  // Benchmarking (RFC 2544); also the "fake IP" range of some proxies and VPN clients, an
  // internal network in practice, hence opened by allowPrivate rather than always blocked.
  '198.18.0.0/15',
  'fc00::/7', // unique local (RFC 4193)
  'fec0::/10', // deprecated site-local (RFC 3879)
  '64:ff9b:1::/48', // local-use NAT64 (RFC 8215): may translate to any internal IPv4
]

const BLOCKED_NAMES = new Set([
  'localhost',
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
])

export const parseAll = (entries: readonly string[]): CIDR[] =>
  entries.map((entry) => parseCIDR(entry) as CIDR)

const MASK32 = 0xffffffffn

/**
 * The IPv4 addresses an IPv6 address carries, which a translator or tunnel may deliver to:
 * NAT64 (64:ff9b::/96), SIIT (::ffff:0:0:0/96), 6to4 (2002::/16) and Teredo (2001::/32, server
 * and XOR-obfuscated client). IPv4-mapped addresses never get here: `parseIP` turns them into IPv4.
 */
export function embeddedIPv4(value: bigint): number[] {
  const top16 = value >> 112n
  if (value >> 32n === 0x0064ff9b0000000000000000n) return [Number(value & MASK32)]
  if (value >> 32n === 0xffff0000n) return [Number(value & MASK32)]
  if (top16 === 0x2002n) return [Number((value >> 80n) & MASK32)]
  if (value >> 96n === 0x20010000n) {
    return [Number((value >> 64n) & MASK32), Number(~value & MASK32)]
  }
  return []
}

function stripTrailingDots(name: string): string {
  let end = name.length
  while (end > 0 && name.charCodeAt(end - 1) === 46 /* '.' */) end--
  return name.slice(0, end)
}

export function isBlockedName(hostname: string): boolean {
  const name = stripTrailingDots(hostname.toLowerCase())
  return BLOCKED_NAMES.has(name) || name.endsWith('.localhost')
}
