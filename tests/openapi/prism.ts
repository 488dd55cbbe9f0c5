// Prism's validation proxy in front of an app on a loopback port, for the tests that check an
// app's own traffic against its document (example-prism, wrapped-prism). `prism proxy <doc>
// <upstream>` forwards every request and reports what does not match the document in the
// `sl-violations` header; with `--errors` a violation becomes Prism's own error answer, and an
// invalid request is answered by Prism (422, 401) before the app sees it.
import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { join, resolve } from 'node:path'
import { serve } from '@hono/node-server'
import { expect } from 'vitest'

const root = resolve(import.meta.dirname, '../..')

export interface Violation {
  location: string[]
  message: string
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer()
    s.on('error', fail)
    s.listen(0, '127.0.0.1', () => {
      const address = s.address()
      const port = typeof address === 'object' && address ? address.port : 0
      s.close(() => done(port))
    })
  })
}

/** Serves `fetch` on a loopback port; resolves to its origin and a close function. */
export async function serveLoopback(
  fetch: (request: Request) => Response | Promise<Response>,
): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = await new Promise<ReturnType<typeof serve>>((done) => {
    const s = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => done(s))
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((done) => server.close(() => done())),
  }
}

/** The running proxies, so a test file stops what it started (`stopPrism`). */
const proxies: ChildProcess[] = []

/**
 * Starts `prism proxy document upstream` on a loopback port (`--errors` when `errors`) and
 * resolves to its origin once Prism says it is listening.
 */
export async function prism(document: string, upstream: string, errors: boolean): Promise<string> {
  const port = await freePort()
  const args = ['proxy', document, upstream, '-h', '127.0.0.1', '-p', String(port)]
  if (errors) args.push('--errors')
  const child = spawn(join(root, 'tests/node_modules/.bin/prism'), args, {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  proxies.push(child)
  await new Promise<void>((done, fail) => {
    let output = ''
    const read = (chunk: Buffer) => {
      output += chunk
      if (output.includes('Prism is listening')) done()
    }
    child.stdout?.on('data', read)
    child.stderr?.on('data', read)
    child.on('exit', (code) => fail(new Error(`prism exited ${code}: ${output}`)))
  })
  return `http://127.0.0.1:${port}`
}

/**
 * The two proxies a test needs in front of `upstream`: `strict` (`--errors`) for valid requests,
 * `lenient` (reports only) for requests meant to be rejected, which `--errors` would answer itself.
 */
export async function prismPair(
  document: string,
  upstream: string,
): Promise<{ strict: string; lenient: string }> {
  const [strict, lenient] = await Promise.all([
    prism(document, upstream, true),
    prism(document, upstream, false),
  ])
  return { strict, lenient }
}

/** Stops every proxy `prism` started. */
export function stopPrism(): void {
  for (const child of proxies.splice(0)) child.kill('SIGTERM')
}

/** The violations Prism reported for this answer (`sl-violations`), none when absent. */
export function violations(res: Response): Violation[] {
  const header = res.headers.get('sl-violations')
  return header ? (JSON.parse(header) as Violation[]) : []
}

/** The violations Prism reported about the response (not the request). */
export function responseViolations(res: Response): Violation[] {
  return violations(res).filter((v) => v.location[0] === 'response')
}

/** A request a test sends through a proxy, and the status the app must answer. */
export type Exchange = [path: string, init: RequestInit, status: number]

/** Checks more of one answer (`res` is the test's to read). */
type Check = (res: Response, label: string) => unknown

async function send(origin: string, [path, init]: Exchange): Promise<[Response, string]> {
  const res = await fetch(`${origin}${path}`, { ...init, signal: AbortSignal.timeout(15_000) })
  const body = typeof init.body === 'string' ? ` ${init.body}` : ''
  return [res, `${init.method ?? 'GET'} ${path}${body}`]
}

/**
 * Valid requests through the `--errors` proxy: each answered with its status and no violation
 * at all (an undocumented status is only a warning, so the header is checked, not the status).
 */
export async function expectValidTraffic(strict: string, requests: Exchange[], check?: Check) {
  for (const exchange of requests) {
    const [res, label] = await send(strict, exchange)
    expect(violations(res), label).toEqual([])
    expect(res.status, `${label}: ${await res.clone().text()}`).toBe(exchange[2])
    await check?.(res, label)
    if (!res.bodyUsed) await res.arrayBuffer()
  }
}

/**
 * Requests meant to be rejected, through the proxy that only reports: each answered by the app
 * with its status, and Prism may flag the request, never the response.
 */
export async function expectRejections(lenient: string, requests: Exchange[], check?: Check) {
  for (const exchange of requests) {
    const [res, label] = await send(lenient, exchange)
    expect(res.status, `${label}: ${await res.clone().text()}`).toBe(exchange[2])
    expect(responseViolations(res), label).toEqual([])
    await check?.(res, label)
    if (!res.bodyUsed) await res.arrayBuffer()
  }
}
