// The README's start command, stopped the way a user stops it (Ctrl-C reaches the whole process
// group): the server closes and exits 0, and pnpm prints no failure lines (ELIFECYCLE) for it.
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')

/** Starts `command` in its own process group, waits for the server, signals the group. */
function startAndStop(command: string, args: string[], cwd: string, signal: NodeJS.Signals) {
  return new Promise<{ output: string; code: number | null; signal: NodeJS.Signals | null }>(
    (done, fail) => {
      const child = spawn(command, args, {
        cwd,
        detached: true,
        env: { ...process.env, PORT: '0', NODE_ENV: 'development' },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let output = ''
      let sent = false
      const read = (chunk: Buffer) => {
        output += chunk
        if (!sent && /listening on http/.test(output)) {
          sent = true
          if (child.pid !== undefined) process.kill(-child.pid, signal)
        }
      }
      child.stdout.on('data', read)
      child.stderr.on('data', read)
      child.on('error', fail)
      child.on('close', (code, sig) => done({ output, code, signal: sig }))
    },
  )
}

describe('stopping the example server', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'closes and exits 0 on %s',
    async (signal) => {
      // The start script's command (examples/package.json), without pnpm in front of it.
      const run = await startAndStop(
        process.execPath,
        ['--import', 'tsx', 'server.ts'],
        resolve(root, 'examples'),
        signal,
      )
      expect(run.output).toMatch(/listening on http/)
      // The partner key made at start, in the checksummed format, with the request to try it.
      expect(run.output).toMatch(
        /partner API key \(made at start, shown once\): (pal_demo_[0-9A-Za-z]{36})\n {4}curl -H 'X-API-Key: \1' http:\/\/127\.0\.0\.1:\d+\/api\/keys\/whoami/,
      )
      expect({ code: run.code, signal: run.signal }).toEqual({ code: 0, signal: null })
    },
    30_000,
  )

  it('prints no pnpm failure lines when the start command gets Ctrl-C', async () => {
    const run = await startAndStop('npx', ['-y', 'pnpm@10', 'start'], root, 'SIGINT')
    expect(run.output).toMatch(/listening on http/)
    expect(run.output).not.toMatch(/ELIFECYCLE|ERR_PNPM|Command failed/)
  }, 60_000)
})
