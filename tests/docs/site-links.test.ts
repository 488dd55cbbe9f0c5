// The built documentation site has no dead internal link or anchor. VitePress fails its build on
// a link to a missing page; the checker (docs/scripts/check-links.mjs, also run by the docs build)
// adds anchors and assets. It is shown to fail on each kind of dead link first.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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
