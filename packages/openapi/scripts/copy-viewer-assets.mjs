#!/usr/bin/env node
// Generates the docs pages' viewer files: the explorer (swagger-ui-dist) and reference (redoc v2
// standalone bundle) files, plus the small init scripts and styles in src/pages/client/.
//
// Two git-ignored modules (plus a .d.ts each for the TypeScript sources):
// - src/pages/assets.generated.js: the manifest (file name with content hash, type, encodings).
//   A few hundred bytes; bundled into both the ESM and the CJS build.
// - src/pages/viewer-bodies.generated.js: the bytes, pre-compressed here with gzip and brotli
//   (base64). The build ships it once, as dist/viewer-bodies.js, which both builds load with a
//   dynamic import() on the first asset request (import() works from CommonJS too, and bundlers
//   for Workers, Deno and Bun follow it). No file system at run time, no node: import in the package.
//   A file that compresses well ships only its gzip and brotli forms: a client that accepts neither
//   gets the gzip form decompressed with the web-standard DecompressionStream. Small files and the
//   PNG favicon ship as they are.
//
// Viewer code is taken from the official npm packages at build time, never committed. The output
// is rewritten only when an input or this script changed (brotli at quality 11 takes seconds).
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(join(root, 'package.json'))
const clientDir = join(root, 'src', 'pages', 'client')
const pagesDir = join(root, 'src', 'pages')
const manifestFile = join(pagesDir, 'assets.generated.js')
const bodiesFile = join(pagesDir, 'viewer-bodies.generated.js')

const packageDir = (name) => dirname(require.resolve(`${name}/package.json`))
const packageVersion = (name) =>
  JSON.parse(readFileSync(join(packageDir(name), 'package.json'), 'utf8')).version

const JS = 'text/javascript; charset=utf-8'
const CSS = 'text/css; charset=utf-8'
const PNG = 'image/png'

// Source maps are not shipped, so their trailing references would only produce 404s in devtools.
const stripTrailingSourceMap = (text) =>
  text
    .replace(/\n?\/\/# sourceMappingURL=[^\n]*\s*$/, '\n')
    .replace(/\n?\/\*# sourceMappingURL=[^*]*\*\/\s*$/, '\n')

// The docs pages must not load anything from another origin. ReDoc 2's sidebar footer shows an
// <img> from Redocly's CDN, unconditionally; it becomes an empty inline SVG (the "API docs by
// Redocly" link text stays). Fonts: both viewers only name font families, they load none.
const REDOCLY_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg'
const BLANK_SVG =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 1 1'/%3E"
const patches = {
  'redoc.standalone': (text) => {
    const count = text.split(REDOCLY_LOGO).length - 1
    if (count !== 1) {
      throw new Error(
        `copy-viewer-assets: expected the Redocly logo URL once in redoc.standalone.js, found ${count}; review the patch for this redoc version`,
      )
    }
    return text.replace(REDOCLY_LOGO, BLANK_SVG)
  },
}

// Refuse to generate, rather than ship a page that calls out, if a future version starts loading
// web fonts or CDN files.
const assertNoRemoteLoads = (name, text) => {
  const remote =
    /fonts\.(googleapis|gstatic)\.com|cdn\.redoc\.ly|unpkg\.com|cdn\.jsdelivr\.net/.exec(text)
  if (remote) {
    throw new Error(`copy-viewer-assets: ${name} references ${remote[0]}; strip it before shipping`)
  }
}

/** [export name, file name stem, extension, content type, absolute source path, binary?] */
const sources = [
  [
    'swaggerUIBundle',
    'swagger-ui-bundle',
    'js',
    JS,
    join(packageDir('swagger-ui-dist'), 'swagger-ui-bundle.js'),
  ],
  ['swaggerUICSS', 'swagger-ui', 'css', CSS, join(packageDir('swagger-ui-dist'), 'swagger-ui.css')],
  [
    'favicon',
    'favicon',
    'png',
    PNG,
    join(packageDir('swagger-ui-dist'), 'favicon-32x32.png'),
    true,
  ],
  [
    'redocStandalone',
    'redoc.standalone',
    'js',
    JS,
    join(packageDir('redoc'), 'bundles', 'redoc.standalone.js'),
  ],
  ['explorerInit', 'explorer-init', 'js', JS, join(clientDir, 'explorer-init.js')],
  ['explorerCSS', 'explorer', 'css', CSS, join(clientDir, 'explorer.css')],
  ['referenceInit', 'reference-init', 'js', JS, join(clientDir, 'reference-init.js')],
  ['referenceCSS', 'reference', 'css', CSS, join(clientDir, 'reference.css')],
]

// Compress only what gains: at least 1 KiB, and the gzip form at most 90 % of the original.
const MIN_COMPRESS_BYTES = 1024
const MAX_COMPRESSED_RATIO = 0.9
const gzipAsync = promisify(gzip)
const brotliAsync = promisify(brotliCompress)

/** The bytes to serve for one source row, after patches. */
function sourceBytes([, stem, , , file, binary]) {
  const bytes = readFileSync(file)
  if (binary) return bytes
  const patch = patches[stem] ?? ((t) => t)
  const text = patch(stripTrailingSourceMap(bytes.toString('utf8')))
  assertNoRemoteLoads(stem, text)
  return Buffer.from(text, 'utf8')
}

const inputs = sources.map((row) => ({ row, bytes: sourceBytes(row) }))
const key = createHash('sha256')
  .update(readFileSync(fileURLToPath(import.meta.url)))
  .update(inputs.map(({ bytes }) => createHash('sha256').update(bytes).digest('hex')).join())
  .digest('hex')
  .slice(0, 16)
const versions = `swagger-ui-dist@${packageVersion('swagger-ui-dist')}, redoc@${packageVersion('redoc')}`
const banner = [
  '// Generated by packages/openapi/scripts/copy-viewer-assets.mjs — do not edit, do not commit.',
  `// ${versions}; inputs ${key}`,
  '',
]
const outputs = [
  manifestFile,
  `${manifestFile.slice(0, -3)}.d.ts`,
  bodiesFile,
  `${bodiesFile.slice(0, -3)}.d.ts`,
]
const upToDate = outputs.every(
  (f) => existsSync(f) && readFileSync(f, 'utf8').split('\n', 2)[1] === banner[1],
)
if (upToDate) {
  console.log(`copy-viewer-assets: up to date (${versions})`)
  process.exit(0)
}

const manifest = [...banner]
const manifestTypes = [...banner, "import type { ViewerAsset } from './asset-types'", '']
const bodies = {}
let total = 0
let shipped = 0
const compressed = await Promise.all(
  inputs.map(async ({ row: [, , , , , binary], bytes }) => {
    const forms = {}
    const gz =
      binary || bytes.length < MIN_COMPRESS_BYTES ? undefined : await gzipAsync(bytes, { level: 9 })
    if (gz && gz.length <= bytes.length * MAX_COMPRESSED_RATIO) {
      const br = await brotliAsync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      })
      forms.br = br.toString('base64')
      forms.gzip = gz.toString('base64')
    } else {
      forms.identity = bytes.toString('base64')
    }
    return forms
  }),
)
for (const [i, { row, bytes }] of inputs.entries()) {
  const [exportName, stem, ext, type] = row
  const forms = compressed[i]
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16)
  bodies[hash] = forms
  total += bytes.length
  shipped += Object.values(forms).reduce((n, b64) => n + b64.length, 0)
  const encodings = Object.keys(forms).filter((e) => e !== 'identity')
  const asset = { fileName: `${stem}.${hash}.${ext}`, type, hash, size: bytes.length, encodings }
  manifest.push(`export const ${exportName} = ${JSON.stringify(asset)}`, '')
  manifestTypes.push(`export declare const ${exportName}: ViewerAsset`)
}
writeFileSync(manifestFile, manifest.join('\n'))
writeFileSync(`${manifestFile.slice(0, -3)}.d.ts`, `${manifestTypes.join('\n')}\n`)
writeFileSync(
  bodiesFile,
  `${banner.join('\n')}/** Base64 bodies by content hash: \`br\` + \`gzip\`, or \`identity\` alone. */\nexport const bodies = ${JSON.stringify(bodies)}\n`,
)
writeFileSync(
  `${bodiesFile.slice(0, -3)}.d.ts`,
  `${[...banner, "import type { ViewerBodies } from './asset-types'", '', 'export declare const bodies: ViewerBodies'].join('\n')}\n`,
)
console.log(
  `copy-viewer-assets: ${sources.length} assets, ${(total / 1024).toFixed(0)} KiB → ${(shipped / 1024).toFixed(0)} KiB of base64 gzip/brotli bodies (${versions})`,
)
