// The RFC 9110 token grammar (§5.6.2), one source for header names, method names and the two
// halves of a media type, wherever either package checks one.

/** One RFC 9110 `tchar`, as a regular-expression character class. */
const TCHAR = "[!#$%&'*+.^_`|~0-9A-Za-z-]"

/** An RFC 9110 token: header names and method names. */
export const TOKEN = new RegExp(`^${TCHAR}+$`)

/**
 * `type/subtype` and nothing else, the two tokens captured (`*` is a tchar, so `type/*` ranges
 * match too).
 */
export const MEDIA_RANGE = new RegExp(`^(${TCHAR}+)/(${TCHAR}+)$`)

/** `type/subtype` followed by optional `; parameters`. */
export const MEDIA_TYPE = new RegExp(`^${TCHAR}+/${TCHAR}+(\\s*;.*)?$`)
