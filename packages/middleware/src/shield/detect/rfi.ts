// Remote file inclusion: a URL the application might fetch or include, when it points at a raw IP
// address, carries a trailing `?` (the trick that cuts off the extension the application appends),
// or uses a scheme that only includes use (php://, expect://, data:, file://).
import type { InputKind, Paranoia, Subject } from './subject'

const URL = /^\s*(?:https?|ftps?):\/\/([^/?#\s]*)/
const IP_HOST =
  /^(?:[^@]*@)?(?:\[?[0-9a-f]*:[0-9a-f:]*:[0-9a-f]*\]?|\d{1,3}(?:\.\d{1,3}){3}|\d{8,10}|0x[0-9a-f]{8})(?::\d+)?$/
const INCLUDE_SCHEME =
  /^\s*(?:php|expect|phar|zip|compress\.zlib|compress\.bzip2|glob|ogg|rar|ssh2|dict|gopher|file|jar|netdoc|tftp|ldap|ldaps):\/\//
const TRAILING_QUERY = /^\s{0,16}(?:file|ftps?|https?)(?::\/\/[^\s?]{0,64})?\?{1,8}$/

/** Hosts inside the server's own network named outright: a URL to one is a request forgery (SSRF) probe. */
const INTERNAL_HOST_NAMES = new Set([
  'ipv6-localhost',
  'ip6-localhost',
  'ip6-loopback',
  'host.containers.internal',
  'host.docker.internal',
  'kubernetes.docker.internal',
  'localtest.me',
  'lvh.me',
  'metadata.packet.net',
  'metadata.azure.com',
  'instance-data',
  '169.254.169.254',
  '100.100.100.200',
  '192.0.0.192',
])
const PORT_AND_END = /(?::\d+)?(?:[/?#]|$)/y
/** Internal hosts by shape (loopback, Kubernetes and cloud metadata names, numeric spellings), with the port and the end of the host. */
export const INTERNAL_HOST_SHAPES = [
  /(?:localhost\d?(?:\.localdomain\d?)?|kubernetes\.default(?:\.svc)?(?:\.cluster\.local)?|metadata(?:\.google)?\.internal|\[?fd00:ec2::254\]?)(?::\d+)?(?:[/?#]|$)/y,
  /(?:[\w-]+\.docker\.internal|[\w.-]+\.svc\.cluster\.local)(?::\d+)?(?:[/?#]|$)/y,
  /(?:0x[0-9a-f]{8}|\d{8,10}|0+\.0+\.0+\.0+|127(?:\.\d{1,3}){3}|0177\.\d+\.\d+\.\d+)(?::\d+)?(?:[/?#]|$)/y,
  /(?:\[?::1?\]?|\[?::ffff:[\d.]+\]?)(?::\d+)?(?:[/?#]|$)/y,
]
const SCHEME = /[a-z][\w+.-]*:/y
const USER_INFO = /[^@/\s]*@/y
const HOST_END = /[:/?#]/g

/** Where a host may start: after leading spaces, a scheme (with or without `//`) and user info, each optional. */
function hostStarts(lower: string): number[] {
  const bases = [lower.length - lower.trimStart().length]
  SCHEME.lastIndex = bases[0] as number
  if (SCHEME.test(lower)) {
    bases.push(SCHEME.lastIndex)
    if (lower.startsWith('//', SCHEME.lastIndex)) bases.push(SCHEME.lastIndex + 2)
  }
  const starts = [...bases]
  for (const base of bases) {
    USER_INFO.lastIndex = base
    if (USER_INFO.test(lower)) starts.push(USER_INFO.lastIndex)
  }
  return starts
}

function internalHostAt(lower: string, start: number): boolean {
  HOST_END.lastIndex = start
  const end = HOST_END.exec(lower)?.index ?? lower.length
  PORT_AND_END.lastIndex = end
  if (INTERNAL_HOST_NAMES.has(lower.slice(start, end)) && PORT_AND_END.test(lower)) return true
  return INTERNAL_HOST_SHAPES.some((shape) => {
    shape.lastIndex = start
    return shape.test(lower)
  })
}

/**
 * A URL (or a bare host) naming a host of the server's own network, as
 * `^\s*(?:[a-z][\w+.-]*:(?:\/\/)?)?(?:[^@/\s]*@)?(?:hosts)(?::\d+)?(?:[/?#]|$)` matched it: the optional
 * parts read by hand, the hosts by a set and four small patterns, as recheck's automaton could
 * not decide the one pattern.
 */
export function internalHost(lower: string): boolean {
  return hostStarts(lower).some((start) => internalHostAt(lower, start))
}
const DATA_URL = /^\s*data:(?:[\w.+-]+\/[\w.+-]+)?(?:;[\w=.-]+)*(?:,|$)/

/** Name words that say the value is a file location on the server (`include`, `docroot`). */
const FILE_LOCATION = new Set([
  'include',
  'includes',
  'incl',
  'inc',
  'require',
  'docroot',
  'documentroot',
  'basedir',
  'rootdir',
  'root',
  'abspath',
  'absolutepath',
  'includepath',
])
/** `path` / `dir` words make a file location with one of these beside them (`_CONF[path]`, `absolute_path`). */
const LOCATION_QUALIFIER = /(?:conf|config|absolute|abs|root|doc|document|server|include|install)$/
/** Name words that say a URL is expected: a URL there is what the field is for. */
const URL_WORDS = new Set([
  'url',
  'urls',
  'uri',
  'link',
  'href',
  'endpoint',
  'website',
  'site',
  'host',
  'domain',
  'origin',
  'redirect',
  'callback',
  'webhook',
  'homepage',
])

/**
 * Whether a parameter name says it holds a file location on the server: `include`, `docroot`,
 * `mosConfig_absolute_path`, `_CONF[path]`, and not a name that asks for a URL (`root_url`).
 */
export function fileLocationName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '')
  if (words.some((w) => URL_WORDS.has(w))) return false
  if (words.some((w) => FILE_LOCATION.has(w))) return true
  const location = words.findIndex((w) => w === 'path' || w === 'dir')
  return location !== -1 && words.some((w, i) => i !== location && LOCATION_QUALIFIER.test(w))
}

export function detectRfi(subject: Subject, kind: InputKind, paranoia: Paranoia): boolean {
  const lower = subject.lower
  if (kind === 'name') return DATA_URL.test(lower) && /^\s*data:[a-z]+\/[\w.+-]+/.test(lower)
  if (kind === 'path' || kind === 'header' || kind === 'user-agent') return false
  if (INCLUDE_SCHEME.test(lower) || TRAILING_QUERY.test(lower)) return true
  if (internalHost(lower) && (lower.includes('/') || /^\s*[a-z][\w+.-]*:/.test(lower))) return true
  if (DATA_URL.test(lower) && /^\s*data:[a-z]+\/[\w.+-]+/.test(lower)) return true
  const url = URL.exec(lower)
  if (url === null) return false
  if (IP_HOST.test(url[1] as string)) return true
  // CRS 931110's idea, in our words: a URL handed to a parameter named for a server file path.
  if (subject.name !== undefined && url[1] !== '' && fileLocationName(subject.name)) return true
  return paranoia === 2 && /\.(?:php\d?|phtml|txt|ps1|sh|pl|py|jsp|aspx?|cgi)(?:$|\?)/.test(lower)
}
