/**
 * The example's log sink: `logger()` hands it one line per request, and it writes the lines of
 * one turn of the event loop to stdout together, in order, with one write. `console.log` per
 * request is a synchronous write each time, which under load cost the example about a sixth of
 * its CPU per request (see bench/FINDINGS.md); batching keeps every line and its order.
 */
export interface LineSink {
  (line: string): void
  /** Writes the lines not yet written (the app's `close()` calls it before the process exits). */
  flush(): void
}

export function stdoutLines(
  write: (chunk: string) => void = (chunk) => {
    process.stdout.write(chunk)
  },
): LineSink {
  let pending: string[] = []
  const flush = () => {
    if (pending.length === 0) return
    const chunk = `${pending.join('\n')}\n`
    pending = []
    write(chunk)
  }
  const sink = (line: string) => {
    if (pending.length === 0) setImmediate(flush)
    pending.push(line)
  }
  return Object.assign(sink, { flush })
}
