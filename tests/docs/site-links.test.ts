// The built documentation site has no dead internal link or anchor. VitePress fails its build on
// a link to a missing page; the checker (docs/scripts/check-links.mjs, also run by the docs build)
// adds anchors and assets. It is shown to fail on each kind of dead link first.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { checkSite as check, idsOf } from '../../docs/scripts/check-links.mjs'
// @ts-expect-error: a plain .mjs script without declarations
import { markdownLinks } from '../../tools/project.mjs'
import { requireBuiltSite } from './site'

describe('link checker', () => {
  const dir = mkdtempSync(join(tmpdir(), 'palisade-site-'))
  const page = (path: string, html: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), `<!doctype html><html><body>${html}</body></html>`)
  }
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('accepts pages, anchors and assets that exist, and ignores external URLs', () => {
    page('index.html', '<h1 id="top">Home</h1><a href="/guide/">g</a><a href="#top">t</a>')
    page('guide/index.html', '<h2 id="install">Install</h2><a href="../index.html#top">h</a>')
    page('guide/node.html', '<a href="/guide/#install">i</a><a href="https://hono.dev/#x">x</a>')
    writeFileSync(join(dir, 'logo.svg'), '<svg/>')
    page('about.html', '<img src="/logo.svg"><a href="/guide/node">n</a><a href="mailto:a@b">m</a>')
    expect(check(dir)).toEqual({ pages: 4, checked: 6, problems: [] })
  })

  it('reports a missing page, a missing anchor on another page and on the same page', () => {
    page(
      'bad.html',
      '<a href="/nowhere.html">1</a><a href="/guide/#uninstall">2</a><a href="#x">3</a>',
    )
    page('img.html', '<img src="/missing.png">')
    expect(check(dir).problems).toEqual([
      'bad.html: /nowhere.html → no such file (nowhere.html)',
      'bad.html: /guide/#uninstall → no #uninstall in guide/index.html',
      'bad.html: #x → no #x in bad.html',
      'img.html: /missing.png → no such file (missing.png)',
    ])
  })
})

describe('the built documentation site', () => {
  it('has no dead internal link or anchor', () => {
    const result = check(requireBuiltSite())
    expect(result.problems).toEqual([])
    expect(result.pages).toBeGreaterThan(150) // guides + API reference
    expect(result.checked).toBeGreaterThan(1000)
  })
})

describe('links back to the source', () => {
  it('name files that exist in the repository (site pages and published READMEs)', () => {
    const root = resolve(import.meta.dirname, '../..')
    const { repository } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).palisade
    const prefix = new RegExp(
      `^${repository.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/(blob|tree)/main/`,
    )
    const sources = [
      'packages/middleware/README.md',
      'packages/openapi/README.md',
      ...handWrittenPages(join(root, 'docs')).map((p) => `docs/${p}`),
    ]
    const problems: string[] = []
    let checked = 0
    for (const file of sources) {
      for (const { line, url } of markdownLinks(readFileSync(join(root, file), 'utf8')) as {
        line: number
        url: string
      }[]) {
        const m = prefix.exec(url)
        if (!m) continue
        const path = url.slice(m[0].length).replace(/#.*$/, '')
        // Changesets writes each package's CHANGELOG.md when versions are cut.
        if (/^packages\/[^/]+\/CHANGELOG\.md$/.test(path)) continue
        checked++
        if (!existsSync(join(root, path))) problems.push(`${file}:${line}: ${path} does not exist`)
      }
    }
    expect(checked).toBeGreaterThan(10)
    expect(problems).toEqual([])
  })
})

/** Hand-written site pages (Markdown), relative to docs/: not TypeDoc's api/ nor copied pages. */
function handWrittenPages(dir: string, sub = ''): string[] {
  return readdirSync(join(dir, sub), { withFileTypes: true }).flatMap((entry) => {
    const path = sub ? `${sub}/${entry.name}` : entry.name
    if (entry.name.startsWith('.') || entry.name === 'node_modules' || path === 'api') return []
    // Copied at build time from bench/ and ARCHITECTURE.md.
    if (/^benchmarks\/(results|findings|ablation)\.md$/.test(path) || path === 'project') return []
    if (entry.isDirectory()) return handWrittenPages(dir, path)
    return entry.name.endsWith('.md') ? [path] : []
  })
}

describe('the root README (read on the repository, not published)', () => {
  it('links only files that exist, and site pages by anchors they have', () => {
    const root = resolve(import.meta.dirname, '../..')
    const dist = requireBuiltSite()
    const problems: string[] = []
    const links = markdownLinks(readFileSync(join(root, 'README.md'), 'utf8')) as {
      line: number
      url: string
    }[]
    for (const { line, url } of links) {
      if (/^[a-z]+:/i.test(url)) continue
      const [path = '', anchor] = url.split('#')
      if (!existsSync(join(root, path))) problems.push(`line ${line}: ${url}: no such file`)
      else if (anchor && path.startsWith('docs/') && path.endsWith('.md')) {
        const html = join(dist, path.slice('docs/'.length).replace(/\.md$/, '.html'))
        if (!idsOf(readFileSync(html, 'utf8')).has(anchor)) {
          problems.push(`line ${line}: ${url}: no #${anchor} on that page`)
        }
      }
    }
    expect(links.length).toBeGreaterThan(20)
    expect(problems).toEqual([])
  })
})
