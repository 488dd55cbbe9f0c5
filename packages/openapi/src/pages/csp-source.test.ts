import fc from 'fast-check'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { cspSource } from './csp-source'
import { EXPLORER_CSP } from './explorer'
import { authorizeURLs, explorerCSPFor, mountDocsPages } from './index'

/** A CSP host-source as we emit it: scheme, host of letters, digits and dashes, optional port. */
const SOURCE = /^(?:https?|wss?):\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::\d{1,5})?$/
const directiveNames = (csp: string) => csp.split(';').map((d) => d.trim().split(' ')[0])

describe('cspSource', () => {
  it.each([
    ['https://api.example.com/v1', 'https://api.example.com'],
    ['http://localhost:8787', 'http://localhost:8787'],
    ['HTTPS://API.Example.COM:8443/x?y#z', 'https://api.example.com:8443'],
    ['https://ex.com:443/', 'https://ex.com'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
    ['https://user:pw@api.example.com/', 'https://api.example.com'],
    ['wss://stream.example.com/feed', 'wss://stream.example.com'],
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
  ])('%j → %j (the origin only)', (url, source) => {
    expect(cspSource(url)).toBe(source)
  })

  it.each([
    ['a directive after ;', "https://a.example;script-src 'unsafe-inline'"],
    ['a directive after ; without space', 'https://a.example;report-uri=x'],
    ['a second policy after ,', 'https://a.example,b'],
    ['a quote', "https://a.example'"],
    ['a double quote', 'https://a"b.example'],
    ['a tab (URL parsing drops it, the ; stays)', 'https://a.example\t;script-src *'],
    ['a newline', 'https://a.example\n;script-src *'],
    ['a space', 'https://a.example script-src'],
    ['a wildcard', 'https://*.example.com'],
    ['other punctuation', 'https://a!$&()+=b.com'],
    ['a template', 'https://{region}.example.com'],
    ['an IPv6 literal (no CSP spelling)', 'http://[::1]:8080/'],
    ['a relative URL', '/v1'],
    ['another scheme', 'ftp://files.example.com'],
    ['a script URL', 'javascript:alert(1)'],
    ['not a URL', 'https://'],
  ])('refuses %s', (_label, url) => {
    expect(cspSource(url)).toBeNull()
  })
})

describe('explorerCSPFor', () => {
  it('adds no directive for a server URL carrying ; , quotes or whitespace', () => {
    const csp = explorerCSPFor([
      { url: "https://a.example;script-src 'unsafe-inline' *" },
      { url: 'https://b.example,script-src *' },
      { url: 'https://c.example;report-uri=https://evil.example' },
      { url: 'https://d.example\t;script-src *' },
      { url: 'https://ok.example/v1' },
    ])
    expect(csp).toBe(
      EXPLORER_CSP.replace("connect-src 'self'", "connect-src 'self' https://ok.example"),
    )
  })

  it('property: no server URL can add or change a directive, or start a second policy', () => {
    const pieces = fc.constantFrom(
      ...'aZ09-._~:/?#[]@!$&\'()*+,;=%" \t\n\r\f\v{}<>\\^`|'.split(''),
      ';script-src *',
      ", default-src 'unsafe-inline'",
      "'unsafe-eval'",
      'report-uri /x',
      'example.com',
      'xn--',
      '\u00a0',
      '\u2028',
      'ü',
    )
    const url = fc.oneof(
      fc
        .tuple(
          fc.constantFrom('http://', 'https://', 'ws://', 'wss://', 'HTTP://', 'ftp://', ''),
          fc.array(pieces, { maxLength: 12 }).map((p) => p.join('')),
        )
        .map(([scheme, rest]) => scheme + rest),
      fc
        .webUrl()
        .chain((u) =>
          fc
            .tuple(fc.nat(u.length), pieces)
            .map(([at, piece]) => u.slice(0, at) + piece + u.slice(at)),
        ),
      fc.string({ unit: 'binary', maxLength: 60 }).map((s) => `https://${s}`),
    )
    const expected = directiveNames(EXPLORER_CSP)
    fc.assert(
      fc.property(fc.array(fc.record({ url }), { maxLength: 4 }), (servers) => {
        const csp = explorerCSPFor(servers)
        expect(csp).not.toMatch(/[,\r\n\t\f\v"]/)
        expect(directiveNames(csp)).toEqual(expected)
        // Everything but connect-src is the page's own policy, word for word.
        const connect = csp.split('; ').find((d) => d.startsWith('connect-src ')) ?? ''
        expect(csp.replace(connect, "connect-src 'self'")).toBe(EXPLORER_CSP)
        const [, self, ...sources] = connect.split(' ')
        expect(self).toBe("'self'")
        for (const source of sources) expect(source).toMatch(SOURCE)
      }),
      { numRuns: 500 },
    )
  })
})

describe('the explorer policy and the security schemes', () => {
  it('lists the URLs Authorize fetches: OIDC discovery, OAuth 2 token and refresh URLs', () => {
    expect(
      authorizeURLs({
        oidc: {
          type: 'openIdConnect',
          openIdConnectUrl: 'https://id.example.com/.well-known/openid-configuration',
        },
        oauth: {
          type: 'oauth2',
          flows: {
            clientCredentials: { tokenUrl: 'https://token.example.net/t', scopes: {} },
            authorizationCode: {
              authorizationUrl: 'https://login.example.org/a',
              tokenUrl: 'https://token.example.net/t',
              refreshUrl: 'https://refresh.example.net/r',
              scopes: {},
            },
          },
        },
        bearer: { type: 'http', scheme: 'bearer' },
        broken: null,
      }),
    ).toEqual([
      'https://id.example.com/.well-known/openid-configuration',
      'https://token.example.net/t',
      'https://token.example.net/t',
      'https://refresh.example.net/r',
    ])
  })

  it('allows their origins in connect-src, read when the page is served, and nothing hostile', async () => {
    let schemes: Record<string, unknown> = {}
    const app = new Hono()
    mountDocsPages(app, {
      specPath: '/openapi.json',
      explorerPath: '/explorer',
      referencePath: '/reference',
      title: 'T',
      servers: [{ url: 'https://api.example.com' }],
      securitySchemes: () => schemes,
    })
    const policy = async () =>
      (await app.request('/explorer')).headers.get('content-security-policy')
    expect(await policy()).toContain("connect-src 'self' https://api.example.com;")
    schemes = {
      oidc: {
        type: 'openIdConnect',
        openIdConnectUrl: 'https://ID.example.com:8443/.well-known/x',
      },
      evil: {
        type: 'openIdConnect',
        openIdConnectUrl: "https://a.example;script-src 'unsafe-inline'",
      },
    }
    const csp = await policy()
    expect(csp).toContain("connect-src 'self' https://api.example.com https://id.example.com:8443;")
    expect(directiveNames(csp ?? '')).toEqual(directiveNames(EXPLORER_CSP))
  })
})
