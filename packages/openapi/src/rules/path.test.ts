import { describe, expect, it } from 'vitest'
import { parseRoutePath } from './path'

describe('parseRoutePath', () => {
  it.each([
    ['/', ['/']],
    ['/users', ['/users']],
    ['/users/', ['/users/']],
    ['/users/:id', ['/users/{id}']],
    ['/orgs/:org/repos/:repo', ['/orgs/{org}/repos/{repo}']],
    ['/posts/:id{[0-9]+}', ['/posts/{id}']],
    ['/files/:path{.+/.+}', ['/files/{path}']],
    ['/posts/:id?', ['/posts', '/posts/{id}']],
    ['/:type?', ['/', '/{type}']],
    ['/o/:a?/:b?', ['/o', '/o/{a}', '/o/{a}/{b}']],
  ])('documents %s as %j', (path, templates) => {
    expect(parseRoutePath(path)?.map((v) => v.template)).toEqual(templates)
  })

  it('turns a Hono regex into an anchored pattern', () => {
    expect(parseRoutePath('/posts/:id{[0-9]+}')?.[0]?.params).toEqual([
      { name: 'id', pattern: '^(?:[0-9]+)$' },
    ])
  })

  it('keeps a regex containing "/" inside one parameter', () => {
    expect(parseRoutePath('/x/:rest{a/b|c}/end')?.[0]).toEqual({
      template: '/x/{rest}/end',
      params: [{ name: 'rest', pattern: '^(?:a/b|c)$' }],
      omitted: [],
    })
  })

  it('lists the optional parameters each variant leaves out', () => {
    expect(parseRoutePath('/o/:a?/:b?')?.map((v) => v.omitted)).toEqual([['a', 'b'], ['b'], []])
  })

  it.each(['*', '/*', '/files/*', '/a/*/b', '/static/*.png'])(
    'refuses the wildcard path %s',
    (path) => {
      expect(parseRoutePath(path)).toBeUndefined()
    },
  )

  it('does not treat a "*" inside a regex as a wildcard', () => {
    expect(parseRoutePath('/n/:n{[0-9]*}')?.[0]?.template).toBe('/n/{n}')
  })
})
