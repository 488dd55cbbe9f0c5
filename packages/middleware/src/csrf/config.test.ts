import { describe, expect, it } from 'vitest'
import { csrfConfig } from './config'

describe('csrfConfig', () => {
  it('fills in the defaults and freezes the result', () => {
    const config = csrfConfig({})
    expect(config).toMatchObject({
      cookieName: 'XSRF-TOKEN',
      headerName: 'X-XSRF-Token',
      headerKey: 'x-xsrf-token',
      bodyField: '_csrf',
      signer: undefined,
      origins: undefined,
      dryRun: false,
    })
    expect([...config.safeMethods]).toEqual(['GET', 'HEAD', 'OPTIONS', 'QUERY'])
    expect(Object.isFrozen(config)).toBe(true)
  })

  it('upper-cases safe methods and normalises origins', () => {
    const config = csrfConfig({
      safeMethods: ['get', 'Propfind'],
      origins: ['https://App.Example.com/', 'http://localhost:3000'],
    })
    expect([...config.safeMethods]).toEqual(['GET', 'PROPFIND'])
    expect([...(config.origins ?? [])]).toEqual([
      'https://app.example.com',
      'http://localhost:3000',
    ])
  })

  it('refuses an origin with a path, a query, credentials or no scheme', () => {
    for (const origin of [
      'https://app.example.com/app',
      'https://app.example.com?x=1',
      'https://user@app.example.com',
      'app.example.com',
      'null',
    ]) {
      expect(() => csrfConfig({ origins: [origin] }), origin).toThrow(/"origins" entries/)
    }
  })

  it('checks options in order: the first problem is the one reported', () => {
    expect(() => csrfConfig({ dryRun: 'yes' as never, headerName: 'bad name' })).toThrow(/dryRun/)
    expect(() => csrfConfig({ headerName: 'bad name' })).toThrow(/valid header name/)
    expect(() => csrfConfig({ secret: 'short' })).toThrow(/secret/)
  })

  it('makes a signer only with a secret', () => {
    expect(csrfConfig({ secret: 'x'.repeat(32) }).signer).toBeDefined()
  })
})
