// The project's public home is ONE setting: `palisade.site` and `palisade.repository` in the root
// package.json. Everything public that points home is derived from it:
// - each published package.json's `homepage`, `repository` (with `directory`) and `bugs`;
// - the links of each published README, which use the site URL and are never relative (npm
//   shows a README outside the repository, where `docs/…` or `#section` of a moved file is dead).
// `node tools/project.mjs` checks both and exits 1 on drift; `--write` writes the package.json
// fields and moves README links from the previous site (the one in `homepage`) to the current one.
// tools/check-packaging.mjs runs the same checks in the release check.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
export const PUBLISHED = ['packages/middleware', 'packages/openapi']
/** The site page that is each published package's home. */
const HOME_PAGE = { 'packages/middleware': 'middleware/', 'packages/openapi': 'openapi/' }

/** `{ site, repository }` from the root package.json, without trailing slashes. */
export function readProject(root = ROOT) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const { site, repository } = pkg.palisade ?? {}
  for (const [name, value] of Object.entries({ site, repository })) {
    if (typeof value !== 'string' || !/^https:\/\/[^/\s]+(\/[^\s]*)?$/.test(value)) {
      throw new Error(`package.json palisade.${name} must be an https URL, got ${value}`)
    }
  }
  return { site: site.replace(/\/+$/, ''), repository: repository.replace(/\/+$/, '') }
}

/** The package.json fields a published package derives from the project setting. */
export function expectedFields(project, dir) {
  return {
    homepage: `${project.site}/${HOME_PAGE[dir] ?? ''}`,
    repository: { type: 'git', url: `git+${project.repository}.git`, directory: dir },
    bugs: { url: `${project.repository}/issues` },
  }
}

/** Fields of `pkg` that differ from what the setting says: ['homepage: … (expected …)']. */
export function fieldDrift(pkg, project, dir) {
  return Object.entries(expectedFields(project, dir))
    .filter(([key, want]) => JSON.stringify(pkg[key]) !== JSON.stringify(want))
    .map(
      ([key, want]) =>
        `${key}: ${JSON.stringify(pkg[key])} (expected ${JSON.stringify(want)}; run \`node tools/project.mjs --write\`)`,
    )
}

/** Every link target of a Markdown document outside code: inline, reference, HTML, autolinks. */
export function markdownLinks(markdown) {
  const links = []
  let fenced = false
  markdown.split('\n').forEach((raw, i) => {
    if (/^\s*(```|~~~)/.test(raw)) {
      fenced = !fenced
      return
    }
    if (fenced) return
    const line = raw.replace(/`[^`]*`/g, '') // code spans are text, not links
    const at = (url) => links.push({ line: i + 1, url })
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) at(m[1])
    const def = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$/.exec(line)
    if (def) at(def[1])
    for (const m of line.matchAll(/\b(?:href|src)\s*=\s*["']([^"']*)["']/gi)) at(m[1])
    for (const m of line.matchAll(/<(https?:\/\/[^>\s]+)>/g)) at(m[1])
  })
  return links
}

/**
 * Problems with the links of a published README: any link that is not an absolute https URL
 * (relative paths and bare `#anchors` included), and any link into the site that names a page the
 * site does not have. A README must link into the site at least once.
 */
export function readmeLinkProblems(markdown, project, docsDir = join(ROOT, 'docs')) {
  const problems = []
  let intoSite = 0
  for (const { line, url } of markdownLinks(markdown)) {
    if (!/^https?:\/\//.test(url)) {
      problems.push(`line ${line}: relative link "${url}" (dead on npm; link the site instead)`)
      continue
    }
    if (url !== project.site && !url.startsWith(`${project.site}/`)) continue
    intoSite++
    const path = url
      .slice(project.site.length)
      .replace(/[#?].*$/, '')
      .replace(/^\/+/, '')
    const page =
      path === '' || path.endsWith('/') ? `${path}index.md` : `${path.replace(/\.html$/, '')}.md`
    if (!path.startsWith('api/') && !existsSync(join(docsDir, page))) {
      problems.push(`line ${line}: ${url} names no page of the site (docs/${page})`)
    }
  }
  if (intoSite === 0) problems.push(`no link into the site (${project.site}/…)`)
  return problems
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const write = process.argv.includes('--write')
  const project = readProject()
  const problems = []
  for (const dir of PUBLISHED) {
    const pkgFile = join(ROOT, dir, 'package.json')
    const readmeFile = join(ROOT, dir, 'README.md')
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'))
    if (write) {
      const previousSite = pkg.homepage ? new URL(pkg.homepage).origin : undefined
      let readme = readFileSync(readmeFile, 'utf8')
      if (previousSite && previousSite !== project.site) {
        readme = readme.split(`${previousSite}/`).join(`${project.site}/`)
        writeFileSync(readmeFile, readme)
      }
      // Insert the fields after `description` so package.json keeps its reading order.
      const next = {}
      for (const [key, value] of Object.entries(pkg)) {
        if (key in expectedFields(project, dir)) continue
        next[key] = value
        if (key === 'description') Object.assign(next, expectedFields(project, dir))
      }
      writeFileSync(
        pkgFile,
        `${JSON.stringify({ ...next, ...expectedFields(project, dir) }, null, 2)}\n`,
      )
      continue
    }
    for (const p of fieldDrift(pkg, project, dir)) problems.push(`${dir}/package.json ${p}`)
    for (const p of readmeLinkProblems(readFileSync(readmeFile, 'utf8'), project)) {
      problems.push(`${dir}/README.md ${p}`)
    }
  }
  for (const p of problems) console.error(p)
  if (!write) console.log(`project URLs: ${problems.length} problem(s) (site ${project.site})`)
  process.exit(problems.length ? 1 : 0)
}
