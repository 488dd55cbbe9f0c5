/**
 * Starts tests/deno-kv/server.ts in the deno binary the runtime matrix installs
 * (tests/runtime/node_modules/deno/deno), bundled from source, with `--unstable-kv` and network
 * access to 127.0.0.1 only. `stop()` kills it by PID.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bundle, type RemoteHost } from '../stores/remote'

export const DENO = fileURLToPath(new URL('../runtime/node_modules/deno/deno', import.meta.url))

/** A running Deno test server. */
export interface DenoServer extends RemoteHost {
  readonly url: string
  /** Everything the process printed so far. */
  output(): string
  stop(): Promise<void>
}

let bundled: Promise<string> | undefined

/** Starts one server on `kvPath` (`:memory:` by default, or a file several servers share). */
export async function startDenoServer(kvPath = ':memory:'): Promise<DenoServer> {
  bundled ??= bundle(fileURLToPath(new URL('./server.ts', import.meta.url)), 'neutral')
  const dir = mkdtempSync(join(tmpdir(), 'palisade-deno-'))
  const file = join(dir, 'server.mjs')
  writeFileSync(file, await bundled)
  const child: ChildProcess = spawn(
    DENO,
    [
      'run',
      '--unstable-kv',
      '--allow-net=127.0.0.1',
      '--allow-read',
      '--allow-write',
      '--no-prompt',
      file,
      kvPath,
    ],
    {
      cwd: dir,
      env: {
        ...process.env,
        NO_COLOR: '1',
        DENO_NO_UPDATE_CHECK: '1',
        DENO_DIR: join(dir, 'cache'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  const exited = once(child, 'exit')
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`deno did not start:\n${output}`)), 20_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening (\d+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve(Number(match[1]))
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`deno exited with ${code}:\n${output}`))
    })
  })
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    fetch: (path, init) => fetch(`http://127.0.0.1:${port}${path}`, init),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL')
        await exited
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
