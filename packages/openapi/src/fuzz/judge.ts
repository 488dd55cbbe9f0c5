// What every answer must be: below 500, a documented status and Content-Type, a JSON body that
// matches its schema, a problem body with a code.
import type { OpenAPIPathItem, OpenAPIResponse } from '../model/document'
import { isRecord } from '../schema/common'
import type { SchemaCheck } from './peers'
import { JSON_MEDIA, type Plan } from './requests'

/** Statuses the operation documents: exact, a range (`4XX`) or `default`. */
function documented(item: OpenAPIPathItem, status: number): OpenAPIResponse | undefined {
  const responses = item.responses ?? {}
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default
}

function mediaOf(contentType: string | null): string | undefined {
  return contentType?.split(';')[0]?.trim().toLowerCase() || undefined
}

export async function judge(
  plan: Plan,
  res: Response,
  check: SchemaCheck,
): Promise<string | undefined> {
  if (res.status >= 500) return `server error (${res.status})`
  const response = documented(plan.item, res.status)
  if (!response) {
    const listed = Object.keys(plan.item.responses ?? {}).join(', ')
    return `status ${res.status} is not documented (documented: ${listed})`
  }
  const media = mediaOf(res.headers.get('content-type'))
  const text = await res.text()
  if (text === '' || res.status === 204 || res.status === 304) return undefined
  const content = response.content
  if (!content) return undefined
  if (media === undefined) return 'a body without Content-Type'
  const key = Object.keys(content).find((type) => type.toLowerCase() === media)
  if (key === undefined) {
    return `Content-Type ${media} is not documented for ${res.status} (documented: ${Object.keys(content).join(', ')})`
  }
  if (!JSON_MEDIA.test(media)) return undefined
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return `${media} body is not JSON`
  }
  if (media === 'application/problem+json' && (!isRecord(body) || typeof body.code !== 'string')) {
    return 'problem body without a `code`'
  }
  const schema = content[key]?.schema
  if (schema) {
    const error = check(schema, body)
    if (error) return `body does not match the documented schema: ${error}`
  }
  return undefined
}
