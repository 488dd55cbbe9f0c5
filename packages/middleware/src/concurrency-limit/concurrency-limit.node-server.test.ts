// concurrencyLimit served by a real @hono/node-server (issue 42): a plain body (c.json, c.text)
// keeps node-server's one-write path, and the slot comes back on node:http's `close` of the
// response: once the answer is out, on the client's abort, after a throw. A streamed body holds
// its slot until the stream ends. The version matrix (tests/versions) runs this file on the
// oldest and newest node-server, with the borrowed internals on and switched off.
import { nodeServerCases } from './node-server-cases'

nodeServerCases('(installed)')
