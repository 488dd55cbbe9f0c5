import { ACCEPT_ENCODING_SCHEMA } from '@palisade/shared/content-coding'
import type { DescribedHeader, MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { ANSWERS, type SsrfGuardSetup } from './answers'

/** On the 415 for a compressed body: `identity`, send it uncompressed (RFC 9110 §12.5.3). */
const ACCEPT_ENCODING: DescribedHeader = {
  name: 'Accept-Encoding',
  description: '`identity`: send the body without a content coding',
  schema: { ...ACCEPT_ENCODING_SCHEMA },
}

/**
 * What `ssrfGuard` adds: its answers (`answers.ts`: 400 for a URL that is not http(s), 403 for a
 * blocked destination, and, where it reads the body itself, 415 for a compressed one).
 */
export function ssrfGuardDescription(setup: SsrfGuardSetup): MiddlewareDescription {
  return { responses: responsesOf(ANSWERS, setup, { 415: [ACCEPT_ENCODING] }) }
}
