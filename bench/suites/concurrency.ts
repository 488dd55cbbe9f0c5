/**
 * concurrencyLimit beside rateLimit on the same route (issue 42: within 5 µs), in process, CPU
 * time in paired batches (lib/paired-row.ts). On Node an app runs under @hono/node-server, whose lightweight
 * Response writes a plain body in one call: the row runs the three apps under that Response
 * class (node-server installs it as the global `Response` when it starts listening; here only for
 * the length of the row) and calls them as node-server does, with `env.outgoing` a node:http
 * `close` emitter, emitted once the body has been read, which is when node-server's write
 * ends. A second row, shown, keeps the standard Response of every other runtime, where every
 * body is a stream and the slot follows it through a wrapper.
 */
import { EventEmitter } from 'node:events'
import { getRequestListener } from '@hono/node-server'
import type { Hono, MiddlewareHandler } from 'hono'
import { fmtSpread, settings } from '../lib/measure'
import { pairedTarget } from '../lib/paired-row'
import type { Palisade } from '../lib/palisade'
import { heading, skip } from '../lib/results'

/** The budget of concurrencyLimit over rateLimit, in ns of CPU per request. */
const BUDGET_NS = 5_000

export async function concurrencyRows(
  table: string,
  p: Palisade,
  appWith: (...mw: MiddlewareHandler[]) => Hono,
  headers: Record<string, string>,
): Promise<void> {
  const title = 'concurrencyLimit beside rateLimit (GET, memory store, response body read)'
  if (settings.filter && !settings.filter.test(title)) return
  if (!p.rateLimit || !p.concurrencyLimit) {
    skip(`${title}: module not available`)
    return
  }
  const make = () => [
    appWith(),
    appWith(p.rateLimit?.({ max: 1_000_000_000 }) as MiddlewareHandler),
    appWith(p.concurrencyLimit?.({ max: 1_000 }) as MiddlewareHandler),
  ]
  const saved = { Request: globalThis.Request, Response: globalThis.Response }
  getRequestListener(() => new Response(null)) // installs node-server's Request and Response
  try {
    await row(table, `${title}, on @hono/node-server`, make(), headers, true)
  } finally {
    Object.defineProperty(globalThis, 'Request', { value: saved.Request })
    Object.defineProperty(globalThis, 'Response', { value: saved.Response })
  }
  await row(table, `${title}, standard Response (shown)`, make(), headers, false)
}

async function row(
  table: string,
  title: string,
  apps: Hono[],
  headers: Record<string, string>,
  nodeServer: boolean,
): Promise<void> {
  heading(title)
  const names = [
    'bare route (body read)',
    'palisade rateLimit (body read)',
    'palisade concurrencyLimit (body read)',
  ]
  const one = async (app: Hono) => {
    const outgoing = new EventEmitter()
    const env = nodeServer ? { outgoing } : undefined
    const res = await app.fetch(new Request('http://localhost/', { headers }), env)
    if (res.status !== 200) throw new Error(`${title}: answered ${res.status}`)
    await res.text()
    outgoing.emit('close')
  }
  for (const app of apps) for (let i = 0; i < 200; i++) await one(app)
  await pairedTarget({
    table,
    goal: nodeServer
      ? `concurrencyLimit within ${BUDGET_NS / 1000} µs of rateLimit on the same route (@hono/node-server, plain body)`
      : 'concurrencyLimit beside rateLimit on the standard Response, every body a stream (shown)',
    budgetNs: BUDGET_NS,
    judged: nodeServer,
    // rateLimit first: the target is concurrencyLimit over rateLimit.
    sides: [1, 2, 0].map((i) => ({
      name: `${names[i]}${nodeServer ? '' : ', standard Response'}`,
      run: () => one(apps[i] as Hono),
    })),
    more: (m) => `rateLimit ${fmtSpread(m.diff(0, 2))} over the bare route`,
  })
}
