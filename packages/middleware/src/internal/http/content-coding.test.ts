import { brotliCompressSync, constants, createBrotliCompress } from 'node:zlib'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeContent } from './content-coding'

/** `bytes` in brotli, by Node's zlib (a second encoder beside the decoder under test). */
const brotli = (bytes: Uint8Array, quality = 5) =>
  new Uint8Array(
    brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: quality } }),
  )

/** Whether this runtime's DecompressionStream has `format` (Node 22 and later: `brotli`; not Node 20). */
function hasFormat(format: string): boolean {
  try {
    new DecompressionStream(format as CompressionFormat)
    return true
  } catch {
    return false
  }
}

/** `bytes` through a CompressionStream of `format`. */
async function compress(
  bytes: Uint8Array<ArrayBuffer>,
  format: CompressionFormat,
): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream(format))
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

/** `bytes` with each of `codings` applied in order (`x-gzip` is gzip). */
async function encode(
  bytes: Uint8Array<ArrayBuffer>,
  codings: readonly string[],
): Promise<Uint8Array<ArrayBuffer>> {
  let out = bytes
  for (const coding of codings) {
    out =
      coding === 'br' ? brotli(out) : await compress(out, coding === 'deflate' ? 'deflate' : 'gzip')
  }
  return out
}

const text = (s: string) => new TextEncoder().encode(s)

describe('decodeContent', () => {
  it('undoes gzip, x-gzip and deflate, and a stack of them, the last applied first', async () => {
    const body = text('{"comment":"1\' OR \'1\'=\'1"}')
    for (const codings of [
      ['gzip'],
      ['x-gzip'],
      ['deflate'],
      ['deflate', 'gzip'],
      ['gzip', 'gzip'],
    ]) {
      const decoded = await decodeContent(await encode(body, codings), codings, 1024)
      expect(decoded).toEqual({ bytes: body, complete: true })
    }
  })

  it('undoes a raw deflate stream sent as deflate, as lenient servers do', async () => {
    const body = text('<script>alert(1)</script>')
    const raw = await compress(body, 'deflate-raw')
    expect(await decodeContent(raw, ['deflate'], 1024)).toEqual({ bytes: body, complete: true })
  })

  it('keeps the first `limit` bytes of a body that decodes longer', async () => {
    const body = text('a'.repeat(5000))
    const decoded = await decodeContent(await encode(body, ['gzip']), ['gzip'], 100)
    expect(decoded).toEqual({ bytes: body.subarray(0, 100), complete: false })
    const exact = await decodeContent(await encode(body, ['gzip']), ['gzip'], 5000)
    expect(exact).toEqual({ bytes: body, complete: true })
  })

  it('stops a body built to expand at the limit: 64 MiB of zeros in 64 KiB of gzip', async () => {
    const zeros = new Uint8Array(64 * 2 ** 20)
    const bomb = await compress(zeros, 'gzip')
    expect(bomb.byteLength).toBeLessThan(100 * 1024)
    // A bomb inside a bomb: each layer is cut at the limit.
    const nested = await compress(bomb, 'gzip')
    for (const [bytes, codings] of [
      [bomb, ['gzip']],
      [nested, ['gzip', 'gzip']],
    ] as const) {
      const decoded = await decodeContent(bytes, codings, 65536)
      expect(decoded).toMatchObject({ complete: false })
      expect('bytes' in decoded && decoded.bytes.byteLength).toBe(65536)
    }
  })

  // Node 22 and later decode brotli: these run under test:node24; under Node 20 (`vitest run`)
  // and on Workers, where br is not decoded, the tests below and the runtime matrix
  // (tests/runtime/cases/shield.mjs) check what shield says instead.
  it.runIf(hasFormat('brotli'))(
    'undoes br where the runtime decodes brotli, alone and in a stack',
    async () => {
      const body = text('{"comment":"<script>alert(1)</script>"}')
      expect(await decodeContent(brotli(body), ['br'], 1024)).toEqual({
        bytes: body,
        complete: true,
      })
      const stacked = await encode(body, ['br', 'gzip'])
      expect(await decodeContent(stacked, ['br', 'gzip'], 1024)).toEqual({
        bytes: body,
        complete: true,
      })
      expect(await decodeContent(text('not brotli at all'), ['br'], 1024)).toEqual({ failed: 'br' })
    },
  )

  it.runIf(hasFormat('brotli'))(
    'stops a brotli body built to expand at the limit: 256 MiB of zeros in under 1 KiB',
    async () => {
      // Brotli expands far more than deflate: the whole body is one slice of input.
      const encoder = createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })
      const chunks: Uint8Array<ArrayBuffer>[] = []
      encoder.on('data', (chunk: Uint8Array<ArrayBuffer>) => chunks.push(chunk))
      const ended = new Promise((resolve) => encoder.on('end', resolve))
      const zeros = new Uint8Array(64 * 2 ** 20)
      for (let i = 0; i < 4; i++) encoder.write(zeros)
      encoder.end()
      await ended
      const bomb = new Uint8Array(await new Blob(chunks).arrayBuffer())
      expect(bomb.byteLength).toBeLessThan(1024)
      const decoded = await decodeContent(bomb, ['br'], 65536)
      expect(decoded).toMatchObject({ complete: false })
      expect('bytes' in decoded && decoded.bytes.byteLength).toBe(65536)
    },
  )

  it('names a coding it does not undo, and refuses a stack longer than clients send', async () => {
    expect(await decodeContent(text('x'), ['compress'], 10)).toEqual({ unsupported: 'compress' })
    expect(await decodeContent(text('x'), ['gzip', 'snappy'], 10)).toEqual({
      unsupported: 'snappy',
    })
    if (!hasFormat('zstd')) {
      expect(await decodeContent(text('x'), ['gzip', 'zstd'], 10)).toEqual({ unsupported: 'zstd' })
    }
    if (!hasFormat('brotli')) {
      expect(await decodeContent(brotli(text('x')), ['br'], 10)).toEqual({ unsupported: 'br' })
    }
    const five = ['gzip', 'gzip', 'gzip', 'gzip', 'gzip']
    expect(await decodeContent(text('x'), five, 10)).toEqual({ unsupported: five.join(', ') })
  })

  it('says which coding failed on bytes not in it, a cut stream included', async () => {
    expect(await decodeContent(text('{"a":1}'), ['gzip'], 1024)).toEqual({ failed: 'gzip' })
    expect(await decodeContent(text('{"a":1}'), ['deflate'], 1024)).toEqual({ failed: 'deflate' })
    const whole = await encode(text('hello world, hello world'), ['gzip'])
    const cut = whole.slice(0, whole.byteLength - 6)
    expect(await decodeContent(cut, ['gzip'], 1024)).toEqual({ failed: 'gzip' })
  })

  it('gives back what was compressed, for any bytes and codings (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 3000 }),
        fc.array(
          fc.constantFrom('gzip', 'x-gzip', 'deflate', ...(hasFormat('brotli') ? ['br'] : [])),
          {
            minLength: 1,
            maxLength: 3,
          },
        ),
        fc.integer({ min: 1, max: 4000 }),
        async (bytes, codings, limit) => {
          const body = new Uint8Array(bytes)
          const decoded = await decodeContent(await encode(body, codings), codings, limit)
          const complete = body.byteLength <= limit
          expect(decoded).toEqual({
            bytes: complete ? body : body.subarray(0, limit),
            complete,
          })
        },
      ),
      { numRuns: 150 },
    )
  })
})
