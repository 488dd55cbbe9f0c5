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

describe('the samples a route is tried with', () => {
  it('an unconstrained parameter: the first value, then each other one Hono matches in a segment', () => {
    expect(samplePaths('/f/:id')).toEqual([
      '/f/p0',
      '/f/1',
      '/f/a',
      '/f/A',
      '/f/0',
      '/f/12',
      '/f/123456789',
      '/f/abc',
      '/f/Z',
      '/f/_',
      '/f/-',
      '/f/.',
      '/f/~',
      '/f/a-b',
      '/f/a_b',
      '/f/a.b',
      '/f/v1',
      '/f/p0.json',
      '/f/%20',
      '/f/%2F',
      // `x/y` is left out: `:id` never spans a slash.
      '/f/0123456789abcdef01234567',
      '/f/123e4567-e89b-12d3-a456-426614174000',
    ])
  })

  it.each([
    ['[a-z]+', ['a', 'abc']],
    ['[A-Z]', ['A', 'Z']],
    ['[0-9]', ['1', '0']],
    ['[0-9]{2,}', ['12', '123456789']],
    ['[a-z][0-9]', ['p0', 'v1']],
    ['v[0-9]+', ['v1']],
    ['[^a-zA-Z0-9%]', ['_', '-', '.', '~']],
    ['[a-z]+[-_.][a-z]+', ['a-b', 'a_b', 'a.b']],
    ['.+\\.json', ['p0.json']],
    ['%[0-9A-F]{2}', ['%20', '%2F']],
    ['.+/.+', ['x/y']],
    ['[0-9a-f]{24}', ['0123456789abcdef01234567']],
    [
      '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}',
      ['123e4567-e89b-12d3-a456-426614174000'],
    ],
  ])('a parameter constrained by %s takes the values it accepts', (regex, values) => {
    expect(samplePaths(`/f/:id{${regex}}`)).toEqual(values.map((v) => `/f/${v}`))
  })

  it('a lone wildcard stands for nothing, one segment and several', () => {
    expect(samplePaths('/admin/*')).toEqual([
      '/admin/',
      '/admin/x',
      '/admin/x/y',
      '/admin/1/a/_',
      '/admin',
    ])
    expect(samplePaths('*')).toEqual(['/', '/x', '/x/y', '/1/a/_'])
    expect(samplePaths('/*')).toEqual(['/', '/x', '/x/y', '/1/a/_'])
  })

  it('a wildcard inside a segment is replaced by each wildcard value', () => {
    expect(samplePaths('/a/x*')).toEqual(['/a/x', '/a/xx', '/a/xx/y', '/a/x1/a/_'])
  })

  it('an optional parameter takes its regex values, then is left out', () => {
    expect(samplePaths('/a/:id{[0-9]+}?')).toEqual(['/a/1', '/a/0', '/a/12', '/a/123456789', '/a'])
  })

  it('each part varies alone, the others at their first value', () => {
    expect(samplePaths('/a/:x{[a-z]+}/:y{[0-9]}/*')).toEqual([
      '/a/a/1/',
      '/a/abc/1/',
      '/a/a/0/',
      '/a/a/1/x',
      '/a/a/1/x/y',
      '/a/a/1/1/a/_',
      '/a/a/1',
    ])
  })

  it('the order: the first value of every part, then each part varied in turn', () => {
    expect(samplePaths('/a/:x{[0-9]}/:y{[0-9]}?')).toEqual(['/a/1/1', '/a/0/1', '/a/1/0', '/a/1'])
  })

  it('an optional part no sample fits leaves no sample, as a required one does', () => {
    expect(samplePaths('/k/:key{[g-z]{40}}?')).toEqual([])
  })

  it('a segment Hono reads as a literal is tried as written', () => {
    expect(samplePaths('/t/12:30')).toEqual(['/t/12:30'])
    expect(samplePaths('/a/:id{x}y')).toEqual(['/a/:id{x}y'])
    expect(samplePaths('/')).toEqual(['/'])
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
    // Each found by one sample value: a slash, a leading zero, nine digits, encoded bytes.
    ['/v/:rest', '/v/:rest{.+}', 'some'],
    ['/f/:id{[1-9][0-9]*}', '/f/:id{[0-9]+}', 'some'],
    ['/f/:id{[0-9]{1,8}}', '/f/:id{[0-9]+}', 'some'],
    ['/f/:id{[^%]+}', '/f/:id', 'some'],
    ['/f/:id{[0-9a-f]{24}}', '/f/:id{[0-9a-f]{24}}', 'all'],
    ['/api/:v{v[0-9]+}/*', '/api/:v{v[0-9]+}/users', 'all'],
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
    // A literal path is no prefix, and a prefix counts up to a `/` only.
    expect(coverage('/k/x', route)).toBe('none')
    expect(coverage('/k/*', '/kk/:key{[g-z]{40}}')).toBe('none')
    expect(coverage('/k/*', '/k:key{[g-z]{40}}')).toBe('none')
    expect(coverage('/api/*', '/api/:key{[g-z]{40}}')).toBe('all')
    expect(coverage('/*', route)).toBe('all')
  })

  it("a middleware path Hono's router refuses (a broken regex) reaches nothing", () => {
    expect(coverage('/k/:key{[}', '/k/x')).toBe('none')
    expect(coverage('/k/:key{[}', '/k/:key')).toBe('none')
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
