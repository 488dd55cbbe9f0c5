// Dead-link and dead-anchor check over the BUILT site (docs/.vitepress/dist). VitePress already
// fails the build on a link to a missing page; this also checks every `#anchor` (on the same page
// or another) against the ids the target page really has, plus every internal src/href of an
// asset. Run after `vitepress build` (the docs build script does) and imported by
// tests/docs/site-links.test.ts.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, posix, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Every .html file under `dir`, as paths relative to it with forward slashes. */
export function htmlFiles(dir) {
  const out = []
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name)
      if (statSync(full).isDirectory()) walk(full)
      else if (name.endsWith('.html')) out.push(relative(dir, full).split(sep).join('/'))
    }
  }
  walk(dir)
  return out.sort()
}

const decode = (s) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')

/** The ids a page defines (headings, explicit anchors). */
export function idsOf(html) {
  const ids = new Set()
  for (const m of html.matchAll(/\sid="([^"]*)"/g)) ids.add(decode(m[1]))
  for (const m of html.matchAll(/\sname="([^"]*)"/g)) ids.add(decode(m[1]))
  return ids
}

/** Internal links of a page: href and src values that are not absolute URLs. */
export function linksOf(html) {
  // Code blocks may show HTML source; only real attributes count (shiki escapes `<` in code).
  const links = []
  for (const m of html.matchAll(/<(a|link|img|script|source)\s[^>]*?\b(href|src)="([^"]*)"/g)) {
    const url = decode(m[3])
    if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) continue // http:, mailto:, data:
    links.push(url)
  }
  return links
}

/**
 * Resolves `url` (as written on page `from`, a dist-relative path) to a dist file and an anchor.
 * Returns the problems found: a missing file, or an anchor the target does not define.
 */
export function checkSite(dist) {
  const pages = htmlFiles(dist)
  const ids = new Map()
  const idsFor = (file) => {
    if (!ids.has(file)) ids.set(file, idsOf(readFileSync(join(dist, file), 'utf8')))
    return ids.get(file)
  }
  const problems = []
  let checked = 0
  for (const page of pages) {
    const html = readFileSync(join(dist, page), 'utf8')
    for (const url of linksOf(html)) {
      checked++
      const [pathAndQuery, rawHash] = url.split('#', 2)
      const path = pathAndQuery.split('?')[0]
      let target
      if (path === '') target = page
      else {
        target = path.startsWith('/')
          ? path.slice(1)
          : posix.normalize(posix.join(posix.dirname(page), path))
        target = decodeURIComponent(target)
        if (target === '' || target.endsWith('/')) target += 'index.html'
        else if (!posix.extname(target) && !existsSync(join(dist, target))) target += '.html'
      }
      const file = join(dist, target)
      if (!existsSync(file) || statSync(file).isDirectory()) {
        problems.push(`${page}: ${url} → no such file (${target})`)
        continue
      }
      if (rawHash && target.endsWith('.html')) {
        const anchor = decodeURIComponent(rawHash)
        if (!idsFor(target).has(anchor))
          problems.push(`${page}: ${url} → no #${anchor} in ${target}`)
      }
    }
  }
  return { pages: pages.length, checked, problems }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dist = fileURLToPath(new URL('../.vitepress/dist/', import.meta.url))
  const { pages, checked, problems } = checkSite(dist)
  for (const p of problems) console.error(`dead link: ${p}`)
  console.log(`check-links: ${pages} pages, ${checked} internal links, ${problems.length} dead`)
  process.exit(problems.length ? 1 : 0)
}
