import { fuzz, formatFailure } from '@palisade/openapi/fuzz'
import { createApp } from './examples/app'
const { api, close } = await createApp({ RATE_LIMIT_MAX: '100000000' })
const report = await fuzz(api, { seed: 1, runs: 50 })
console.log(JSON.stringify({ ...report, failures: report.failures.length }))
for (const f of report.failures) console.log(formatFailure(f))
await close()
