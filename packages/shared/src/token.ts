// The RFC 9110 token grammar (§5.6.2): one source for header names, method names and the two
// halves of a media type, wherever either package checks one. The tchar class
// [!#$%&'*+.^_`|~0-9A-Za-z-] is written out in each literal so unused ones tree-shake away.

/** An RFC 9110 token: header names and method names. */
export const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/**
 * `type/subtype` and nothing else, the two tokens captured (`*` is a tchar, so `type/*` ranges
 * match too).
 */
export const MEDIA_RANGE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\/([!#$%&'*+.^_`|~0-9A-Za-z-]+)$/

/** `type/subtype` followed by optional `; parameters`. */
export const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*;.*)?$/
