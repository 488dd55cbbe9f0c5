import { contentCodings, SEND_UNCOMPRESSED } from '@palisade/shared/content-coding'
import type { Context, MiddlewareHandler } from 'hono'
import { mayHaveBody } from '../internal/http/body'
import { readBodyForm, readBodyText } from '../internal/http/json-body'
import {
  assertBoolean,
  assertFunction,
  assertKnownKeys,
  assertNonEmptyString,
} from '../internal/options'
import { begin, decide } from '../internal/outcomes/decisions'
import { described } from '../internal/outcomes/described'
import { rejectOrRecord, type SsrfGuardRejects } from './answers'
import { compileChecker, type SsrfBlockReason, type SsrfCheckOptions } from './check-url'
import { ssrfGuardDescription } from './description'

/**
 * Options of {@link ssrfGuard}.
 *
 * @example
 * const options: SsrfGuardOptions = { extractUrl: (c) => c.req.query('target') ?? null }
 * app.get('/preview', ssrfGuard(options))
 */
export interface SsrfGuardOptions extends SsrfCheckOptions {
  /**
   * Finds the URL to check. Returning `null`/`undefined` lets the request pass. Default: the `url`
   * field of a JSON body, whatever its Content-Type, a form type included (`c.req.json()` ignores
   * it too), and every `url` field of a form body; read once into Hono's body cache, with `c.req.raw`
   * replaced by a Request carrying the same bytes, so the handler can still read the body. A body that
   * is not JSON, or has no `url`, passes. A `url` that is present but not a string is 400.
   */
  extractUrl?: (c: Context) => string | null | undefined | Promise<string | null | undefined>
  /**
   * Body of the 403 response for a blocked destination, used as is for every reason. Default:
   * `'Forbidden URL'`, or, when the hostname's DNS lookup failed or timed out,
   * `'Forbidden URL: DNS lookup of the hostname failed'` / `'… timed out'`, so a URL that is
   * merely unresolvable is not mistaken for one pointing inside.
   */
  message?: string
  /**
   * Report instead of refuse: a request that would be rejected passes, and its decision is
   * `dry-run` with the code it would have got. Default `false`.
   */
  dryRun?: boolean
}

/**
 * Rejects requests that ask the server to fetch an internal destination (server-side request
 * forgery). The target URL comes from `extractUrl` (default: the `url` field of a JSON body).
 *
 * `400 Invalid URL` for an unparseable URL or a scheme other than http/https; `403 Forbidden URL`
 * (or `message`) for a blocked destination, including a hostname whose lookup fails (then the
 * default message says so: `Forbidden URL: DNS lookup of the hostname failed`). No URL found
 * → the request passes. Without `extractUrl`, a body sent with a content coding
 * (`Content-Encoding: gzip`), whose `url` the default reader cannot see, is answered `415` with
 * `Accept-Encoding: identity`. See {@link checkUrl} for the policy and its limits.
 *
 * @param options.blockList extra IPs/CIDRs, default `[]`; invalid entries throw here.
 * @param options.allowPrivate default `false`.
 * @param options.extractUrl default: `url` of the JSON body.
 * @param options.message default `'Forbidden URL'`.
 * @param options.resolve default: platform DNS, none on edge runtimes.
 * @param options.resolveTimeout default `3000` ms; a slower lookup is a 403.
 * @example
 * ```ts
 * app.post('/webhooks', ssrfGuard(), async (c) => {
 *   const { url } = await c.req.json()
 *   // Re-check at fetch time and do not follow redirects blindly.
 *   const verdict = await checkUrl(url)
 *   if (!verdict.ok) return c.text('Forbidden URL', 403)
 *   await fetch(verdict.url, { method: 'POST', redirect: 'manual' })
 *   return c.body(null, 204)
 * })
 * ```
 */
export function ssrfGuard(options?: SsrfGuardOptions): MiddlewareHandler & SsrfGuardRejects {
  const FACTORY = 'ssrfGuard'
  assertKnownKeys(FACTORY, options, [
    'blockList',
    'allowPrivate',
    'extractUrl',
    'message',
    'resolve',
    'resolveTimeout',
    'dryRun',
  ])
  const check = compileChecker(FACTORY, options)
  const custom =
    options?.extractUrl === undefined
      ? undefined
      : assertFunction<NonNullable<SsrfGuardOptions['extractUrl']>>(
          FACTORY,
          'extractUrl',
          options.extractUrl,
        )
  const message =
    options?.message === undefined
      ? undefined
      : assertNonEmptyString(FACTORY, 'message', options.message)
  const dryRun = assertBoolean(FACTORY, 'dryRun', options?.dryRun ?? false)

  const description = ssrfGuardDescription({ readsBody: custom === undefined })
  return described(description, async function ssrfGuard(c, next) {
    const d = begin(c, FACTORY)
    // The default reader reads the body as sent: a compressed one would hide its `url` from it
    // and not from a handler that decodes it. Refused, as request validation refuses it.
    if (custom === undefined && mayHaveBody(c)) {
      const coding = c.req.header('content-encoding')
      if (coding !== undefined && contentCodings(coding).length > 0) {
        // The message is fixed: the client's header is not echoed into a text answer.
        rejectOrRecord(
          d,
          dryRun,
          415,
          'Unsupported Media Type: send the body without a content coding',
          'unsupported_media_type',
          SEND_UNCOMPRESSED,
        )
        await next()
        return
      }
    }
    const targets: unknown[] = custom ? [await custom(c)] : await urlsFromBody(c)
    let checked = false
    for (const target of targets) {
      if (target === null || target === undefined) continue
      checked = true
      // A non-string would be coerced by fetch(): ['http://127.0.0.1'] becomes 'http://127.0.0.1'.
      if (typeof target !== 'string') {
        rejectOrRecord(d, dryRun, 400, 'Invalid URL', 'url_invalid')
        break
      }
      const verdict = await check(target)
      if (!verdict.ok) {
        const forbidden = verdict.status === 403
        rejectOrRecord(
          d,
          dryRun,
          verdict.status,
          forbidden
            ? (message ?? DEFAULT_MESSAGES[verdict.reason] ?? 'Forbidden URL')
            : 'Invalid URL',
          forbidden ? 'url_forbidden' : 'url_invalid',
        )
        break
      }
    }
    decide(d, checked ? 'allow' : 'skip')
    await next()
  })
}

/** The default 403 message where the reason is not the destination itself. */
const DEFAULT_MESSAGES: Partial<Record<SsrfBlockReason, string>> = {
  'dns-failure': 'Forbidden URL: DNS lookup of the hostname failed',
  'dns-timeout': 'Forbidden URL: DNS lookup of the hostname timed out',
}

const FORM_TYPE = /^(?:application\/x-www-form-urlencoded|multipart\/form-data)\s*(?:;|$)/i

/**
 * The `url` values of the request body. JSON is tried whatever the Content-Type says, because
 * `c.req.json()` parses a `text/plain` body, or a JSON body labelled as a form, just as happily;
 * form bodies also give every `url` field.
 */
async function urlsFromBody(c: Context): Promise<unknown[]> {
  if (!mayHaveBody(c)) return []
  const urls: unknown[] = []
  if (FORM_TYPE.test(c.req.header('content-type') ?? '')) {
    const form = await readBodyForm(c)
    if (form) urls.push(...form.getAll('url'))
  }
  const text = await readBodyText(c)
  if (!text) return urls
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON: nothing here a JSON handler could fetch, and the handler's own parse rejects it.
    return urls
  }
  if (
    body !== null &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    Object.hasOwn(body, 'url')
  ) {
    urls.push((body as { url: unknown }).url)
  }
  return urls
}
