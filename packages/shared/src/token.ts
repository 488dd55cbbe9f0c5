// The RFC 9110 token grammar (§5.6.2): one source for header and method names wherever either
// package checks one; media-type.ts applies the same tchar class to the two halves of a media
// type (a module of its own, so a bundle that checks only names does not carry it).

/** An RFC 9110 token: header names and method names. */
export const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
