import { describe, expect, it } from 'vitest'
import { contentCodings } from './content-coding'

describe('contentCodings', () => {
  it.each([
    ['gzip', ['gzip']],
    [' GZip ', ['gzip']],
    ['identity', []],
    ['', []],
    ['deflate, gzip', ['deflate', 'gzip']],
    ['gzip,,identity', ['gzip']],
    ['br', ['br']],
  ])('%j', (header, codings) => {
    expect(contentCodings(header)).toEqual(codings)
  })
})
