import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { coverage, samplePaths } from './coverage'

describe('samplePaths', () => {
  it('gives paths the route matches, with values on both sides of common constraints', () => {
    const samples = samplePaths('/files/:id')
    expect(samples).toContain('/files/p0')
    expect(samples).toContain('/files/1')
    expect(samples).toContain('/files/a')
    // Hono's `:id` never spans a slash, so that value is dropped.
    expect(samples).not.toContain('/files/x/y')
    expect(samplePaths('/files/:id{[0-9]+}')).toEqual([
      '/files/1',
      '/files/0',
      '/files/12',
      '/files/123456789',
    ])
  })

  it('a trailing wildcard stands for nothing, one segment and several', () => {
    expect(samplePaths('/admin/*')).toEqual(
      expect.arrayContaining(['/admin', '/admin/', '/admin/x', '/admin/x/y']),
    )
  })

  it('an optional parameter is sampled present and left out', () => {
    expect(samplePaths('/posts/:id?')).toEqual(expect.arrayContaining(['/posts', '/posts/p0']))
  })

  it('a constraint no sample fits, or a broken regex, gives no sample', () => {
    expect(samplePaths('/k/:key{[g-z]{40}}')).toEqual([])
    expect(samplePaths('/k/:key{[}')).toEqual([])
  })
})

describe('coverage', () => {
  it.each([
    ['*', '/a/b', 'all'],
    ['/api/*', '/api', 'all'],
    ['/api/*', '/api/users/:id', 'all'],
    ['/api/*', '/apix', 'none'],
    ['/files/:id', '/files/:id{[0-9]+}', 'all'],
    ['/files/:id{[0-9]+}', '/files/:id{[0-9]+}', 'all'],
    // A narrower regex reaches part of the route.
    ['/files/:id{[0-9]+}', '/files/:id', 'some'],
    ['/files/:id{[0-9]}', '/files/:id{[0-9]+}', 'some'],
    ['/files/:id{[a-z]+}', '/files/:id{[0-9]+}', 'none'],
    ['/admin/:page', '/admin/*', 'some'],
    ['/admin', '/admin/*', 'some'],
    ['/posts/:id', '/posts/:id?', 'some'],
    ['/v1/:rest{.+}', '/v1/a/b', 'all'],
  ] as const)('middleware at %s over a route at %s: %s', (pattern, route, expected) => {
    expect(coverage(pattern, route)).toBe(expected)
  })

  it('without samples, only the same path or a literal prefix wildcard counts', () => {
    const route = '/k/:key{[g-z]{40}}'
    expect(coverage(route, route)).toBe('all')
    expect(coverage('/k/*', route)).toBe('all')
    expect(coverage('*', route)).toBe('all')
    expect(coverage('/k/:key', route)).toBe('none')
    expect(coverage('/k/:key{[g-z]+}', route)).toBe('none')
  })

  it('a route path always covers itself, and `*` covers every route (generated paths)', () => {
    const literal = fc.stringMatching(/^[a-z0-9_-]{1,8}$/)
    const segment = fc.oneof(
      literal,
      literal.map((name) => `:${name}`),
      literal.map((name) => `:${name}{[0-9]+}`),
      fc.constant('*'),
    )
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
        const route = `/${segments.join('/')}`
        expect(coverage(route, route)).toBe('all')
        expect(coverage('*', route)).toBe('all')
      }),
      { numRuns: 200 },
    )
  })
})
