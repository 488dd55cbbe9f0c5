/**
 * Issue 25, point 3: the project's public home is one setting (root package.json `palisade`), the
 * published package.json fields are derived from it, and a published README has no relative link.
 * The checks are shown to fail first, on made-up inputs; then the real packages pass them.
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  expectedFields,
  fieldDrift,
  markdownLinks,
  PUBLISHED,
  readmeLinkProblems,
  readProject,
  // @ts-expect-error: a plain .mjs script without declarations
} from '../../tools/project.mjs'

const root = resolve(import.meta.dirname, '../..')
const project = { site: 'https://docs.example.org', repository: 'https://git.example.org/o/r' }

describe('published README links', () => {
  it('finds inline, reference, HTML and autolinks, and ignores code', () => {
    const md = [
      '[a](https://x.test/a) ![b](./b.png "title") <https://x.test/c>',
      '[d]: ../d.md',
      '<a href="e.html"><img src="/f.svg"></a>',
      '`[not](a-link)` and',
      '```md',
      '[nor](this)',
      '```',
    ].join('\n')
    expect(markdownLinks(md).map((l: { url: string }) => l.url)).toEqual([
      'https://x.test/a',
      './b.png',
      'https://x.test/c',
      '../d.md',
      'e.html',
      '/f.svg',
    ])
  })

  it('fails a relative link, an in-page anchor, a repository path and a missing site page', () => {
    const md = [
      'See [docs](docs/guide.md), [below](#install), ![chart](bench/http-chart.png),',
      '[a page](https://docs.example.org/no-such-page) and [home](https://docs.example.org/).',
    ].join('\n')
    expect(readmeLinkProblems(md, project, join(root, 'docs'))).toEqual([
      'line 1: relative link "docs/guide.md" (dead on npm; link the site instead)',
      'line 1: relative link "#install" (dead on npm; link the site instead)',
      'line 1: relative link "bench/http-chart.png" (dead on npm; link the site instead)',
      'line 2: https://docs.example.org/no-such-page names no page of the site (docs/no-such-page.md)',
    ])
  })

  it('fails a README with no link into the site', () => {
    expect(readmeLinkProblems('[Hono](https://hono.dev)', project)).toEqual([
      'no link into the site (https://docs.example.org/…)',
    ])
  })

  it.each(PUBLISHED as string[])(
    '%s/README.md has only absolute links, into real site pages',
    (dir) => {
      const readme = readFileSync(join(root, dir, 'README.md'), 'utf8')
      expect(readmeLinkProblems(readme, readProject(root))).toEqual([])
    },
  )

  it.each(PUBLISHED as string[])('%s/README.md is a short guide (at most ~300 lines)', (dir) => {
    const lines = readFileSync(join(root, dir, 'README.md'), 'utf8').split('\n').length
    expect(lines).toBeLessThanOrEqual(300)
  })
})

describe('package.json fields derived from the one setting', () => {
  it('derives homepage, repository with directory, and bugs', () => {
    expect(expectedFields(project, 'packages/openapi')).toEqual({
      homepage: 'https://docs.example.org/openapi/',
      repository: {
        type: 'git',
        url: 'git+https://git.example.org/o/r.git',
        directory: 'packages/openapi',
      },
      bugs: { url: 'https://git.example.org/o/r/issues' },
    })
  })

  it('reports each field that drifted from the setting', () => {
    const pkg = { ...expectedFields(project, 'packages/middleware'), homepage: 'https://old.test/' }
    delete (pkg as { bugs?: unknown }).bugs
    const drift = fieldDrift(pkg, project, 'packages/middleware') as string[]
    expect(drift.map((d) => d.split(':')[0])).toEqual(['homepage', 'bugs'])
  })

  it.each(PUBLISHED as string[])('%s/package.json matches the root setting', (dir) => {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'))
    expect(fieldDrift(pkg, readProject(root), dir)).toEqual([])
  })

  it('the setting is one pair of https URLs in the root package.json', () => {
    const { palisade } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    expect(Object.keys(palisade).sort()).toEqual(['repository', 'site'])
    expect(readProject(root)).toEqual({
      site: palisade.site.replace(/\/$/, ''),
      repository: palisade.repository.replace(/\/$/, ''),
    })
  })
})
