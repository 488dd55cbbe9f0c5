// Extracts the OWASP CRS regression cases that measure shield() into tests/fixtures/crs/cases.json.
// Run once per CRS update, against a checkout of coreruleset/coreruleset:
//   node bench/crs/extract.mjs /path/to/coreruleset
// Keeps, for the attack categories shield() covers, each test stage that expects its rule to fire
// or expects it not to fire, with the rule's paranoia level and only the request parts that carry
// input (method, uri, the headers a test sets beyond the go-ftw defaults, body).
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'

const root = process.argv[2]
if (!root) throw new Error('usage: node bench/crs/extract.mjs <coreruleset checkout>')
const CATEGORIES = ['913', '930', '931', '932', '933', '934', '941', '942', '944']
const DEFAULT_HEADERS = new Set([
  'host',
  'accept',
  'accept-language',
  'accept-encoding',
  'accept-charset',
  'connection',
  'content-length',
  'proxy-connection',
  'keep-alive',
  'cache-control',
])

/** rule id -> paranoia level, read from the tag:'paranoia-level/N' of each rule. */
function paranoiaLevels() {
  const levels = new Map()
  for (const file of readdirSync(join(root, 'rules'))) {
    if (!file.endsWith('.conf')) continue
    let id
    for (const line of readFileSync(join(root, 'rules', file), 'utf8').split('\n')) {
      const idMatch = /\bid:(\d{6})/.exec(line)
      if (idMatch) id = Number(idMatch[1])
      const pl = /paranoia-level\/(\d)/.exec(line)
      if (pl && id !== undefined && !levels.has(id)) levels.set(id, Number(pl[1]))
    }
  }
  return levels
}

function fromRaw(encoded) {
  const raw = Buffer.from(encoded, 'base64').toString('latin1')
  const [head, ...rest] = raw.split('\r\n\r\n')
  const [requestLine, ...headerLines] = head.split('\r\n')
  const [method, uri] = requestLine.split(' ')
  const headers = {}
  for (const line of headerLines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim()
  }
  return { method, uri, headers, data: rest.join('\r\n\r\n') }
}

function compactInput(input) {
  const source = input.encoded_request ? fromRaw(input.encoded_request) : input
  const headers = {}
  for (const [name, value] of Object.entries(source.headers ?? {})) {
    const lower = name.toLowerCase()
    if (DEFAULT_HEADERS.has(lower)) continue
    if (lower === 'user-agent' && value === 'OWASP CRS test agent') continue
    headers[name] = String(value)
  }
  const out = { method: source.method ?? 'GET', uri: String(source.uri ?? '/') }
  if (Object.keys(headers).length > 0) out.headers = headers
  if (source.data !== undefined && source.data !== null && source.data !== '') {
    out.data = Array.isArray(source.data) ? source.data.join('\r\n') : String(source.data)
  }
  return out
}

const levels = paranoiaLevels()
const commit = execFileSync('git', ['-C', root, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim()
const cases = []
const testsDir = join(root, 'tests/regression/tests')
for (const dir of readdirSync(testsDir).sort()) {
  const category = dir.slice('REQUEST-'.length, 'REQUEST-'.length + 3)
  if (!CATEGORIES.includes(category)) continue
  for (const file of readdirSync(join(testsDir, dir)).sort()) {
    const doc = parse(readFileSync(join(testsDir, dir, file), 'utf8'))
    const rule = Number(doc.rule_id)
    for (const test of doc.tests ?? []) {
      test.stages.forEach((stage, index) => {
        const log = stage.output?.log ?? {}
        const expectIds = (log.expect_ids ?? []).map(Number)
        const noExpectIds = (log.no_expect_ids ?? []).map(Number)
        let expect
        if (expectIds.includes(rule)) expect = 'fire'
        else if (noExpectIds.includes(rule)) expect = 'nofire'
        else return
        const others = expectIds.filter((id) => id !== rule && id >= 930000 && id < 950000)
        cases.push({
          id: `${rule}-${test.test_id}${test.stages.length > 1 ? `.${index + 1}` : ''}`,
          rule,
          pl: levels.get(rule) ?? 0,
          expect,
          ...(others.length > 0 ? { others } : {}),
          ...compactInput(stage.input),
        })
      })
    }
  }
}
const out = {
  source: `coreruleset/coreruleset ${commit} tests/regression/tests`,
  license: 'Apache-2.0, see LICENSE and NOTICE beside this file',
  fields:
    'id = rule-test[.stage]; pl = paranoia level of the rule; expect = fire | nofire (CRS runs its tests at paranoia 4); others = other attack rules the stage expects',
  cases,
}
writeFileSync(
  new URL('../../tests/fixtures/crs/cases.json', import.meta.url),
  `${JSON.stringify(out, null, 0).replace(/\},\{"id"/g, '},\n{"id"')}\n`,
)
console.log(`${cases.length} cases`)
