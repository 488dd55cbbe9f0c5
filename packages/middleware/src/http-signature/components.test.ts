/** Component values of RFC 9421 §2.1–2.2, from the RFC's own examples. */
import { parseItem } from 'structured-headers'
import { describe, expect, it } from 'vitest'
import { ComponentError, componentValue, signatureBase } from './components'

const message = (url: string, headers: Record<string, string> = {}, method = 'GET') => ({
  method,
  url: new URL(url),
  headers: new Headers(headers),
})
const value = (m: ReturnType<typeof message>, id: string) => componentValue(m, parseItem(id))

describe('derived components (RFC 9421 §2.2)', () => {
  const m = message('https://www.example.com/path?param=value&foo=bar&baz=batman&qux=', {}, 'POST')

  it('gives @method, @authority, @scheme, @target-uri, @request-target, @path, @query', () => {
    expect(value(m, '"@method"')).toBe('POST')
    expect(value(m, '"@authority"')).toBe('www.example.com')
    expect(value(m, '"@scheme"')).toBe('https')
    expect(value(m, '"@target-uri"')).toBe(
      'https://www.example.com/path?param=value&foo=bar&baz=batman&qux=',
    )
    expect(value(m, '"@request-target"')).toBe('/path?param=value&foo=bar&baz=batman&qux=')
    expect(value(m, '"@path"')).toBe('/path')
    expect(value(m, '"@query"')).toBe('?param=value&foo=bar&baz=batman&qux=')
    expect(value(message('https://www.example.com/'), '"@query"')).toBe('?')
    expect(value(message('https://WWW.Example.com:443/'), '"@authority"')).toBe('www.example.com')
    expect(value(message('https://example.com:8443/'), '"@authority"')).toBe('example.com:8443')
  })

  it('gives @query-param values as §2.2.8 encodes them', () => {
    expect(value(m, '"@query-param";name="baz"')).toBe('batman')
    expect(value(m, '"@query-param";name="qux"')).toBe('')
    expect(value(m, '"@query-param";name="param"')).toBe('value')
    const odd = message(
      'https://www.example.com/parameters?var=this%20is%20a%20big%0Amultiline%20value&bar=with+plus+whitespace&fa%C3%A7ade%22%3A%20=something',
    )
    expect(value(odd, '"@query-param";name="var"')).toBe('this%20is%20a%20big%0Amultiline%20value')
    expect(value(odd, '"@query-param";name="bar"')).toBe('with%20plus%20whitespace')
    expect(value(odd, '"@query-param";name="fa%C3%A7ade%22%3A%20"')).toBe('something')
  })

  it('refuses a missing or repeated query parameter, @status on a request, unknown names', () => {
    const twice = message('https://example.com/?a=1&a=2')
    for (const id of [
      '"@query-param";name="a"',
      '"@query-param";name="zz"',
      '"@status"',
      '"@nope"',
      '"@query-param"',
      '"@path";x=1',
    ]) {
      expect(() => value(id.includes('name="a"') ? twice : m, id)).toThrow(ComponentError)
    }
  })
})

describe('field components (RFC 9421 §2.1)', () => {
  it('joins repeated field lines with ", " and trims them', () => {
    const headers = new Headers()
    headers.append('x-list', ' a ')
    headers.append('x-list', 'b')
    expect(componentValue({ headers }, parseItem('"x-list"'))).toBe('a, b')
  })

  it('re-serialises a Dictionary field with sf and picks a member with key (§2.1.1, §2.1.2)', () => {
    const m = message('https://example.com/', { 'cache-control': 'max-age=60,   must-revalidate' })
    expect(value(m, '"cache-control";sf')).toBe('max-age=60, must-revalidate')
    expect(value(m, '"cache-control";key="max-age"')).toBe('60')
    expect(() => value(m, '"cache-control";key="nope"')).toThrow(ComponentError)
    expect(() => value(m, '"cache-control";bs')).toThrow(ComponentError)
  })

  it('refuses a missing field, an upper-case name, a component covered twice, @signature-params', () => {
    const m = message('https://example.com/', { date: 'x' })
    expect(() => value(m, '"content-type"')).toThrow(ComponentError)
    expect(() => value(m, '"Date"')).toThrow(ComponentError)
    expect(() => value(m, '"@signature-params"')).toThrow(ComponentError)
    expect(() => signatureBase(m, [[parseItem('"date"'), parseItem('"date"')], new Map()])).toThrow(
      ComponentError,
    )
  })
})
