/**
 * Cookie padding for the cookie-tossing tests of sessions, csrf and jwtAuth. Test support lives in
 * test/, outside src/, so it is never built or published.
 */

/**
 * A Cookie header with `n` copies of `name`: `planted` values inserted at index `at` among junk
 * copies. Browsers send cookies of one name in path order, so cookies planted at other paths put
 * junk before or after the user's own copy.
 *
 * @example
 * paddedCookies('sid', 5, 1, ['a.sig']) // 'sid=junk0; sid=a.sig; sid=junk1; sid=junk2; sid=junk3'
 */
export function paddedCookies(name: string, n: number, at: number, planted: string[]): string {
  const copies = Array.from({ length: n - planted.length }, (_, i) => `${name}=junk${i}`)
  copies.splice(Math.min(at, copies.length), 0, ...planted.map((v) => `${name}=${v}`))
  return copies.join('; ')
}
