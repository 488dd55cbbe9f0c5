/**
 * @palisade/openapi/diff — breaking-change detection between two OpenAPI 3.0/3.1 documents: each
 * change classified `breaking`, `non-breaking` or `info` by a rule with a stable id (oasdiff's
 * where the two overlap) and located by a JSON pointer in both documents. A tool over documents:
 * never imported by the root entry, no peer needed.
 */
export type { DiffOptions } from './diff'
export { blockingChanges, diff, openapiProblem, unknownRules } from './diff'
export type { DiffFormat } from './format'
export { formatDiff } from './format'
export type { ChangeLevel, DiffRule, OasdiffLevel } from './rules'
export { DIFF_RULES, fromOasdiff } from './rules'
export type { Change } from './walk'
