import { serve } from '@hono/node-server'
import { createApp } from './app'

const port = Number(process.env.PORT ?? 3000)
const hostname = process.env.HOST ?? '127.0.0.1'

const { api, close, partnerKey } = await createApp()

const server = serve({ fetch: api.fetch, port, hostname }, (info) => {
  const url = `http://${hostname}:${info.port}`
  console.log(`listening on ${url}  (links to the docs at /)`)
  console.log(`  explorer   ${url}/explorer`)
  console.log(`  reference  ${url}/reference`)
  console.log(`  spec       ${url}/openapi.json`)
  if (partnerKey?.generated) {
    // Made at start and shown once, as a real key would be (the store keeps only its hash).
    console.log(`  partner API key (made at start, shown once): ${partnerKey.key}`)
    console.log(`    curl -H 'X-API-Key: ${partnerKey.key}' ${url}/api/keys/whoami`)
  }
})

const shutdown = () => {
  server.close()
  void close().finally(() => process.exit(0))
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
