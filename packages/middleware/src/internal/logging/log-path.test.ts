import { describe, expect, it } from 'vitest'
import { rawPath, redactPathParams, stripPathParams } from './log-path'

describe('log paths', () => {
  it.each([
    ['http://h/a/b?x=1#f', '/a/b'],
    ['http://h/a#f?x', '/a'],
    ['http://h', '/'],
    ['http://h/a%0d%0ab', '/a%0d%0ab'],
  ])('rawPath(%s) is %s', (url, path) => {
    expect(rawPath(url)).toBe(path)
  })

  it.each([
    ['/cart;jsessionid=1A2B', '/cart;jsessionid=[redacted]', '/cart'],
    ['/a;token=s;v=2/b;sid=x/c', '/a;token=[redacted];v=[redacted]/b;sid=[redacted]/c', '/a/b/c'],
    ['/a;flag/b', '/a;flag/b', '/a;flag/b'],
    ['/a%3Bjsessionid=1A2B', '/a%3Bjsessionid=1A2B', '/a%3Bjsessionid=1A2B'],
  ])('%s is logged as %s and traced as %s', (path, logged, traced) => {
    expect(redactPathParams(path)).toBe(logged)
    expect(stripPathParams(path)).toBe(traced)
  })
})
