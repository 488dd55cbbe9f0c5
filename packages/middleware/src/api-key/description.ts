import type { DescribedScheme, MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { ANSWERS } from './answers'
import { MemoryApiKeyStore } from './memory-store'
import type { ApiKeyStore } from './store'

/**
 * What `apiKey` adds: one scheme per place the key is read (alternatives), and its answers
 * (`answers.ts`: 401, 403 with `scopes`, and 503 for a store that can fail).
 */
export function apiKeyDescription(
  extractFrom: 'header' | 'query' | 'both',
  headerName: string,
  queryParam: string,
  store: ApiKeyStore,
  scopes: readonly string[],
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
  const storeCanFail = !(store instanceof MemoryApiKeyStore)
  return { security, responses: responsesOf(ANSWERS, { storeCanFail, scopes }) }
}
