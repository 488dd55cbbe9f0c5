import { check } from 'recheck'
import { detectRegexLiterals } from './tests/shield/regex-literals.ts'
const t = Date.now()
const all = detectRegexLiterals()
const results = []
for (const r of all) results.push(await check(r.source, r.flags, { timeout: 10000 }))
results.forEach((res, i) => { const r = all[i]!; if (res.status !== 'safe') console.log(r.file, r.line, res.status, res.complexity?.type, res.attack?.pattern?.slice(0,60), '|', r.source.slice(0, 120)) })
console.log(all.length, Date.now() - t, 'ms')
process.exit(0)
