// Media types as RFC 9110 (§8.3.1) spells them: two tokens (token.ts) around a slash. The tchar
// class [!#$%&'*+.^_`|~0-9A-Za-z-] is written out in each literal so unused ones tree-shake away.

/**
 * `type/subtype` and nothing else, the two tokens captured (`*` is a tchar, so `type/*` ranges
 * match too).
 */
export const MEDIA_RANGE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\/([!#$%&'*+.^_`|~0-9A-Za-z-]+)$/

/** `type/subtype` followed by optional `; parameters`. */
export const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*;.*)?$/
