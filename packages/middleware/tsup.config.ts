import { copyFileSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { defineConfig, type Options } from 'tsup'
import { inlineShared, SHARED } from '../shared/inline.config'

type Plugin = NonNullable<Options['esbuildPlugins']>[number]

// One entry per `exports` subpath: `.` is src/index.ts, `./<name>` is src/<name>/index.ts
// (folder = subpath), built as dist/<name>/index.*.
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { exports: Record<string, unknown> }
const entry: Record<string, string> = {}
for (const subpath of Object.keys(pkg.exports)) {
  if (subpath === './package.json') continue
  const name = subpath === '.' ? '' : `${subpath.slice(2)}/`
  entry[`${name}index`] = `src/${name}index.ts`
}

const joseDir = dirname(createRequire(import.meta.url).resolve('jose/package.json'))
const joseLicense = readFileSync(join(joseDir, 'LICENSE.md'), 'utf8')
const joseVersion = JSON.parse(readFileSync(join(joseDir, 'package.json'), 'utf8')).version

// Puts jose's licence on jose's errors module as a legal comment (`/*! … */`): esbuild keeps legal
// comments in the output files that contain the code, so it lands in the CJS chunk holding jose.
// The sources import jose by subpath (jwt/verify, jwt/sign, jwks/local, key/import), so the barrel
// is never bundled; every one of those imports util/errors.js, which therefore carries it once.
const joseLicenseComment: Plugin = {
  name: 'jose-license',
  setup(build) {
    build.onLoad({ filter: /[\\/]jose[\\/]dist[\\/]webapi[\\/]util[\\/]errors\.js$/ }, (args) => ({
      contents: `/*! jose ${joseVersion}, bundled into the CommonJS build.\n${joseLicense.replaceAll('*/', '* /')}*/\n${readFileSync(args.path, 'utf8')}`,
      loader: 'js',
    }))
  },
}

// @palisade/shared (private: what both packages share) is inlined into the code and the
// declarations; see packages/shared/inline.config.ts.

const common: Options = {
  entry,
  noExternal: inlineShared.noExternal,
  clean: false, // `pnpm build` empties dist/ first; two configs run at once here
  splitting: true,
  treeshake: true,
  target: 'es2022',
  platform: 'neutral',
  sourcemap: false,
}

export default defineConfig([
  // ESM: jose stays an import of the `jose` dependency.
  { ...common, format: ['esm'], dts: inlineShared.dts },
  // CommonJS: jose is ESM-only, and `require()` of an ES module needs Node 20.19+ / 22.12+
  // (require(esm)). jose is bundled into the CJS output so `require('@palisade/middleware')` works
  // on every Node version `engines` allows; its MIT licence is kept as a legal comment in the chunk
  // that holds it, and as dist/jose.LICENSE.md.
  // (The declarations never import jose either: src/jwt-auth/payload.ts declares `JWTPayload`.)
  {
    ...common,
    format: ['cjs'],
    noExternal: [SHARED, 'jose'],
    dts: inlineShared.dts,
    esbuildPlugins: [joseLicenseComment],
    onSuccess: async () => {
      copyFileSync(join(joseDir, 'LICENSE.md'), join('dist', 'jose.LICENSE.md'))
    },
  },
])
