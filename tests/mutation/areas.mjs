// The areas `pnpm mutate` covers (issue 37, point 7): the security-critical folders, each with the
// files Stryker mutates and the test files that may kill a mutant there. One area at a time keeps
// a run within reach of a shared 2-core machine (bench/MUTATION.md has the scores and times).
const MW = 'packages/middleware/src'
const OA = 'packages/openapi/src'
const notTests = (glob) => [glob, `!${glob.replace(/\*\.ts$/, '*.test.ts')}`]

export const AREAS = {
  /** Logger redaction: what never reaches a log line. */
  redact: {
    mutate: [`${MW}/internal/logging/redact.ts`],
    tests: [`${MW}/internal/logging/*.test.ts`, `${MW}/logger/*.test.ts`],
  },
  /** The response check's stripping: which properties leave the server. */
  response: {
    mutate: [`${OA}/validate/strip.ts`],
    tests: [`${OA}/validate/*.test.ts`, 'tests/openapi/internals-switch.test.ts'],
  },
  /** The rest of the response check (the check of one answer, the handler wrappers). */
  'response-check': {
    mutate: [
      `${OA}/validate/response.ts`,
      `${OA}/validate/response-checker.ts`,
      `${OA}/validate/checked-handler.ts`,
      `${OA}/validate/checked-middleware.ts`,
    ],
    tests: [`${OA}/validate/*.test.ts`, 'tests/openapi/internals-switch.test.ts'],
  },
  /** What the response check reads a schema and a value with. */
  'response-schema': {
    mutate: [
      `${OA}/validate/object-view.ts`,
      `${OA}/validate/json-value.ts`,
      `${OA}/validate/schema-flatten.ts`,
    ],
    tests: [`${OA}/validate/*.test.ts`],
  },
  /** `palisade audit`: routes that would pass unprotected. */
  audit: {
    mutate: notTests(`${OA}/audit/*.ts`),
    tests: [
      `${OA}/audit/*.test.ts`,
      'tests/openapi/audit.test.ts',
      'tests/openapi/audit-router.test.ts',
    ],
    // audit.test.ts audits the examples app: without it in the sandbox the file fails to load and
    // Stryker runs the other two alone (48 of 74 tests; format.ts then had no coverage at all).
    sandbox: ['/examples'],
  },
  /** concurrencyLimit and its memory store. */
  'concurrency-limit': {
    mutate: [
      ...notTests(`${MW}/concurrency-limit/*.ts`),
      // The node-server cases are test code shared by two test files, not the limiter.
      `!${MW}/concurrency-limit/node-server-cases.ts`,
    ],
    tests: [`${MW}/concurrency-limit/*.test.ts`, 'tests/stores/memory-stores.test.ts'],
  },
  /** rateLimit and its memory store. */
  'rate-limit': {
    mutate: notTests(`${MW}/rate-limit/*.ts`),
    tests: [
      `${MW}/rate-limit/*.test.ts`,
      'tests/stores/memory-stores.test.ts',
      // The self-description (description.ts) as every middleware's is checked.
      `${MW}/descriptions.test.ts`,
    ],
  },
  /** jwtAuth: the verifier, key sources, claims (the jose oracle at 100 cases a family). */
  'jwt-auth': {
    mutate: notTests(`${MW}/jwt-auth/*.ts`),
    tests: [`${MW}/jwt-auth/*.test.ts`],
  },
}

/** The area named by `PALISADE_MUTATE_AREA` (set by tools/mutate.mjs). */
export function currentArea() {
  const name = process.env.PALISADE_MUTATE_AREA ?? ''
  const area = AREAS[name]
  if (area === undefined)
    throw new Error(`PALISADE_MUTATE_AREA: one of ${Object.keys(AREAS).join(', ')}, not '${name}'`)
  return { name, ...area }
}
