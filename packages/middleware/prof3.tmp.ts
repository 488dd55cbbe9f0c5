import { Hono } from 'hono'
import { httpSignature, signRequest } from './src/http-signature/index'

const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, [
  'sign',
  'verify',
])) as CryptoKeyPair
const body = JSON.stringify({ data: 'x'.repeat(1012) })
const signed = await signRequest(
  new Request('http://localhost/', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  }),
  { key: pair.privateKey, keyid: 'b', nonce: false },
)
const headers = Object.fromEntries(signed.headers)
const input = headers['signature-input']!.slice(5)
const base = new TextEncoder().encode(
  `"@method": POST\n"@target-uri": http://localhost/\n"content-digest": ${headers['content-digest']}\n"@signature-params": ${input}`,
)
const sig = Uint8Array.from(atob(headers.signature!.slice(6, -1)), (c) => c.charCodeAt(0))
const app = new Hono()
app.post('/', httpSignature({ keys: () => pair.publicKey }), async (c) =>
  c.text(`read ${(await c.req.text()).length}`),
)
const floor = new Hono()
floor.post('/', async (c) => {
  await crypto.subtle.digest('SHA-256', await c.req.arrayBuffer())
  if (!(await crypto.subtle.verify('Ed25519', pair.publicKey, sig, base))) return c.text('no', 401)
  return c.text(`read ${(await c.req.text()).length}`)
})
const req = () => new Request('http://localhost/', { method: 'POST', headers, body })
if ((await app.fetch(req())).status !== 200 || (await floor.fetch(req())).status !== 200)
  throw new Error('setup')
const ratios: number[] = []
for (let r = 0; r < 15; r++) {
  const m: number[] = []
  for (const a of [floor, app]) {
    const t = performance.now()
    for (let i = 0; i < 300; i++) await (await a.fetch(req())).text()
    m.push(performance.now() - t)
  }
  ratios.push((m[1] as number) / (m[0] as number))
}
ratios.sort((a, b) => a - b)
console.log('median ratio app/floor', ratios[7]?.toFixed(3), 'min', ratios[0]?.toFixed(3))
