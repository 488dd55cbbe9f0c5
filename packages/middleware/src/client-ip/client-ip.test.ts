// The client-IP rule through Hono's real platform adapters, invoked in-process with synthetic
// platform events: what a deployed app on Vercel, AWS Lambda or Netlify would see.
import { Hono, type MiddlewareHandler } from 'hono'
import { handle as lambda } from 'hono/aws-lambda'
import { handle as netlify } from 'hono/netlify'
import { handle as vercel } from 'hono/vercel'
import { describe, expect, it } from 'vitest'
import { ipGuard } from '../ip-guard'
import { rateLimit } from '../rate-limit'
import { type ClientIpPlatform, clientIp } from './index'

const ATTACKER = '198.51.100.66'
const VICTIM = '192.0.2.50'
const ADMIN_NET = '10.0.0.0/8'
const ADMIN = '10.0.0.5'

/** An app with an allow-listed /admin, a rate-limited /api (1 request) and /ip echoing the rule. */
function buildApp(platform?: ClientIpPlatform) {
  const app = new Hono()
  if (platform) app.use('*', clientIp({ platform }))
  app.use('/admin', ipGuard({ mode: 'allow', list: [ADMIN_NET] }))
  app.get('/admin', (c) => c.text('admin'))
  app.use('/api', rateLimit({ max: 1, windowMs: 60_000 }))
  app.get('/api', (c) => c.text('api'))
  app.get('/ip', (c) => c.text(c.get('clientIp') ?? 'none'))
  return app
}

type Send = (path: string, clientHeaders: Record<string, string>, realIp: string) => Promise<number>

/** Vercel's edge overwrites X-Forwarded-For and X-Real-IP with the address it saw. */
function viaVercel(app: Hono): Send {
  const fetch = vercel(app)
  return async (path, clientHeaders, realIp) => {
    const headers = { ...clientHeaders, 'x-forwarded-for': realIp, 'x-real-ip': realIp }
    return (await fetch(new Request(`https://app.vercel.app${path}`, { headers }))).status
  }
}

/** API Gateway HTTP API / Function URL (payload v2): the source IP is in requestContext.http. */
function viaLambdaV2(app: Hono): Send {
  const handler = lambda(app)
  return async (path, clientHeaders, realIp) => {
    const event = {
      version: '2.0',
      routeKey: '$default',
      rawPath: path,
      rawQueryString: '',
      headers: { host: 'abc.lambda-url.eu-west-1.on.aws', ...clientHeaders },
      requestContext: {
        domainName: 'abc.lambda-url.eu-west-1.on.aws',
        http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: realIp, userAgent: 'test' },
        requestId: 'req-1',
        stage: '$default',
      },
      isBase64Encoded: false,
    }
    return ((await handler(event as never, {} as never)) as { statusCode: number }).statusCode
  }
}

/** API Gateway REST (payload v1): the source IP is in requestContext.identity. */
function viaLambdaV1(app: Hono): Send {
  const handler = lambda(app)
  return async (path, clientHeaders, realIp) => {
    const headers = { host: 'api.example.test', ...clientHeaders }
    const event = {
      httpMethod: 'GET',
      path,
      headers,
      multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
      queryStringParameters: null,
      requestContext: { domainName: 'api.example.test', identity: { sourceIp: realIp } },
      isBase64Encoded: false,
      body: null,
    }
    return ((await handler(event as never, {} as never)) as { statusCode: number }).statusCode
  }
}

/** An ALB appends the address it saw to whatever X-Forwarded-For the client sent. */
function viaAlb(app: Hono): Send {
  const handler = lambda(app)
  return async (path, clientHeaders, realIp) => {
    const sent = clientHeaders['x-forwarded-for']
    const headers = {
      host: 'alb.example.test',
      ...clientHeaders,
      'x-forwarded-for': sent ? `${sent}, ${realIp}` : realIp,
    }
    const event = {
      requestContext: { elb: { targetGroupArn: 'arn:aws:elasticloadbalancing:tg' } },
      httpMethod: 'GET',
      path,
      headers,
      queryStringParameters: {},
      isBase64Encoded: false,
      body: '',
    }
    return ((await handler(event as never, {} as never)) as { statusCode: number }).statusCode
  }
}

/** Netlify passes its Context, with the client's `ip`, to the handler. */
function viaNetlify(app: Hono): Send {
  const fetch = netlify(app)
  return async (path, clientHeaders, realIp) => {
    const req = new Request(`https://site.netlify.app${path}`, {
      headers: { ...clientHeaders, 'x-nf-client-connection-ip': realIp },
    })
    return (await fetch(req, { ip: realIp, geo: {}, requestId: 'r' } as never)).status
  }
}

const FORGED = { 'cf-connecting-ip': ADMIN, 'x-real-ip': ADMIN }

const platforms: Array<[string, (app: Hono) => Send, ClientIpPlatform]> = [
  ['hono/vercel', viaVercel, 'vercel'],
  ['hono/aws-lambda (API Gateway v2)', viaLambdaV2, 'aws-lambda'],
  ['hono/aws-lambda (API Gateway v1)', viaLambdaV1, 'aws-lambda'],
  ['hono/aws-lambda (ALB)', viaAlb, 'aws-lambda'],
  ['hono/netlify', viaNetlify, 'netlify'],
]

describe.each(platforms)('client IP through %s', (_name, via, platform) => {
  describe.each([
    ['without clientIp()', undefined],
    [`with clientIp({ platform: '${platform}' })`, platform],
  ])('%s', (_label, declared) => {
    it('lets an allow-listed client into /admin', async () => {
      const send = via(buildApp(declared))
      expect(await send('/admin', {}, ADMIN)).toBe(200)
    })

    it('keeps an attacker out of /admin whatever cf-connecting-ip it sends', async () => {
      const send = via(buildApp(declared))
      // Everything a client can put in a header; Vercel overwrites x-real-ip and X-Forwarded-For.
      const forged: Record<string, string> =
        platform === 'vercel'
          ? { 'cf-connecting-ip': ADMIN }
          : { ...FORGED, 'x-forwarded-for': ADMIN }
      expect(await send('/admin', forged, ATTACKER)).toBe(403)
    })

    it("does not let an attacker spend a victim's rate-limit bucket", async () => {
      const send = via(buildApp(declared))
      const forged = { 'cf-connecting-ip': VICTIM, 'x-forwarded-for': VICTIM }
      expect(await send('/api', forged, ATTACKER)).toBe(200)
      expect(await send('/api', forged, ATTACKER)).toBe(429)
      // The victim's own first request still passes: the attacker was counted as itself.
      expect(await send('/api', {}, VICTIM)).toBe(200)
    })
  })
})

/** An API Gateway (v1) or Function URL (v2) event that carries no source IP. */
function lambdaWithoutSourceIp(app: Hono, version: 1 | 2) {
  const handler = lambda(app)
  return async (path: string, headers: Record<string, string>) => {
    const event =
      version === 2
        ? {
            version: '2.0',
            rawPath: path,
            rawQueryString: '',
            headers: { host: 'abc.lambda-url.eu-west-1.on.aws', ...headers },
            requestContext: { http: { method: 'GET', path, protocol: 'HTTP/1.1' } },
            isBase64Encoded: false,
          }
        : {
            httpMethod: 'GET',
            path,
            headers: { host: 'api.example.test', ...headers },
            multiValueHeaders: Object.fromEntries(
              Object.entries({ host: 'api.example.test', ...headers }).map(([k, v]) => [k, [v]]),
            ),
            queryStringParameters: null,
            requestContext: { domainName: 'api.example.test', identity: {} },
            isBase64Encoded: false,
            body: null,
          }
    const res = (await handler(event as never, {} as never)) as { statusCode: number; body: string }
    return { status: res.statusCode, body: res.body }
  }
}

describe.each([1, 2] as const)('hono/aws-lambda: a v%s event without a source IP', (version) => {
  it.each([
    ['without clientIp()', undefined],
    ["with clientIp({ platform: 'aws-lambda' })", 'aws-lambda' as const],
  ])('%s, keeps a client claiming an allow-listed X-Forwarded-For out', async (_, platform) => {
    const send = lambdaWithoutSourceIp(buildApp(platform), version)
    const forged = { 'x-forwarded-for': ADMIN }
    expect((await send('/admin', forged)).status).toBe(403)
    if (platform) expect((await send('/ip', forged)).body).toBe('none')
  })
})

describe('clientIp middleware', () => {
  it("puts the platform's address in c.get('clientIp')", async () => {
    const res = await vercel(buildApp('vercel'))(
      new Request('https://app.vercel.app/ip', {
        headers: { 'x-real-ip': ATTACKER, 'x-forwarded-for': `${ADMIN}, 10.9.9.9` },
      }),
    )
    expect(await res.text()).toBe(ATTACKER)
  })

  it('reads x-real-ip on Vercel, so a proxy in front of Vercel does not change the key', async () => {
    const app = buildApp('vercel')
    const fetch = vercel(app)
    const res = await fetch(
      new Request('https://app.vercel.app/ip', {
        headers: { 'x-real-ip': ATTACKER, 'x-forwarded-for': '203.0.113.1' },
      }),
    )
    expect(await res.text()).toBe(ATTACKER)
  })

  it('gives no address when the declared platform left its source empty (fail closed)', async () => {
    const app = buildApp('vercel')
    const res = await vercel(app)(
      new Request('https://app.vercel.app/admin', { headers: { 'x-forwarded-for': ADMIN } }),
    )
    expect(res.status).toBe(403)
    const ip = await vercel(app)(new Request('https://app.vercel.app/ip'))
    expect(await ip.text()).toBe('none')
  })

  it('ignores cf-connecting-ip under a cloudflare declaration when the cf object is missing', async () => {
    const app = buildApp('cloudflare')
    const res = await app.request('/admin', { headers: { 'cf-connecting-ip': ADMIN } })
    expect(res.status).toBe(403)
  })

  it('reads cf-connecting-ip under a cloudflare declaration on a Workers request', async () => {
    const app = buildApp('cloudflare')
    const req = new Request('https://worker.test/admin', { headers: { 'cf-connecting-ip': ADMIN } })
    Object.defineProperty(req, 'cf', { value: { colo: 'AMS' } })
    expect((await app.fetch(req)).status).toBe(200)
  })

  it('declares the platform only for the requests it ran on', async () => {
    const app = new Hono()
    const scoped: MiddlewareHandler = clientIp({ platform: 'vercel' })
    app.use('/scoped/*', scoped)
    app.get('*', (c) => c.text(String(c.get('clientIp'))))
    const headers = { 'x-real-ip': ATTACKER }
    expect(await (await app.request('/scoped/x', { headers })).text()).toBe(ATTACKER)
    expect(await (await app.request('/other', { headers })).text()).toBe('undefined')
  })

  it.each([
    ['no options', undefined, /"platform" is required/],
    ['no platform', {}, /"platform" is required/],
    ['an unknown platform', { platform: 'heroku' }, /"platform" must be one of/],
    ['an unknown option', { platform: 'vercel', trust: true }, /unknown option "trust"/],
  ])('throws a clientIp TypeError for %s', (_, options, message) => {
    const make = () => clientIp(options as never)
    expect(make).toThrow(TypeError)
    expect(make).toThrow(/^clientIp: /)
    expect(make).toThrow(message)
  })

  it('returns a named function', () => {
    expect(clientIp({ platform: 'netlify' }).name).toBe('clientIp')
  })
})
