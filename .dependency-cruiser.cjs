// The layering rules of packages/, run by `pnpm lint` (the floors of the house style and ARCHITECTURE.md):
// floors only look down, and no import cycle anywhere. Paths are relative to the repository root.
// Tests (`*.test.ts`) may cross floors: they exercise a floor through the ones above it. They still
// count for cycles and may never reach into another package's src.

/** openapi's floors, ground floor first: a folder imports only from folders listed before it. */
const OPENAPI_FLOORS = [
  'schema', //   pure: schema detection and conversion
  'validate', // request validation and problem details
  'model', //    document types, route records, options, naming, security: what rules and document share
  'rules', //    pure: route and option rules
  'document', // pure: route records + what middleware describe -> OpenAPI document
  'pages', //    explorer and reference HTML + their asset routes (today it imports no other floor)
  'app', //      the wrapper: the only part that knows Hono's router
  'spec', //     the spec-only entry (@palisade/openapi/spec): the root's API without the pages
  'audit', //    proving an app (later issues): policy findings,
  'fuzz', //     contract fuzzing,
  'diff', //     breaking changes between two documents (a tool over documents),
  'cli', //      and the `palisade` command
]

/** middleware's shared backends: a client adapter and the stores on it. */
const BACKENDS = '(?:redis|cloudflare|deno-kv|postgres)'
const MW = '^packages/middleware/src/'
/** A feature folder: any folder of middleware/src that is neither internal/ nor a backend. */
const MW_FEATURE = `${MW}(?!internal/|${BACKENDS}/)[^/]+/`
/** A feature's contract, which backends implement: the store interface and its types. */
const CONTRACT = '/(?:store|types)\\.ts$'
/**
 * The few implementation files a backend may import beyond the contracts, each with its reason.
 * Keep it small: a file that many folders need belongs in internal/.
 */
const BACKEND_ALLOW = [
  // How an API key is stored (SHA-256 hex) is part of the API-key store contract.
  `${MW}api-key/hash-key\\.ts$`,
  // The rate-limit arithmetic (pure functions of a stored state and the time) is part of the
  // rate-limit store contract: stores that compute in JavaScript (Durable Objects, Deno KV) run
  // the memory store's functions, so every store answers alike (Redis and PostgreSQL mirror them).
  `${MW}rate-limit/algorithms\\.ts$`,
]
const TEST = '\\.test\\.ts$'

const openapiFloorRules = OPENAPI_FLOORS.map((floor, i) => {
  const above = OPENAPI_FLOORS.slice(i + 1)
  const below = OPENAPI_FLOORS.slice(0, i)
  return {
    name: `openapi-floor-${floor}`,
    severity: 'error',
    comment: `openapi ${floor}/ imports only from ${below.length > 0 ? below.join(', ') : 'no other folder'} (floors only look down)`,
    from: { path: `^packages/openapi/src/${floor}/`, pathNot: TEST },
    to: {
      path: `^packages/openapi/src/(?:${[...above.map((f) => `${f}/`), 'index\\.ts$'].join('|')})`,
    },
  }
})

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycle anywhere in packages/.',
      from: { path: '^packages/' },
      to: { circular: true },
    },
    {
      name: 'no-other-package-src',
      severity: 'error',
      comment:
        'A package never imports another package, neither its src nor (through the root tsconfig paths, which resolve to src) by name: neither package imports the other at run time, and tests of both together live in tests/. The one exception is packages/shared, the private package both inline at build time (it imports no other package itself).',
      from: { path: '^packages/([^/]+)/' },
      to: { path: '^packages/[^/]+/', pathNot: '^packages/($1|shared)/' },
    },
    {
      name: 'no-own-barrel',
      severity: 'error',
      comment: "Code inside a package imports the module it needs, never the package's own barrel.",
      from: { path: '^packages/([^/]+)/src/.+', pathNot: TEST },
      to: { path: '^packages/$1/src/index\\.ts$' },
    },
    ...openapiFloorRules,
    {
      name: 'openapi-spec-entry-without-pages',
      severity: 'error',
      comment:
        '@palisade/openapi/spec exists to keep the pages and their 2 MB of viewer files out of bundles: nothing it reaches may import pages/, except pages/mount.ts (where the pages are mounted, no page).',
      from: { path: '^packages/openapi/src/spec/index\\.ts$' },
      to: { path: '^packages/openapi/src/pages/(?!mount\\.ts$)', reachable: true },
    },
    {
      name: 'middleware-internal-ground-floor',
      severity: 'error',
      comment: 'middleware internal/ is the ground floor: it imports no other folder of src.',
      from: { path: `${MW}internal/`, pathNot: TEST },
      to: { path: MW, pathNot: `${MW}internal/` },
    },
    {
      name: 'middleware-internal-root-no-topic',
      severity: 'error',
      comment:
        'The modules at the root of middleware internal/ (options.ts, crypto.ts) are what every topic folder uses: they import none of them.',
      from: { path: `${MW}internal/[^/]+$`, pathNot: TEST },
      to: { path: `${MW}internal/[^/]+/` },
    },
    {
      name: 'middleware-feature-no-backend',
      severity: 'error',
      comment:
        'A middleware folder never imports a backend (redis/, cloudflare/, deno-kv/, postgres/): backends implement its store contract, not the other way round.',
      from: { path: MW_FEATURE, pathNot: TEST },
      to: { path: `${MW}${BACKENDS}/` },
    },
    {
      name: 'middleware-backend-no-other-backend',
      severity: 'error',
      comment:
        'A backend never imports another backend; what two backends share goes to internal/.',
      from: { path: `${MW}(${BACKENDS})/`, pathNot: TEST },
      to: { path: `${MW}${BACKENDS}/`, pathNot: `${MW}$1/` },
    },
    {
      name: 'middleware-backend-contracts-only',
      severity: 'error',
      comment:
        "A backend imports only the contracts of the middleware it serves (store.ts, types.ts), the few files BACKEND_ALLOW names with their reasons, and internal/, never a middleware's implementation.",
      from: { path: `${MW}${BACKENDS}/`, pathNot: TEST },
      to: { path: MW_FEATURE, pathNot: [CONTRACT, ...BACKEND_ALLOW] },
    },
    {
      name: 'middleware-feature-no-other-feature',
      severity: 'error',
      comment:
        "A middleware folder imports another one's contract (store.ts, types.ts) at most, never its implementation: what two features share goes to internal/.",
      from: { path: `${MW}((?!internal/|${BACKENDS}/)[^/]+)/`, pathNot: TEST },
      to: { path: MW_FEATURE, pathNot: [`${MW}$1/`, CONTRACT] },
    },
  ],
  options: {
    includeOnly: '^packages/',
    exclude: { path: '(?:^|/)(?:node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.d.ts', '.js', '.mjs', '.cjs'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
}
