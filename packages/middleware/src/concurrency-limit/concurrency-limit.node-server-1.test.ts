// concurrencyLimit on @hono/node-server 1.x (1.19.19, what apps that have not upgraded run): the
// same cases as on 2.x. A file of its own: node-server puts its Response class in the globals.
import { serve } from '@hono/node-server-1'
import { nodeServerCases } from './node-server-cases'

// No HEAD case: 1.19.19 answers HEAD with 500 under Hono 4.13, with no middleware at all.
nodeServerCases('1.19.19', serve as unknown as Parameters<typeof nodeServerCases>[1], false)
