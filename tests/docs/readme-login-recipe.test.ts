/**
 * The rateLimit page's login recipe (docs/middleware/rate-limit.md), run as written (its ```ts block, transpiled) and attacked:
 * an attacker with an account of their own interleaves logins to it with guesses at a victim's
 * password. The recipe must hold them to `max` guesses per window, however they interleave.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import * as rateLimitModule from '@palisade/middleware/rate-limit'
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const PAGE = fileURLToPath(new URL('../../docs/middleware/rate-limit.md', import.meta.url))

/** The page's ```ts block that defines the login route. */
function loginBlock(): string {
  const blocks = readFileSync(PAGE, 'utf8')
    .split(/^```ts\n/m)
    .slice(1)
  const block = blocks.map((b) => b.slice(0, b.indexOf('\n```'))).find((b) => /\/login'/.test(b))
  if (block === undefined) throw new Error('no login recipe on the rateLimit page')
  return block
}

const PASSWORDS: Record<string, string> = { alice: 'correct horse', mallory: 'mallory-pw' }

/** The recipe's app; `guesses` counts the password checks made for each user. */
function recipeApp() {
  const guesses: Record<string, number> = {}
  const checkPassword = async (user: string, password: string) => {
    guesses[user] = (guesses[user] ?? 0) + 1
    return PASSWORDS[user] === password
  }
  const js = ts.transpileModule(loginBlock(), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText
  const modules: Record<string, unknown> = {
    '@palisade/middleware/rate-limit': rateLimitModule,
    hono: { Hono },
    'hono/http-exception': { HTTPException },
  }
  const require = (name: string) => {
    if (!(name in modules)) throw new Error(`the recipe imports ${name}`)
    return modules[name]
  }
  const app = new Hono()
  new Function('require', 'exports', 'app', 'checkPassword', js)(require, {}, app, checkPassword)
  return { app, guesses }
}

const login = (app: Hono, user: string, password: string, ip = '198.51.100.7') =>
  app.request(
    '/login',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user, password }),
    },
    { incoming: { socket: { remoteAddress: ip } } },
  )

describe('the documented login recipe under attack', () => {
  it('an attacker interleaving logins to their own account gets 5 guesses at a victim, not 40', async () => {
    const { app, guesses } = recipeApp()
    const statuses: number[] = []
    for (let i = 0; i < 40; i++) {
      statuses.push((await login(app, 'alice', `guess-${i}`)).status)
      // Every few guesses, a successful login to the attacker's own account from the same IP.
      if (i % 4 === 3) expect((await login(app, 'mallory', 'mallory-pw')).status).toBe(200)
    }
    expect(guesses.alice).toBe(5)
    expect(statuses.filter((s) => s === 401)).toHaveLength(5)
    expect(statuses.filter((s) => s === 429)).toHaveLength(35)
    // The victim's account, from the attacker's IP, stays locked even with the right password.
    expect((await login(app, 'alice', 'correct horse')).status).toBe(429)
  })

  it('the victim, from their own IP, is not locked out by the attack', async () => {
    const { app } = recipeApp()
    for (let i = 0; i < 10; i++) await login(app, 'alice', `guess-${i}`)
    expect((await login(app, 'alice', 'correct horse', '203.0.113.50')).status).toBe(200)
  })

  it('a successful login clears its own account counter from that IP', async () => {
    const { app, guesses } = recipeApp()
    for (let i = 0; i < 4; i++) await login(app, 'alice', `typo-${i}`)
    expect((await login(app, 'alice', 'correct horse')).status).toBe(200)
    for (let i = 0; i < 5; i++) expect((await login(app, 'alice', `typo-${i}`)).status).toBe(401)
    expect((await login(app, 'alice', 'typo')).status).toBe(429)
    expect(guesses.alice).toBe(10)
  })

  it('a case or spacing variant of the account name is the same account', async () => {
    const { app } = recipeApp()
    for (const user of ['alice', 'Alice', ' ALICE', 'alice ', 'aLiCe']) await login(app, user, 'x')
    expect((await login(app, 'alice', 'y')).status).toBe(429)
  })
})

describe("the same page's x-max-tokens cost, run as written", () => {
  const complete = (app: Hono, header?: string) =>
    app.request(
      '/v1/complete',
      { method: 'POST', headers: header === undefined ? {} : { 'x-max-tokens': header } },
      { incoming: { socket: { remoteAddress: '198.51.100.9' } } },
    )

  it('answers 400 to an empty, zero or malformed header instead of charging nothing', async () => {
    const { app } = recipeApp()
    for (const bad of ['', '0', '-1', '1.5', '1e4', 'abc', '100001']) {
      const res = await complete(app, bad)
      expect(res.status).toBe(400)
      expect(res.headers.get('RateLimit-Remaining')).toBeNull()
    }
  })

  it('charges a missing header 1,000 tokens and a valid one its tokens, then refuses', async () => {
    const { app } = recipeApp()
    const first = await complete(app)
    expect(first.status).toBe(200)
    expect(first.headers.get('RateLimit-Remaining')).toBe('19000')
    expect((await complete(app, '19000')).status).toBe(200)
    // The per-second budget is spent: a 1-token request is refused and the key blocked.
    expect((await complete(app, '1')).status).toBe(429)
  })
})
