/**
 * What leaves the process through logs and traces carries no secrets: c.get('log') values written
 * by a real pino instance and by the logger's own sinks (JSON and text), for generated values
 * hiding secret headers in every shape at random depths; the span attributes of the real
 * OpenTelemetry SDK for paths with session IDs and query strings.
 */
import { Writable } from 'node:stream'
import * as api from '@opentelemetry/api'
import { MeterProvider } from '@opentelemetry/sdk-metrics'
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base'
import { type LoggerOptions, logger, rateLimit, requestId } from '@palisade/middleware'
import { otel } from '@palisade/middleware/otel'
import fc from 'fast-check'
import { Hono } from 'hono'
import pino from 'pino'
import { describe, expect, it } from 'vitest'

/** Every secret value contains this; no written line may. */
const MARK = 'TOPSECRET'
/** The built-in secret header names, and one given in `redact`. */
const NAMES = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-xsrf-token',
  'x-csrf-token',
  'x-session-token',
]

function pinoSink() {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk))
      done()
    },
  })
  return { lines, log: pino({ level: 'info' }, stream) }
}

/** An app whose handler logs what `value()` gives; returns every line the request wrote. */
async function logThrough(sink: 'pino' | 'json' | 'text', value: () => unknown): Promise<string> {
  const lines: string[] = []
  const options: LoggerOptions = { redact: ['X-Session-Token'] }
  if (sink === 'pino') {
    const p = pinoSink()
    options.sink = p.log
    options.format = 'json'
    await appWith(options, value).request('/')
    return p.lines.join('')
  }
  options.format = sink
  options.sink = (line) => lines.push(line)
  await appWith(options, value).request('/')
  return lines.join('\n')
}

function appWith(options: LoggerOptions, value: () => unknown) {
  const app = new Hono()
  app.use('*', logger(options))
  app.use('*', requestId())
  app.get('/', (c) => {
    c.get('log').info({ value: value() }, 'logged')
    return c.text('ok')
  })
  return app
}

describe('redaction through a real pino', () => {
  it('scrubs header pairs, Headers, an axios-style error and its cause', async () => {
    const p = pinoSink()
    const app = new Hono()
    app.use('*', logger({ format: 'json', sink: p.log }))
    app.use('*', requestId({ generate: () => 'req-1' }))
    app.get('/', (c) => {
      const err = Object.assign(
        new Error('Request failed with status code 401', {
          cause: { headers: new Headers({ cookie: `sid=${MARK}-CAUSE` }) },
        }),
        {
          config: { headers: { Authorization: `Bearer ${MARK}-AXIOS`, Accept: 'text/plain' } },
        },
      )
      c.get('log').error(
        { err, pairs: [...c.req.raw.headers], headers: c.req.raw.headers },
        'upstream',
      )
      return c.text('ok')
    })
    await app.request('/', {
      headers: { authorization: `Bearer ${MARK}-REQ`, 'x-api-key': `${MARK}-KEY`, accept: '*/*' },
    })
    expect(p.lines).toHaveLength(2)
    const entry = JSON.parse(p.lines[0] as string)
    expect(entry).toMatchObject({
      level: 50,
      msg: 'upstream',
      reqId: 'req-1',
      err: {
        type: 'Error',
        message: expect.stringContaining('Request failed with status code 401'),
        config: { headers: { Authorization: '[redacted]', Accept: 'text/plain' } },
      },
      headers: { authorization: '[redacted]', 'x-api-key': '[redacted]', accept: '*/*' },
    })
    expect(entry.pairs).toContainEqual(['authorization', '[redacted]'])
    expect(entry.err.stack).toContain('Request failed')
    expect(p.lines.join('')).not.toContain(MARK)
  })

  it('keeps pino conventions: an Error as the fields goes under err', async () => {
    const p = pinoSink()
    const app = new Hono()
    app.use('*', logger({ format: 'json', sink: p.log }))
    app.get('/', (c) => {
      const err = Object.assign(new RangeError('out of range'), {
        request: { headers: { cookie: MARK } },
      })
      c.get('log').warn(err, 'failed')
      return c.text('ok')
    })
    await app.request('/')
    const entry = JSON.parse(p.lines[0] as string)
    expect(entry.err).toMatchObject({
      type: 'RangeError',
      message: 'out of range',
      request: { headers: { cookie: '[redacted]' } },
    })
    expect(p.lines.join('')).not.toContain(MARK)
  })
})

// Generated values: secrets under secret header names in random case, in every shape a header
// travels in (an object key, a pair, a flat raw list, Headers, a Map, a HAR entry, an error's
// config), nested at random depths in objects, arrays, Maps, Sets and error causes.
const secretName = fc
  .constantFrom(...NAMES)
  .chain((name) =>
    fc
      .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
      .map((upper) => [...name].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch)).join('')),
  )
const secretText = fc.nat().map((n) => `Bearer ${MARK}${n}`)
const secretValue = secretText.chain((s) =>
  fc.constantFrom<unknown>(s, [s], { token: s }, [[s]], new Map([['v', s]])),
)
const leaf = fc.oneof(
  fc.string({ maxLength: 12 }).filter((s) => !s.includes(MARK)),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
)
const SHAPES = ['object', 'pair', 'flat', 'headers', 'map', 'har', 'axios'] as const

function carry(
  shape: (typeof SHAPES)[number],
  name: string,
  secret: unknown,
  text: string,
  sibling: unknown,
) {
  switch (shape) {
    case 'object':
      return { accept: sibling, [name]: secret }
    case 'pair':
      return [name, secret]
    case 'flat':
      return ['accept', sibling, name, secret]
    case 'headers':
      return new Headers([
        ['accept', 'text/plain'],
        [name, text],
      ])
    case 'map':
      return new Map<unknown, unknown>([
        ['accept', sibling],
        [name, secret],
      ])
    case 'har':
      return [{ name, value: secret }]
    case 'axios':
      return Object.assign(new Error('Request failed'), { config: { headers: { [name]: secret } } })
  }
}

const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 5 },
    leaf,
    tie('carrier'),
    tie('object'),
    tie('array'),
    tie('map'),
    tie('set'),
    tie('error'),
  ),
  carrier: fc
    .tuple(fc.constantFrom(...SHAPES), secretName, secretValue, secretText, tie('value'))
    .map(([shape, name, secret, text, sibling]) => carry(shape, name, secret, text, sibling)),
  object: fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { maxKeys: 4 }),
  array: fc.array(tie('value'), { maxLength: 4 }),
  map: fc
    .array(fc.tuple(fc.string({ maxLength: 8 }), tie('value')), { maxLength: 3 })
    .map((entries) => new Map(entries)),
  set: fc.array(tie('value'), { maxLength: 3 }).map((items) => new Set(items)),
  error: fc
    .tuple(tie('value'), tie('value'))
    .map(([cause, extra]) => Object.assign(new Error('failed', { cause }), { extra })),
}))

describe('redaction property: no secret value reaches the serialised line', () => {
  it.each(['json', 'text', 'pino'] as const)('through the %s sink', async (sink) => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(value, { minLength: 1, maxLength: 3 }),
        secretName,
        secretText,
        async (values, name, text) => {
          // One secret at the top, so every line has something to redact.
          const out = await logThrough(sink, () => ({ values, direct: { [name]: text } }))
          expect(out).toContain('[redacted]')
          expect(out).not.toContain(MARK)
        },
      ),
      { numRuns: sink === 'pino' ? 100 : 200 },
    )
  })
})

describe('OpenTelemetry: url.path carries no session ID and no query string', () => {
  function traced() {
    const exporter = new InMemorySpanExporter()
    const tracer = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    }).getTracer('test')
    const meter = new MeterProvider().getMeter('test')
    const app = new Hono()
    app.use('*', otel({ api, tracer, meter }))
    app.get('/cart/*', (c) => c.text('ok'))
    app.get('/users/:id', (c) => c.text('ok'))
    return { app, exporter }
  }

  it.each([
    ['/cart;jsessionid=1A2B3C4D', '/cart'],
    ['/cart;JSESSIONID=1A2B3C4D/items/7', '/cart/items/7'],
    ['/cart/x;jsessionid=1A2B3C4D?token=1A2B3C4D#frag', '/cart/x'],
    ['/users/7;sid=1A2B3C4D;v=2', '/users/7'],
    ['/users/7?session=1A2B3C4D&x=1', '/users/7'],
    ['/users/a%3Bb', '/users/a%3Bb'],
  ])('%s is traced as %s', async (path, expected) => {
    const { app, exporter } = traced()
    await app.request(`http://localhost${path}`)
    const [span] = exporter.getFinishedSpans()
    expect(span?.attributes['url.path']).toBe(expected)
    const everything = JSON.stringify([span?.name, span?.attributes, span?.events])
    expect(everything).not.toContain('1A2B3C4D')
    expect(everything).not.toMatch(/jsessionid|[?#]/i)
  })
})

describe('decisions: the text log records untimed, otel still gets its timings', () => {
  it.each([
    ['otel after the text logger', true],
    ['otel before the text logger', false],
  ])('%s', async (_, loggerFirst) => {
    const exporter = new InMemorySpanExporter()
    const tracer = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    }).getTracer('test')
    const meter = new MeterProvider().getMeter('test')
    const lines: string[] = []
    const log = logger({ sink: (line) => lines.push(line) })
    const trace = otel({ api, tracer, meter })
    const app = new Hono()
    app.use('*', loggerFirst ? log : trace)
    app.use('*', loggerFirst ? trace : log)
    app.use('*', rateLimit({ max: 1, dryRun: true, keyGenerator: () => 'k' }))
    app.get('/', (c) => c.text('ok'))
    await app.request('/')
    await app.request('/')
    expect(lines[1]).toMatch(/^GET \/ 200 \d+ms dry-run=rateLimit:rate_limited$/)
    const event = exporter.getFinishedSpans()[1]?.events[0]
    expect(event?.attributes).toMatchObject({
      'palisade.outcome': 'dry-run',
      'palisade.duration_ms': expect.any(Number),
      'palisade.store.op': 'increment',
      'palisade.store.duration_ms': expect.any(Number),
    })
  })
})
