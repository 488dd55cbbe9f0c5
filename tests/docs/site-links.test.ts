// The built documentation site has no dead internal link or anchor. VitePress fails its build on
// a link to a missing page; the checker (docs/scripts/check-links.mjs, also run by the docs build)
// adds anchors and assets. It is shown to fail on each kind of dead link first.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { checkSite as check } from '../../docs/scripts/check-links.mjs'
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
