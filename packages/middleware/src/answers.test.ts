// Every middleware declares its answers once, in `<feature>/answers.ts`
// (internal/outcomes/answers.ts says what is derived from the table). This walks every feature
// folder: each code its source can throw is in its table (a static scan), each row of each table
// is thrown by the input that triggers it and listed by that instance's description (a
// behavioural sample), and docs/guide/rejection-codes.md lists exactly the rows.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { getMiddlewareDescription } from '@palisade/shared/describe'
import { Hono, type MiddlewareHandler } from 'hono'
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose'
import { describe, expect, it } from 'vitest'
import { down, failing, json } from '../test/failing-store'
import { signWith, testKey } from '../test/jwks-server'
import { signedBody, signedPost } from '../test/signed-post'
import { apiKey, createApiKey, MemoryApiKeyStore } from './api-key'
import { ANSWERS as apiKeyAnswers } from './api-key/answers'
import { bodyLimit } from './body-limit'
import { ANSWERS as bodyLimitAnswers } from './body-limit/answers'
import { botGuard } from './bot-guard'
import { ANSWERS as botGuardAnswers } from './bot-guard/answers'
import { concurrencyLimit } from './concurrency-limit'
import { ANSWERS as concurrencyLimitAnswers } from './concurrency-limit/answers'
import { contentTypeGuard } from './content-type-guard'
import { ANSWERS as contentTypeGuardAnswers } from './content-type-guard/answers'
import { csrf } from './csrf'
import { ANSWERS as csrfAnswers } from './csrf/answers'
import { httpSignature } from './http-signature'
import { ANSWERS as httpSignatureAnswers } from './http-signature/answers'
import { idempotency } from './idempotency'
import { ANSWERS as idempotencyAnswers } from './idempotency/answers'
import type { Answers, KnownCode } from './internal/outcomes/answers'
import { Rejection } from './internal/outcomes/rejection'
import { ipGuard } from './ip-guard'
import { ANSWERS as ipGuardAnswers } from './ip-guard/answers'
import { createDpopProof, type DpopOptions, jwtAuth } from './jwt-auth'
import { ANSWERS as jwtAuthAnswers, reject as jwtAuthReject } from './jwt-auth/answers'
import { loadShed } from './load-shed'
import { ANSWERS as loadShedAnswers } from './load-shed/answers'
import { quota } from './quota'
import { ANSWERS as quotaAnswers } from './quota/answers'
import { MemoryRateLimitStore, rateLimit } from './rate-limit'
import { ANSWERS as rateLimitAnswers } from './rate-limit/answers'
import { requestTimeout } from './request-timeout'
import { ANSWERS as requestTimeoutAnswers } from './request-timeout/answers'
import { sessions } from './sessions'
import { ANSWERS as sessionsAnswers } from './sessions/answers'
import { shield } from './shield'
import { ANSWERS as shieldAnswers } from './shield/answers'
import { ssrfGuard } from './ssrf-guard'
import { ANSWERS as ssrfGuardAnswers } from './ssrf-guard/answers'
import { signWebhook, webhook } from './webhook'
import { ANSWERS as webhookAnswers } from './webhook/answers'
import { xssSanitize } from './xss-sanitize'
import { ANSWERS as xssSanitizeAnswers } from './xss-sanitize/answers'

/** Every table, by the factory's name. */
const TABLES: Record<string, Answers<never>> = {
  apiKey: apiKeyAnswers,
  bodyLimit: bodyLimitAnswers,
  botGuard: botGuardAnswers,
  concurrencyLimit: concurrencyLimitAnswers,
  contentTypeGuard: contentTypeGuardAnswers,
  csrf: csrfAnswers,
  httpSignature: httpSignatureAnswers,
  idempotency: idempotencyAnswers,
  ipGuard: ipGuardAnswers,
  jwtAuth: jwtAuthAnswers,
  loadShed: loadShedAnswers,
  quota: quotaAnswers,
  rateLimit: rateLimitAnswers,
  requestTimeout: requestTimeoutAnswers,
  sessions: sessionsAnswers,
  shield: shieldAnswers,
  ssrfGuard: ssrfGuardAnswers,
  webhook: webhookAnswers,
  xssSanitize: xssSanitizeAnswers,
}
const ROWS = Object.entries(TABLES).flatMap(([name, table]) =>
  table.map((row) => ({ name, status: row.status, code: row.code })),
)

const src = import.meta.dirname
const root = join(src, '../../..')
const read = (path: string) => readFileSync(path, 'utf8')
/** `jwt-auth` → `jwtAuth`: a feature folder's factory. */
const factoryOf = (folder: string) => folder.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())
/** Every folder of src but the ground floor, with its source files (tests left out). */
const FOLDERS = readdirSync(src, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'internal')
  .map((d) => ({
    folder: d.name,
    files: readdirSync(join(src, d.name), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .map((f) => ({ file: `${d.name}/${f}`, text: read(join(src, d.name, f)) })),
  }))

/** The argument text of every `reject(…)` and `rejectOrRecord(…)` call in `text`. */
function rejectionCalls(text: string): string[] {
  const calls: string[] = []
  for (const m of text.matchAll(/(?<![.\w])(?:reject|rejectOrRecord)\(/g)) {
    let depth = 1
    let i = (m.index ?? 0) + m[0].length
    const start = i
    for (; i < text.length && depth > 0; i++) {
      if (text[i] === '(') depth++
      else if (text[i] === ')') depth--
    }
    calls.push(text.slice(start, i - 1))
  }
  return calls
}
/** The codes the calls in `text` can throw: every snake_case string in their arguments. */
const thrownCodes = (text: string) =>
  rejectionCalls(text).flatMap((args) =>
    [...args.matchAll(/'([a-z][a-z0-9_]*)'/g)].map((m) => m[1]),
  )

describe('the static scan', () => {
  it('finds the calls it looks for (a scan that reads nothing proves nothing)', () => {
    expect(
      thrownCodes(`reject(401, 'Unauthorized', error ? 'token_invalid' : 'token_missing', {
        'WWW-Authenticate': challenge(f(x)),
      }); Promise.reject(new Error('x')); rejectOrRecord(d, dryRun, 403, message, 'ip_denied')`),
    ).toEqual(['token_invalid', 'token_missing', 'ip_denied'])
    const all = FOLDERS.flatMap(({ files }) => files.flatMap(({ text }) => thrownCodes(text)))
    expect(all.length).toBeGreaterThan(25)
  })
})

describe.each(FOLDERS)('$folder', ({ folder, files }) => {
  const table = TABLES[factoryOf(folder)]
  const thrown = new Set(files.flatMap(({ text }) => thrownCodes(text)))

  it('has a table exactly when it can reject, and throws exactly the codes of its table', () => {
    expect(files.some(({ file }) => file === `${folder}/answers.ts`)).toBe(table !== undefined)
    expect([...thrown].sort()).toEqual([...new Set(table?.map((row) => row.code))].sort())
  })

  it("rejects only through its table's typed reject() and rejectOrRecord()", () => {
    const untyped = files.flatMap(({ file, text }) => {
      if (file === `${folder}/answers.ts`) return []
      const found: string[] = []
      for (const m of text.matchAll(
        /import\s*\{([^}]*)\}\s*from\s*'\.\.\/internal\/(?:[\w-]+\/)?(?:reject|reject-or-record|rejection)'/g,
      )) {
        for (const name of ['reject', 'rejectOrRecord', 'Rejection']) {
          if (new RegExp(`(?<![\\w$])${name}(?![\\w$])`).test(m[1] ?? '')) {
            found.push(`${file} imports ${name}`)
          }
        }
      }
      for (const m of text.matchAll(/new (?:Rejection|HTTPException)\(/g)) {
        found.push(`${file}: ${m[0]}`)
      }
      return found
    })
    expect(untyped).toEqual([])
  })
})

it('knows every folder that has a table', () => {
  const withTable = FOLDERS.filter(({ folder, files }) =>
    files.some(({ file }) => file === `${folder}/answers.ts`),
  ).map(({ folder }) => factoryOf(folder))
  expect(Object.keys(TABLES).sort()).toEqual(withTable.sort())
})

const secret = 's'.repeat(32)
const brokenBody = () => {
  let sent = false
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) controller.error(new Error('connection reset'))
      else {
        sent = true
        controller.enqueue(new Uint8Array(5))
      }
    },
  })
}

/** jwtAuth with `dpop` and a GET to the trigger app's URL with a DPoP-bound token and its proof. */
async function dpopRequest(dpop: DpopOptions) {
  const issuer = await testKey('ES256', 'k1')
  const client = await generateKeyPair('ES256', { extractable: true })
  const jkt = await calculateJwkThumbprint(await exportJWK(client.publicKey))
  const token = await signWith(issuer, { cnf: { jkt } })
  const proof = await createDpopProof('GET', 'http://localhost/', {
    keyPair: client,
    accessToken: token,
  })
  return {
    mw: jwtAuth({ publicKey: issuer.publicKey, dpop }),
    init: { headers: { authorization: `DPoP ${token}`, dpop: proof } },
  }
}

interface Trigger {
  mw: MiddlewareHandler
  init?: RequestInit
  /** Requests sent before the one that is answered (their answers are not looked at). */
  before?: number
  /** The handler behind the middleware. Default: answers `ok`. */
  handler?: (c: Parameters<MiddlewareHandler>[0]) => Response | Promise<Response>
  /** Runs once the answer is in (lets the earlier requests finish). */
  after?: () => void
}

/** For every row of every table, the input that makes the middleware give that answer. */
const TRIGGERS: Record<string, () => Trigger | Promise<Trigger>> = {
  'apiKey api_key_invalid': () => ({ mw: apiKey({ store: new MemoryApiKeyStore() }) }),
  'apiKey api_key_expired': async () => {
    const store = new MemoryApiKeyStore()
    const { key } = await createApiKey({ store, prefix: 'pal_test', expiresAt: 1 })
    return { mw: apiKey({ store }), init: { headers: { 'x-api-key': key } } }
  },
  'apiKey api_key_revoked': async () => {
    const store = new MemoryApiKeyStore()
    const { id, key } = await createApiKey({ store, prefix: 'pal_test' })
    await store.revoke(id)
    return { mw: apiKey({ store }), init: { headers: { 'x-api-key': key } } }
  },
  'apiKey insufficient_scope': async () => {
    const store = new MemoryApiKeyStore()
    const { key } = await createApiKey({ store, prefix: 'pal_test', scopes: ['read'] })
    return { mw: apiKey({ store, scopes: ['write'] }), init: { headers: { 'x-api-key': key } } }
  },
  'apiKey store_unavailable': () => ({
    mw: apiKey({ store: failing }),
    init: { headers: { 'x-api-key': 'k' } },
  }),
  'bodyLimit body_too_large': () => ({
    mw: bodyLimit({ max: 1 }),
    init: { method: 'POST', body: 'too long' },
  }),
  'bodyLimit content_length_mismatch': () => ({
    mw: bodyLimit({ max: 100 }),
    init: { method: 'POST', body: 'hello world', headers: { 'content-length': '5' } },
  }),
  'bodyLimit body_unreadable': () => ({
    mw: bodyLimit({ max: 100 }),
    init: { method: 'POST', body: brokenBody(), duplex: 'half' } as RequestInit,
  }),
  'botGuard bot_denied': () => ({
    mw: botGuard({ deny: ['library'] }),
    init: { headers: { 'user-agent': 'curl/8.4.0' } },
  }),
  'concurrencyLimit concurrency_limited': () => {
    // The first request holds the only slot until the second has been answered.
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let calls = 0
    return {
      mw: concurrencyLimit({ max: 1, key: () => 'k' }),
      before: 1,
      handler: async (c) => {
        if (++calls === 1) await held
        return c.text('ok')
      },
      init: { signal: AbortSignal.timeout(5_000) },
      after: release,
    }
  },
  'concurrencyLimit store_unavailable': () => ({
    mw: concurrencyLimit({ max: 1, store: failing, onStoreError: () => {} }),
  }),
  'contentTypeGuard unsupported_media_type': () => ({
    mw: contentTypeGuard({ required: ['application/json'] }),
    init: { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } },
  }),
  'csrf csrf_token_invalid': () => ({ mw: csrf(), init: { method: 'POST' } }),
  'idempotency idempotency_key_missing': () => ({
    mw: idempotency({ required: true }),
    init: { method: 'POST', body: 'x' },
  }),
  'idempotency idempotency_key_invalid': () => ({
    mw: idempotency(),
    init: { method: 'POST', body: 'x', headers: { 'idempotency-key': 'not-quoted' } },
  }),
  'idempotency idempotency_in_flight': () => {
    // The first request holds the key until the second has been answered.
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let calls = 0
    return {
      mw: idempotency(),
      before: 1,
      handler: async (c) => {
        if (++calls === 1) await held
        return c.text('ok')
      },
      init: { method: 'POST', body: 'x', headers: { 'idempotency-key': '"k"' } },
      after: release,
    }
  },
  'idempotency idempotency_key_reused': () => {
    let n = 0
    return {
      // Each request has its own fingerprint: the second is another request under the same key.
      mw: idempotency({ fingerprint: () => String(++n) }),
      before: 1,
      init: { method: 'POST', body: 'x', headers: { 'idempotency-key': '"k"' } },
    }
  },
  'idempotency store_unavailable': () => ({
    mw: idempotency({
      store: {
        begin: () => Promise.reject(new Error('down')),
        complete: async () => true,
        release: async () => {},
      },
      onStoreError: () => {},
    }),
    init: { method: 'POST', body: 'x', headers: { 'idempotency-key': '"k"' } },
  }),
  'ipGuard ip_denied': () => ({ mw: ipGuard({ mode: 'allow', list: ['10.0.0.1'] }) }),
  'jwtAuth token_missing': () => ({ mw: jwtAuth({ secret }) }),
  'jwtAuth token_invalid': () => ({
    mw: jwtAuth({ secret }),
    init: { headers: { authorization: 'Bearer x.y.z' } },
  }),
  'jwtAuth insufficient_scope': async () => {
    const key = await testKey('ES256', 'k1')
    return {
      mw: jwtAuth({ publicKey: key.publicKey, scopes: ['write:items'] }),
      init: {
        headers: { authorization: `Bearer ${await signWith(key, { scope: 'read:items' })}` },
      },
    }
  },
  'jwtAuth jwks_unavailable': async () => {
    const key = await testKey('ES256', 'k1')
    return {
      mw: jwtAuth({
        jwks: 'https://keys.example/.well-known/jwks.json',
        fetch: () => new Response('down', { status: 500 }),
      }),
      init: { headers: { authorization: `Bearer ${await signWith(key, {})}` } },
    }
  },
  'jwtAuth invalid_dpop_proof': async () => {
    const { mw, init } = await dpopRequest({ mode: 'required' })
    return { mw, init: { headers: { ...init.headers, dpop: 'not-a-proof' } } }
  },
  'jwtAuth use_dpop_nonce': async () => {
    const { mw, init } = await dpopRequest({ mode: 'required', nonce: {} })
    return { mw, init }
  },
  'jwtAuth store_unavailable': async () => {
    const { mw, init } = await dpopRequest({ mode: 'required', nonceStore: failing })
    return { mw, init }
  },
  'httpSignature signature_missing': () => ({ mw: httpSignature({ keys: () => undefined }) }),
  'httpSignature signature_invalid': () => ({
    mw: httpSignature({ keys: () => undefined }),
    init: { headers: { 'signature-input': 'sig1=()', signature: 'sig1=:AAAA:' } },
  }),
  'httpSignature digest_mismatch': async () => {
    const { key, signed } = await signedPost()
    return {
      mw: httpSignature({ keys: () => key }),
      init: { method: 'POST', headers: signed.headers, body: 'not what was signed' },
    }
  },
  'httpSignature jwks_unavailable': async () => {
    const { signed } = await signedPost()
    return {
      mw: httpSignature({
        keys: 'https://keys.example/.well-known/jwks.json',
        fetch: () => new Response('down', { status: 500 }),
      }),
      init: { method: 'POST', headers: signed.headers, body: signedBody },
    }
  },
  'httpSignature store_unavailable': async () => {
    const { key, signed } = await signedPost()
    return {
      mw: httpSignature({ keys: () => key, nonce: { claim: down } }),
      init: { method: 'POST', headers: signed.headers, body: signedBody },
    }
  },
  'loadShed overloaded': () => {
    // The first request holds the only slot until the second has been answered.
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let calls = 0
    return {
      mw: loadShed({ maxInFlight: 1 }),
      before: 1,
      handler: async (c) => {
        if (++calls === 1) await held
        return c.text('ok')
      },
      init: { signal: AbortSignal.timeout(5_000) },
      after: release,
    }
  },
  'quota quota_exceeded': () => ({
    mw: quota({ limit: 1, period: 'day', store: new MemoryRateLimitStore(), key: () => 'k' }),
    before: 1,
  }),
  'quota store_unavailable': () => ({
    mw: quota({ limit: 1, period: 'month', store: failing, onStoreError: () => {} }),
  }),
  'rateLimit rate_limited': () => ({ mw: rateLimit({ max: 1 }), before: 1 }),
  'rateLimit store_unavailable': () => ({
    mw: rateLimit({ store: failing, onStoreError: () => {} }),
  }),
  'requestTimeout request_timeout': () => ({
    mw: requestTimeout({ ms: 5 }),
    handler: async (c) => {
      await new Promise((resolve) => setTimeout(resolve, 50))
      return c.text('late')
    },
  }),
  'sessions store_unavailable': () => ({
    mw: sessions({ secret, store: failing }),
    // A session reaches its store when it is written.
    handler: (c) => {
      c.get('session').set('n', 1)
      return c.text('ok')
    },
  }),
  'shield attack_detected': () => ({
    mw: shield(),
    init: json('{"comment":"<script>alert(1)</script>"}'),
  }),
  'shield body_too_large': () => ({
    mw: shield({ uninspected: 'refuse', maxInspectBytes: 8 }),
    init: json('{"comment":"a clean comment, longer than the cap"}'),
  }),
  'shield unsupported_media_type': () => ({
    mw: shield({ uninspected: 'refuse' }),
    init: {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'compress' },
    },
  }),
  'ssrfGuard url_invalid': () => ({ mw: ssrfGuard(), init: json('{"url":"ftp://x"}') }),
  'ssrfGuard url_forbidden': () => ({ mw: ssrfGuard(), init: json('{"url":"http://127.0.0.1/"}') }),
  'ssrfGuard unsupported_media_type': () => ({
    mw: ssrfGuard(),
    init: {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    },
  }),
  'webhook webhook_signature_invalid': () => ({
    mw: webhook({ preset: 'github', secret }),
    init: {
      method: 'POST',
      body: '{}',
      headers: { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` },
    },
  }),
  'webhook webhook_timestamp_invalid': async () => {
    const signed = await signWebhook('{}', { preset: 'slack', secret, timestamp: 1 })
    return {
      mw: webhook({ preset: 'slack', secret }),
      init: { method: 'POST', body: signed.body as string, headers: signed.headers },
    }
  },
  'webhook body_unreadable': () => ({
    mw: webhook({ preset: 'github', secret }),
    init: {
      method: 'POST',
      body: brokenBody(),
      duplex: 'half',
      headers: { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` },
    } as RequestInit,
  }),
  'webhook body_too_large': () => ({
    mw: webhook({ preset: 'github', secret, maxBodyBytes: 1 }),
    init: {
      method: 'POST',
      body: '{}',
      headers: { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` },
    },
  }),
  'webhook store_unavailable': async () => {
    const signed = await signWebhook('{}', { preset: 'github', secret })
    return {
      mw: webhook({ preset: 'github', secret, nonces: failing }),
      init: { method: 'POST', body: signed.body as string, headers: signed.headers },
    }
  },
  'xssSanitize malformed_body': () => ({ mw: xssSanitize(), init: json('{bad') }),
  'xssSanitize body_too_deep': () => ({
    mw: xssSanitize(),
    init: json(`${'['.repeat(1001)}${']'.repeat(1001)}`),
  }),
  'xssSanitize unsupported_media_type': () => ({
    mw: xssSanitize(),
    init: {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    },
  }),
}

describe('every row of every table', () => {
  it('has a trigger here (a new row needs the input that gives it)', () => {
    expect(Object.keys(TRIGGERS).sort()).toEqual(ROWS.map((r) => `${r.name} ${r.code}`).sort())
  })

  it.each(ROWS)(
    '$name answers $status $code, and its description lists it',
    async ({ name, status, code }) => {
      const trigger = (await TRIGGERS[`${name} ${code}`]?.()) as Trigger
      const app = new Hono()
      const caught: unknown[] = []
      app.onError((err, c) => {
        caught.push(err)
        return c.text('handled', 500)
      })
      app.all('/', trigger.mw, trigger.handler ?? ((c) => c.text('ok')))
      const earlier = Array.from({ length: trigger.before ?? 0 }, () =>
        app.request('http://localhost/', trigger.init),
      )
      await new Promise((resolve) => setTimeout(resolve, 0))
      await app.request('http://localhost/', trigger.init)
      trigger.after?.()
      await Promise.all(earlier)
      expect(caught).toHaveLength(1)
      expect(caught[0]).toBeInstanceOf(Rejection)
      expect(caught[0]).toMatchObject({ status, code })
      const documented = getMiddlewareDescription(trigger.mw)?.responses?.find(
        (r) => r.status === status,
      )
      expect(documented?.codes).toContain(code)
    },
  )
})

/** `| \`code\` | status | …` rows of a markdown page. */
const codeRows = (page: string) =>
  [...page.matchAll(/^\| `([a-z][a-z0-9_]*)` +\| (\d{3}) +\| (.*?) *\|$/gm)].map((m) => ({
    code: m[1] as string,
    status: Number(m[2]),
    text: m[3] as string,
  }))

describe.each(
  FOLDERS.map(({ folder }) => folder).filter((folder) => TABLES[factoryOf(folder)] !== undefined),
)('docs/middleware/%s.md', (folder) => {
  it("lists exactly its table's rows under Rejections", () => {
    const page = read(join(root, `docs/middleware/${folder}.md`))
    const listed = codeRows(page).map((r) => `${r.status} ${r.code}`)
    const table = TABLES[factoryOf(folder)] ?? []
    expect(listed.sort()).toEqual(table.map((r) => `${r.status} ${r.code}`).sort())
  })
})

describe('docs/guide/rejection-codes.md', () => {
  const page = read(join(root, 'docs/guide/rejection-codes.md'))
  const rows = codeRows(page).map(({ code, status, text }) => ({ code, status, thrownBy: text }))
  /** The factories a page row names as throwing its code. */
  const namedIn = (thrownBy: string) =>
    [...thrownBy.matchAll(/`(\w+)`/g)].map((m) => m[1] as string).filter((n) => n in TABLES)

  it('has one row per code', () => {
    expect(rows.length).toBeGreaterThan(15)
    expect(new Set(rows.map((r) => r.code)).size).toBe(rows.length)
  })

  it('lists every row of every table: its code, its status and the middleware', () => {
    const listed = rows.flatMap((r) =>
      namedIn(r.thrownBy).map((name) => `${name} ${r.status} ${r.code}`),
    )
    expect(listed.sort()).toEqual(ROWS.map((r) => `${r.name} ${r.status} ${r.code}`).sort())
  })

  it('lists every code of the shared list (@palisade/shared/codes)', () => {
    const shared = read(join(root, 'packages/shared/src/codes.ts'))
    const union = shared.slice(
      shared.indexOf('export type RejectionCode'),
      shared.indexOf('(string & {})'),
    )
    const codes = [...union.matchAll(/\| '([a-z][a-z0-9_]*)'/g)].map((m) => m[1])
    expect(codes.length).toBeGreaterThan(15)
    // json_malformed is no longer answered; the page says so in the malformed_body row.
    const answered = codes.filter((code) => code !== 'json_malformed')
    expect(rows.map((r) => r.code).sort()).toEqual(answered.sort())
  })
})

// Type-level checks, run by `pnpm typecheck`: a table takes only codes of the shared list, and a
// feature's reject() only its table's statuses and codes.
function typeChecks() {
  const unknownCode = [
    // @ts-expect-error not a code of @palisade/shared/codes
    { status: 400, code: 'made_up', description: 'x' },
  ] as const satisfies Answers
  const known: KnownCode = 'rate_limited'
  // @ts-expect-error jwtAuth has no 429
  jwtAuthReject(429, 'Too many', 'rate_limited')
  // @ts-expect-error jwtAuth's 401 is not insufficient_scope
  jwtAuthReject(401, 'Unauthorized', 'insufficient_scope')
  jwtAuthReject(403, 'Forbidden', 'insufficient_scope')
  return [unknownCode, known]
}
void typeChecks
