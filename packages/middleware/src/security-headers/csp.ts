import { randomToken } from '../internal/crypto'

/** Directives that get the per-request nonce; each is created from `default-src` if missing. */
const NONCE_DIRECTIVES = ['script-src', 'style-src'] as const
/** More specific directives that also get it when the policy has them. */
const NONCE_IF_PRESENT = ['script-src-elem', 'style-src-elem']
const SLOT = '\u0000'

/**
 * A Content-Security-Policy compiled once: `render(nonce)` gives the header value for one
 * request. Without a nonce the value is fixed; with one, `'nonce-…'` goes into `script-src` and
 * `style-src` (and their `-elem` forms when present). A missing `script-src`/`style-src` is
 * created from `default-src`'s sources plus the nonce, which only adds the nonce: browsers fall
 * back to `default-src` for it otherwise. A directive that is `'none'` is left alone, as is a
 * policy without `default-src` and without the directive (nothing to copy; adding one would
 * forbid what the policy allows).
 *
 * @example
 * const csp = compileCsp("default-src 'self'", true)
 * csp.render('abc') // "default-src 'self'; script-src 'self' 'nonce-abc'; style-src 'self' 'nonce-abc'"
 */
export function compileCsp(policy: string, nonce: boolean): { render(nonce?: string): string } {
  if (!nonce) return { render: () => policy }
  const directives = policy
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean)
  const find = (name: string) =>
    directives.findIndex((d) => d.split(/\s+/, 1)[0]?.toLowerCase() === name)
  const withSlot = (directive: string): string => {
    const [, ...sources] = directive.split(/\s+/)
    return sources.length === 1 && sources[0] === "'none'" ? directive : `${directive} ${SLOT}`
  }
  const fallback = find('default-src')
  for (const name of NONCE_DIRECTIVES) {
    const at = find(name)
    if (at !== -1) directives[at] = withSlot(directives[at] as string)
    else if (fallback !== -1) {
      const sources = (directives[fallback] as string).split(/\s+/).slice(1)
      directives.push(withSlot([name, ...sources].join(' ')))
    }
  }
  for (const name of NONCE_IF_PRESENT) {
    const at = find(name)
    if (at !== -1) directives[at] = withSlot(directives[at] as string)
  }
  const parts = directives.join('; ').split(SLOT)
  return { render: (value) => parts.join(`'nonce-${value}'`) }
}

/** A fresh CSP nonce: 128 random bits, base64url (valid in a CSP `nonce-source`). */
export function cspNonce(): string {
  return randomToken(16)
}
