// What the command writes to stdout is its result (a report, a document, findings), which CI
// parses or redirects to a file. The user's app writes there too: a request logger, a
// `console.log` at start-up. While the app is loaded and exercised, its stdout goes to stderr.

/** Writes `text` to the command's real stdout. */
export type Report = (text: string) => void

/**
 * Runs `run` with `process.stdout` (so also `console.log`, `console.info` and loggers that write
 * to stdout) sent to stderr; `run` writes its own result with the `report` it is given.
 */
export async function appOutputToStderr<T>(run: (report: Report) => Promise<T>): Promise<T> {
  const { stdout, stderr } = process
  const own = Object.hasOwn(stdout, 'write')
  const write = stdout.write
  const report: Report = (text) => {
    write.call(stdout, text)
  }
  stdout.write = ((...args: Parameters<typeof stderr.write>) =>
    stderr.write(...args)) as typeof stdout.write
  try {
    return await run(report)
  } finally {
    // A logger that batches its lines (as the example's does) writes them a turn later.
    await new Promise((resolve) => setImmediate(resolve))
    if (own) stdout.write = write
    else delete (stdout as { write?: unknown }).write
  }
}
