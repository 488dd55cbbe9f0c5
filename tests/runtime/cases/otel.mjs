// OpenTelemetry on every runtime of the matrix: `otel({ api })` with the real @opentelemetry/api and
// the SDK's BasicTracerProvider (SimpleSpanProcessor into an InMemorySpanExporter), registered as
// the global tracer provider, in front of a stack whose rateLimit refuses the second request. The
// finished spans are read back from the exporter: the span's name and status attribute, and the
// `palisade.decision` event of each decision.

const event = (span, middleware) =>
  span?.events.find(
    (e) => e.name === 'palisade.decision' && e.attributes?.['palisade.middleware'] === middleware,
  )

export default {
  name: 'otel',
  from: '@palisade/middleware/otel',
  exports: ['otel'],
  barrel: false,
  needs: [
    '@opentelemetry/api',
    '@opentelemetry/sdk-trace-base',
    '@palisade/middleware/rate-limit',
    '@palisade/middleware/request-id',
  ],
  async run({ mod: { otel }, needs, Hono, t }) {
    const api = needs['@opentelemetry/api']
    const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } =
      needs['@opentelemetry/sdk-trace-base']
    const { rateLimit } = needs['@palisade/middleware/rate-limit']
    const { requestId } = needs['@palisade/middleware/request-id']

    const exporter = new InMemorySpanExporter()
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    })
    t.ok(
      'the SDK registers as the global tracer provider',
      api.trace.setGlobalTracerProvider(provider),
    )

    const app = new Hono()
    app.use('*', otel({ api }))
    app.use('*', requestId())
    app.use('/api/*', rateLimit({ max: 1, windowMs: 60_000, keyGenerator: () => 'matrix' }))
    app.use(
      '/trial/*',
      rateLimit({ max: 1, windowMs: 60_000, keyGenerator: () => 'matrix', dryRun: true }),
    )
    app.get('/api/items/:id', (c) => c.json({ id: c.req.param('id') }))
    app.get('/trial/items/:id', (c) => c.json({ id: c.req.param('id') }))

    await t.status('first request passes', await app.request('/api/items/7'), 200)
    let span = exporter.getFinishedSpans().at(-1)
    t.equal('one span per request', exporter.getFinishedSpans().length, 1)
    t.equal('span is named after the method and route', span?.name, 'GET /api/items/:id')
    t.equal('span is a server span', span?.kind, api.SpanKind.SERVER)
    t.equal(
      'span: http.response.status_code 200',
      span?.attributes['http.response.status_code'],
      200,
    )
    t.equal('span: http.route', span?.attributes['http.route'], '/api/items/:id')
    t.equal(
      'allow: palisade.outcome',
      event(span, 'rateLimit')?.attributes['palisade.outcome'],
      'allow',
    )
    t.equal(
      'allow: no palisade.code',
      event(span, 'rateLimit')?.attributes['palisade.code'],
      undefined,
    )

    await t.status('second request → 429', await app.request('/api/items/7'), 429)
    span = exporter.getFinishedSpans().at(-1)
    t.equal('a span for the refused request too', exporter.getFinishedSpans().length, 2)
    t.equal('refused: span keeps the route name', span?.name, 'GET /api/items/:id')
    t.equal(
      'refused: span http.response.status_code 429',
      span?.attributes['http.response.status_code'],
      429,
    )
    const refused = event(span, 'rateLimit')?.attributes ?? {}
    t.equal('reject: palisade.middleware', refused['palisade.middleware'], 'rateLimit')
    t.equal('reject: palisade.outcome', refused['palisade.outcome'], 'reject')
    t.equal('reject: palisade.code', refused['palisade.code'], 'rate_limited')
    t.equal('reject: event http.response.status_code', refused['http.response.status_code'], 429)
    t.equal(
      'reject: a 4xx leaves the span status unset',
      span?.status.code,
      api.SpanStatusCode.UNSET,
    )

    await app.request('/trial/items/1')
    await t.status('dry run: over the limit still passes', await app.request('/trial/items/1'), 200)
    const trial = event(exporter.getFinishedSpans().at(-1), 'rateLimit')?.attributes ?? {}
    t.equal('dry-run: palisade.outcome', trial['palisade.outcome'], 'dry-run')
    t.equal('dry-run: palisade.code it would have got', trial['palisade.code'], 'rate_limited')

    await provider.shutdown()
    api.trace.disable()
  },
}
