import type { DescribedScheme, MiddlewareDescription } from '@palisade/shared/describe'
import { MemoryApiKeyStore } from './memory-store'
import type { ApiKeyStore } from './store'

/** What `apiKey` adds: one scheme per place the key is read (alternatives), 401, maybe 503. */
export function apiKeyDescription(
  extractFrom: 'header' | 'query' | 'both',
  headerName: string,
  queryParam: string,
  store: ApiKeyStore,
): MiddlewareDescription {
  const security: DescribedScheme[][] = []
  if (extractFrom !== 'query') {
    security.push([
      { name: 'apiKeyHeader', scheme: { type: 'apiKey', in: 'header', name: headerName } },
    ])
  }
  if (extractFrom !== 'header') {
    security.push([
      { name: 'apiKeyQuery', scheme: { type: 'apiKey', in: 'query', name: queryParam } },
    ])
  }
  const responses: MiddlewareDescription['responses'] = [
    { status: 401, description: 'Missing or invalid API key', codes: ['api_key_invalid'] },
  ]
  if (!(store instanceof MemoryApiKeyStore)) {
    responses.push({
      status: 503,
      description: 'The API key store is unavailable',
      codes: ['store_unavailable'],
    })
  }
  return { security, responses }
}
