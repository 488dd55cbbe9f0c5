import type { DescribedScheme, MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { ANSWERS } from './answers'
import { API_KEY_BODY_LENGTH, API_KEY_CHECKSUM_LENGTH } from './format'
import { MemoryApiKeyStore } from './memory-store'
import type { ApiKeyStore } from './store'

/** With `prefix`: the key's format, so a client (and a secret scanner) knows what a key looks like. */
function formatDescription(prefixes: readonly string[] | undefined): { description?: string } {
  if (prefixes === undefined) return {}
  const names = prefixes.map((p) => `\`${p}_\``).join(' or ')
  return {
    description: `A checksummed key: ${names}, then ${API_KEY_BODY_LENGTH} random base62 characters and a ${API_KEY_CHECKSUM_LENGTH}-character checksum (CRC32 of the random part). Any other value is answered 401 without a lookup.`,
  }
}

/**
 * What `apiKey` adds: one scheme per place the key is read (alternatives), with the key's format
 * when `prefix` is set, and its answers (`answers.ts`: 401, 403 with `scopes`, and 503 for a store
 * that can fail).
 */
export function apiKeyDescription(
  extractFrom: 'header' | 'query' | 'both',
  headerName: string,
  queryParam: string,
  store: ApiKeyStore,
  scopes: readonly string[],
  prefixes?: readonly string[],
): MiddlewareDescription {
  const security: DescribedScheme[][] = []
  const format = formatDescription(prefixes)
  if (extractFrom !== 'query') {
    security.push([
      {
        name: 'apiKeyHeader',
        scheme: { type: 'apiKey', in: 'header', name: headerName, ...format },
      },
    ])
  }
  if (extractFrom !== 'header') {
    security.push([
      { name: 'apiKeyQuery', scheme: { type: 'apiKey', in: 'query', name: queryParam, ...format } },
    ])
  }
  const storeCanFail = !(store instanceof MemoryApiKeyStore)
  return { security, responses: responsesOf(ANSWERS, { storeCanFail, scopes }) }
}
