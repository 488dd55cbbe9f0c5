import { ACCEPT_ENCODING_SCHEMA } from '@palisade/shared/content-coding'
import type { DescribedHeader, MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { BODY_METHODS } from '../internal/outcomes/described'
import { ANSWERS } from './answers'

/** On the 415 for a compressed body: `identity`, send it uncompressed (RFC 9110 §12.5.3). */
const ACCEPT_ENCODING: DescribedHeader = {
  name: 'Accept-Encoding',
  description: '`identity`: send the body without a content coding',
  schema: { ...ACCEPT_ENCODING_SCHEMA },
}

/**
 * What `xssSanitize` adds to operations that take a body: its answers (`answers.ts`: 400 for
 * malformed or too deeply nested JSON, 415 for JSON sent compressed).
 */
export const xssSanitizeDescription: MiddlewareDescription = {
  methods: [...BODY_METHODS],
  responses: responsesOf(ANSWERS, undefined, { 415: [ACCEPT_ENCODING] }),
}
