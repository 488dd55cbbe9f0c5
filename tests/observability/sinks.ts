/**
 * Where the observability tests read decisions back from, built the way users wire them: a real
 * pino instance writing JSON lines into memory, and the OpenTelemetry SDK's in-memory span
 * exporter and a metric reader collected on demand.
 */
import { Writable } from 'node:stream'
import {
  AggregationTemporality,
  type DataPoint,
  MeterProvider,
  MetricReader,
} from '@opentelemetry/sdk-metrics'
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base'
import pino from 'pino'

/** A metric reader that keeps cumulative sums and is read with `collect()` when a test asks. */
export class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE })
  }
  protected onForceFlush(): Promise<void> {
    return Promise.resolve()
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve()
  }
}

/** A fresh pino logger, tracer and meter, with what each wrote so far. */
export function telemetrySinks() {
  const lines: Record<string, unknown>[] = []
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)))
      done()
    },
  })
  const exporter = new InMemorySpanExporter()
  const tracer = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  }).getTracer('test')
  const reader = new CollectingReader()
  const meter = new MeterProvider({ readers: [reader] }).getMeter('test')
  return { lines, log: pino({ level: 'info' }, stream), exporter, tracer, reader, meter }
}

/** The data points of the `palisade.decisions` counter, as collected now. */
export async function decisionPoints(reader: CollectingReader): Promise<DataPoint<number>[]> {
  const { resourceMetrics } = await reader.collect()
  const metric = resourceMetrics.scopeMetrics
    .flatMap((s) => s.metrics)
    .find((m) => m.descriptor.name === 'palisade.decisions')
  return (metric?.dataPoints ?? []) as DataPoint<number>[]
}
