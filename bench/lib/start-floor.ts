// The start suite's loader floor: the smallest server the start command can run, so that the
// example's start minus this one is the example's own share.
import { createServer } from 'node:http'

createServer((_req, res) => res.end('ok')).listen(Number(process.env.PORT), '127.0.0.1')
