/** 256 MiB of zeros in brotli (405 bytes, Node's zlib at quality 4). */
const BROTLI_BOMB =
  'y///PwAkAOKxQHLv//j//weABEAcFoDu/R////8AkACIwwLQvf/j//8fABIAcVgAuvd//P//A0ACIA4LQPf+j///fwBIAMRhAeje//H//w8ACYA4LADd+z/+//8BIAEQhwWge//H//8/ACQA4rAAdO//+P//B4AEQBwWgO79H////wCQAIjDAtC9/+P//x8AEgBxWAC693/8//8DQAIgDgtA9/6P//9/AEgAxGEB6N7/8f//DwAJgDgsAN37P/7//wEgARCHBaB7/8f//z8AJADisAB07//4//8HgARAHBaA7v0f////AJAAiMMC0L3/4///HwASAHFYALr3f/z//wNAAiAOC0D3/o///38ASADEYQHo3v/x//8PAAmAOCwA3fs//v//ASABEIcFoHv/x///PwAkAOKwAHTv//j//weABEAcFoDu/R////8AkACIwwLQvf/j//8fABIAcVgAuvd//P//A0ACIA4LQPf+j///fwBIAMRhAeje//H//w8ACYA4LADd+7/8//8DIAEQhwWge/8H'

export default {
  name: 'shield',
  from: '@palisade/middleware/shield',
  exports: ['shield'],
  async run({ mod: { shield }, Hono, t }) {
    const app = new Hono()
    app.use('*', shield())
    app.post('/', async (c) => {
      try {
        return c.json({ got: await c.req.json() })
      } catch {
        return c.text('the handler refuses malformed JSON', 400)
      }
    })
    app.get('*', (c) => c.text('ok'))
    const post = (text, type = 'application/json') =>
      app.request('/', { method: 'POST', body: text, headers: { 'Content-Type': type } })

    const clean = await post('{"name":"O\'Brien","n":1}')
    t.equal('a clean JSON body → 200', clean.status, 200)
    t.equal('the body stays readable by the handler', (await clean.json()).got?.name, "O'Brien")
    await t.status(
      'an attack in a JSON field → 403',
      await post('{"c":"<script>alert(1)</script>"}'),
      403,
      'Forbidden',
    )
    await t.status(
      'an attack in the query → 403',
      await app.request('/s?q=%27%20OR%201%3D1--'),
      403,
      'Forbidden',
    )
    t.equal('a scanner probe → 403', (await app.request('/.env')).status, 403)
    t.equal(
      'malformed JSON passes shield (inspected as text) to the handler',
      (await post('{"a":')).status,
      400,
    )
    t.equal(
      'malformed JSON carrying an attack → 403',
      (await post('{"a":"<script>", oops')).status,
      403,
    )

    // A gzip body is decoded (DecompressionStream) and inspected; the handler gets it as sent.
    const gzip = async (text) =>
      new Uint8Array(
        await new Response(
          new Blob([text]).stream().pipeThrough(new CompressionStream('gzip')),
        ).arrayBuffer(),
      )
    const encoded = (bytes) =>
      app.request('/', {
        method: 'POST',
        body: bytes,
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      })
    t.equal(
      'an attack in a gzip JSON body → 403',
      (await encoded(await gzip('{"c":"<script>alert(1)</script>"}'))).status,
      403,
    )
    t.equal(
      'a clean gzip JSON body passes shield (this handler does not decode it: 400)',
      (await encoded(await gzip('{"c":"hello"}'))).status,
      400,
    )

    // br: decoded where the runtime's DecompressionStream has `brotli` (Node 22 and later, Bun,
    // Deno); elsewhere (Node 20, Workers) it passes uninspected, the decision says so. The bodies
    // are fixed bytes (Node's zlib made them), so every runtime reads the same.
    const bytesOf = (base64) => Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))
    let brotli = true
    try {
      new DecompressionStream('brotli')
    } catch {
      brotli = false
    }
    const br = (bytes, type = 'application/json') =>
      app.request('/', {
        method: 'POST',
        body: bytes,
        headers: { 'Content-Type': type, 'Content-Encoding': 'br' },
      })
    // {"c":"<script>alert(1)</script>"}
    const brAttack = bytesOf('CxCAeyJjIjoiPHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0PiJ9Aw==')
    if (brotli) {
      t.equal(
        'an attack in a br JSON body → 403 (brotli decoded here)',
        (await br(brAttack)).status,
        403,
      )
    } else {
      t.equal(
        'a br body passes uninspected where brotli is not decoded (the handler: 400)',
        (await br(brAttack)).status,
        400,
      )
    }
    // zstd likewise, where the runtime has `zstd` (Bun today).
    let zstd = true
    try {
      new DecompressionStream('zstd')
    } catch {
      zstd = false
    }
    // {"c":"<script>alert(1)</script>"} (Node 24's zlib)
    const zstdAttack = await app.request('/', {
      method: 'POST',
      body: bytesOf('KLUv/SAhCQEAeyJjIjoiPHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0PiJ9'),
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'zstd' },
    })
    t.equal(
      zstd
        ? 'an attack in a zstd JSON body → 403 (zstd decoded here)'
        : 'a zstd body passes uninspected where zstd is not decoded (the handler: 400)',
      zstdAttack.status,
      zstd ? 403 : 400,
    )
    // 256 MiB of zeros in 405 bytes: decoded no further than maxInspectBytes.
    const bomb = bytesOf(BROTLI_BOMB)
    const started = Date.now()
    const bombed = await br(bomb, 'text/plain')
    t.equal(
      'a br bomb (256 MiB of zeros in 405 bytes) passes shield to the handler',
      bombed.status,
      400,
    )
    t.ok('and takes under 5 s', Date.now() - started < 5000)

    const dry = new Hono()
    dry.use('*', shield({ dryRun: true }))
    dry.get('*', (c) => c.text('ok'))
    t.equal('dry run lets the attack through', (await dry.request('/?q=%3Cscript%3E')).status, 200)
  },
}
