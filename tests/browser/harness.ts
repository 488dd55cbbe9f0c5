// Shared browser-test plumbing: one Chromium per test file, the app on an ephemeral 127.0.0.1 port,
// and a page guard that records every request leaving the app's origin, every failed request,
// console error, page error and CSP violation.
import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { securityHeaders } from '@palisade/middleware/security-headers'
import { Hono } from 'hono'
import { type BrowserContext, chromium, type Page } from 'playwright-core'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]

/** The app under test: a fetch handler and, optionally, what releases its resources. */
export interface Fetchable {
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>
  close?: () => Promise<void>
}

/** A request the app received, as seen by the server (to prove "Try it out" reached it). */
export interface ServedRequest {
  method: string
  path: string
  status: number
}

export interface RunningServer {
  origin: string
  served: ServedRequest[]
  close: () => Promise<void>
}

/**
 * Serves `app` on 127.0.0.1 at an ephemeral port, optionally behind `securityHeaders()` with its
 * default CSP, and records every request it answers.
 */
export async function startServer(
  app: Fetchable,
  options: { securityHeaders: boolean },
): Promise<RunningServer> {
  const served: ServedRequest[] = []
  const outer = new Hono()
  outer.use('*', async (c, next) => {
    await next()
    served.push({ method: c.req.method, path: new URL(c.req.url).pathname, status: c.res.status })
  })
  if (options.securityHeaders) outer.use('*', securityHeaders())
  // c.env carries @hono/node-server's socket, so the app still sees the client address.
  outer.all('*', (c) => app.fetch(c.req.raw, c.env))
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>(
    (resolve) => {
      const s = serve({ fetch: outer.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
        resolve({ server: s, port: info.port }),
      )
    },
  )
  return {
    origin: `http://127.0.0.1:${port}`,
    served,
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
      })
      await app.close?.()
    },
  }
}

export interface Browser {
  context: BrowserContext
  close: () => Promise<void>
}

/** Launches Debian's Chromium headless with a fresh profile directory. */
export async function launchBrowser(): Promise<Browser> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'palisade-chromium-'))
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
    serviceWorkers: 'block',
  })
  return {
    context,
    close: async () => {
      await context.close()
      await rm(userDataDir, { recursive: true, force: true })
    },
  }
}

/** Everything that went wrong on a page, collected while it ran. */
export interface PageProblems {
  offOrigin: string[]
  failedRequests: string[]
  consoleErrors: string[]
  pageErrors: string[]
  cspViolations: string[]
}

export interface GuardedPage {
  page: Page
  problems: PageProblems
  /** Reads the CSP violations the page saw (they are collected inside the page). */
  collect: () => Promise<PageProblems>
}

/**
 * Opens a page that may talk to `origin` only (and to `alsoAllowed`, origins the test serves
 * itself): any other request is aborted and recorded. HTTP errors count as failed requests
 * unless `allowStatus(url)` says the test caused them on purpose.
 */
export async function openGuardedPage(
  browser: Browser,
  origin: string,
  allowHttpError: (url: URL) => boolean = () => false,
  alsoAllowed: readonly string[] = [],
): Promise<GuardedPage> {
  const allowed = new Set([origin, ...alsoAllowed])
  const page = await browser.context.newPage()
  const problems: PageProblems = {
    offOrigin: [],
    failedRequests: [],
    consoleErrors: [],
    pageErrors: [],
    cspViolations: [],
  }
  await page.route('**/*', async (route) => {
    const url = route.request().url()
    if (allowed.has(new URL(url).origin)) return route.continue()
    problems.offOrigin.push(url)
    return route.abort('blockedbyclient')
  })
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] }
    w.__cspViolations = []
    document.addEventListener('securitypolicyviolation', (event) => {
      w.__cspViolations.push(
        `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
      )
    })
  })
  page.on('console', (message) => {
    if (message.type() === 'error') problems.consoleErrors.push(message.text())
  })
  page.on('pageerror', (error) => problems.pageErrors.push(String(error)))
  page.on('requestfailed', (request) => {
    const url = request.url()
    if (!allowed.has(new URL(url).origin)) return // already recorded as off-origin
    // A load the page itself cancelled is not a failed load: VitePress prefetches linked pages'
    // chunks (as <link rel="prefetch">, resource type "other", or as module scripts) and drops
    // them when it navigates. A refused connection, a reset or an error status still fails
    // (the last is recorded from 'response' below); so does a cancelled document.
    if (
      request.failure()?.errorText === 'net::ERR_ABORTED' &&
      request.resourceType() !== 'document'
    )
      return
    problems.failedRequests.push(`${request.method()} ${url}: ${request.failure()?.errorText}`)
  })
  page.on('response', (response) => {
    const url = new URL(response.url())
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return
    if (response.status() >= 400 && !allowHttpError(url)) {
      problems.failedRequests.push(`${response.request().method()} ${url} → ${response.status()}`)
    }
  })
  return {
    page,
    problems,
    collect: async () => {
      const violations = await page
        .evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])
        .catch(() => [])
      problems.cspViolations.push(...violations)
      return problems
    },
  }
}

/** A page run with nothing to complain about. */
export const NO_PROBLEMS: PageProblems = {
  offOrigin: [],
  failedRequests: [],
  consoleErrors: [],
  pageErrors: [],
  cspViolations: [],
}

interface SpecOperation {
  operationId?: string
  summary?: string
  parameters?: { in?: string; required?: boolean }[]
  requestBody?: { content?: Record<string, unknown> }
  deprecated?: boolean
  responses?: Record<string, { links?: Record<string, unknown> }>
}

/** Operations and component schema names of an OpenAPI document. */
export interface SpecInventory {
  operations: {
    method: string
    path: string
    operationId?: string
    summary?: string
    requiredParameters: number
    jsonBody: boolean
    /** `deprecated: true` in the document (`openapi.deprecated`). */
    deprecated: boolean
    /** The response links (`links` of a route's response), by status and link name. */
    links: { status: string; name: string }[]
  }[]
  /** The document's `webhooks` (OpenAPI 3.1): the explorer lists them beside the operations. */
  webhooks: { method: string; name: string }[]
  schemas: string[]
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

export function inventory(spec: {
  paths?: Record<string, Record<string, SpecOperation>>
  webhooks?: Record<string, Record<string, unknown>>
  components?: { schemas?: Record<string, unknown> }
}): SpecInventory {
  const operations: SpecInventory['operations'] = []
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue
      operations.push({
        method,
        path,
        operationId: op.operationId,
        summary: op.summary,
        requiredParameters: (op.parameters ?? []).filter((p) => p.required).length,
        jsonBody: Object.keys(op.requestBody?.content ?? {}).some((type) => type.includes('json')),
        deprecated: op.deprecated === true,
        links: Object.entries(op.responses ?? {}).flatMap(([status, response]) =>
          Object.keys(response.links ?? {}).map((name) => ({ status, name })),
        ),
      })
    }
  }
  const webhooks = Object.entries(spec.webhooks ?? {}).flatMap(([name, item]) =>
    Object.keys(item)
      .filter((method) => METHODS.includes(method))
      .map((method) => ({ method, name })),
  )
  return { operations, webhooks, schemas: Object.keys(spec.components?.schemas ?? {}) }
}

/** An operation the explorer test runs through "Try it out". */
export interface TryItOut {
  method: 'get' | 'post'
  path: string
  matches: (pathname: string) => boolean
}

/**
 * The operations worth executing from the page: the first GET and the first POST with a JSON body
 * that need no parameter typed in by hand, so Swagger UI's prefilled form is a complete request.
 */
export function pickTryItOut(spec: SpecInventory): TryItOut[] {
  const picked: TryItOut[] = []
  for (const method of ['get', 'post'] as const) {
    const op = spec.operations.find(
      (candidate) =>
        candidate.method === method &&
        candidate.requiredParameters === 0 &&
        !candidate.path.includes('{') &&
        (method === 'get' || candidate.jsonBody),
    )
    if (op) picked.push({ method, path: op.path, matches: (pathname) => pathname === op.path })
  }
  return picked
}
