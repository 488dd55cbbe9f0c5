/**
 * concurrencyLimit beside rateLimit on the same route (issue 42: within 5 µs), in process, CPU
 * time in rotated batches. On Node an app runs under @hono/node-server, whose lightweight
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
import { cpuBatches, fmtRatio, settings } from '../lib/measure'
import type { Palisade } from '../lib/palisade'
import { addRow, addTarget, heading, skip } from '../lib/results'

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
  const m = await cpuBatches(
    apps.map((app) => () => one(app)),
    { rounds: settings.quick ? 8 : 24 },
  )
  for (const [i, name] of names.entries()) {
    addRow({
      table,
      name: `${name}${nodeServer ? '' : ', standard Response'}`,
      ns: m.cpu(i),
      ...(i > 0 ? { ratio: m.ratio(i, 0), vs: 'bare route' } : {}),
      note: 'CPU time per request',
    })
  }
  const diffs = m.diffs(2, 1)
  const middle = diffs[diffs.length >> 1] as number
  const us = (ns: number) => `${ns >= 0 ? '+' : ''}${(ns / 1000).toFixed(2)} µs`
  const measured = `${us(middle)} CPU per request over rateLimit (median of ${diffs.length} rounds; rounds ${us(diffs[0] as number)} to ${us(diffs[diffs.length - 1] as number)}; rateLimit ${us(m.diffs(1, 0)[diffs.length >> 1] as number)} over the bare route; ${fmtRatio(m.ratio(2, 1))} of rateLimit's time)`
  addTarget({
    goal: nodeServer
      ? `concurrencyLimit within ${BUDGET_NS / 1000} µs of rateLimit on the same route (@hono/node-server, plain body)`
      : 'concurrencyLimit beside rateLimit on the standard Response, every body a stream (shown)',
    measured,
    met: nodeServer ? middle <= BUDGET_NS : null,
  })
}
